//! A small safe layer over libcvcuda_c's C ABI: errors carry the library's status and message, handles release
//! their reference when dropped. `ffi` holds the raw declarations.
pub mod ffi;

use std::ffi::{CStr, CString};
use std::fmt;
use std::os::raw::{c_char, c_void};
use std::ptr;

/// A failed call: the status and the library's message for it (function, argument, value, rule).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    pub status: ffi::cvStatus,
    pub message: String,
}

impl Error {
    pub fn status_name(&self) -> &'static str {
        status_name(self.status)
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.status_name(), self.message)
    }
}

impl std::error::Error for Error {}

pub type Result<T> = std::result::Result<T, Error>;

/// Ok(()) for CV_SUCCESS, else the calling thread's last error message.
pub fn check(status: ffi::cvStatus) -> Result<()> {
    if status == ffi::CV_SUCCESS {
        return Ok(());
    }
    // SAFETY: cvGetLastErrorMessage never returns NULL; the string lives until this thread's next call.
    let message = unsafe { CStr::from_ptr(ffi::cvGetLastErrorMessage()) }.to_string_lossy().into_owned();
    Err(Error { status, message })
}

pub fn status_name(status: ffi::cvStatus) -> &'static str {
    // SAFETY: cvStatusName returns a static, NUL-terminated string for any value.
    unsafe { CStr::from_ptr(ffi::cvStatusName(status)) }.to_str().unwrap_or("CV_STATUS_UNKNOWN")
}

/// Version of the loaded library, CVCUDA_C_VERSION_NUMBER encoding.
pub fn version() -> u32 {
    // SAFETY: no arguments, cannot fail.
    unsafe { ffi::cvGetVersion() }
}

pub fn stats() -> Result<ffi::cvStats> {
    let mut s = ffi::cvStats { structSize: std::mem::size_of::<ffi::cvStats>() as u32, ..Default::default() };
    // SAFETY: s is a valid, initialised cvStats.
    check(unsafe { ffi::cvGetStats(&mut s) })?;
    Ok(s)
}

/// Blocks until all tracked GPU work is complete, then runs deferred releases (cvSyncAndCollect).
pub fn sync_and_collect() -> Result<()> {
    // SAFETY: no arguments.
    check(unsafe { ffi::cvSyncAndCollect() })
}

fn c_string(s: Option<&str>) -> Result<Option<CString>> {
    s.map(|s| CString::new(s).map_err(|_| Error { status: ffi::CV_ERROR_INVALID_ARGUMENT, message: format!("{s:?} contains NUL") }))
        .transpose()
}

/// A CUDA Array Interface description built from Rust values.
pub fn array_interface(data: u64, typestr: &str, shape: &[i64], byte_strides: Option<&[i64]>) -> ffi::cvArrayInterface {
    let mut cai = ffi::cvArrayInterface::init();
    cai.data = data;
    cai.ndim = shape.len() as i32;
    cai.shape[..shape.len()].copy_from_slice(shape);
    if let Some(strides) = byte_strides {
        cai.hasStrides = 1;
        cai.strides[..strides.len()].copy_from_slice(strides);
    }
    for (dst, src) in cai.typestr.iter_mut().zip(typestr.bytes().take(15)) {
        *dst = src as c_char;
    }
    cai
}

/// One reference to a cvStream.
pub struct Stream(ffi::cvStream);

impl Stream {
    /// A new non-blocking CUDA stream (cvStreamCreate); CV_ERROR_NO_DEVICE without a GPU.
    pub fn create() -> Result<Self> {
        let mut handle = ptr::null_mut();
        // SAFETY: handle is a valid out pointer.
        check(unsafe { ffi::cvStreamCreate(&mut handle) })?;
        Ok(Stream(handle))
    }
    pub fn raw(&self) -> ffi::cvStream {
        self.0
    }
    /// Blocks until the stream's work has completed.
    pub fn sync(&self) -> Result<()> {
        // SAFETY: self.0 is a live handle.
        check(unsafe { ffi::cvStreamSync(self.0) })
    }
}

impl Drop for Stream {
    fn drop(&mut self) {
        // SAFETY: we own one reference; NULL is a no-op.
        unsafe { ffi::cvStreamRelease(self.0) }
    }
}

/// One reference to a cvTensor.
pub struct Tensor(ffi::cvTensor);

impl Tensor {
    /// Zero-copy view of device memory described by a CUDA Array Interface (cvTensorWrap); never frees it.
    pub fn wrap(cai: &ffi::cvArrayInterface, layout: Option<&str>) -> Result<Self> {
        let layout = c_string(layout)?;
        let mut handle = ptr::null_mut();
        // SAFETY: cai is a valid struct, layout NULL or NUL-terminated, handle a valid out pointer.
        check(unsafe { ffi::cvTensorWrap(cai, layout.as_ref().map_or(ptr::null(), |l| l.as_ptr()), &mut handle) })?;
        Ok(Tensor(handle))
    }
    /// A C-contiguous tensor allocated by the library (cvTensorCreate).
    pub fn create(shape: &[i64], dtype: ffi::cvDataType, layout: Option<&str>) -> Result<Self> {
        let layout = c_string(layout)?;
        let mut handle = ptr::null_mut();
        // SAFETY: shape has shape.len() elements; other arguments as in wrap.
        check(unsafe {
            ffi::cvTensorCreate(shape.len() as i32, shape.as_ptr(), dtype, layout.as_ref().map_or(ptr::null(), |l| l.as_ptr()), &mut handle)
        })?;
        Ok(Tensor(handle))
    }
    pub fn raw(&self) -> ffi::cvTensor {
        self.0
    }
    pub fn info(&self) -> Result<ffi::cvTensorInfo> {
        let mut info = ffi::cvTensorInfo::init();
        // SAFETY: info is initialised with its structSize.
        check(unsafe { ffi::cvTensorGetInfo(self.0, &mut info) })?;
        Ok(info)
    }
    /// The tensor as a CAI v3 (cvTensorExport), without taking the writer stream.
    pub fn export(&self) -> Result<ffi::cvArrayInterface> {
        let mut cai = ffi::cvArrayInterface::init();
        // SAFETY: cai is initialised; NULL writerStream is allowed.
        check(unsafe { ffi::cvTensorExport(self.0, &mut cai, ptr::null_mut()) })?;
        Ok(cai)
    }
    /// Runs `on_release` once the library no longer needs the memory (cvTensorSetCleanup).
    pub fn set_cleanup<F: FnOnce() + Send + 'static>(&self, on_release: F) -> Result<()> {
        unsafe extern "C" fn trampoline<F: FnOnce()>(user: *mut c_void) {
            // SAFETY: user is the Box leaked below, handed back exactly once by the library.
            let f = unsafe { Box::from_raw(user as *mut F) };
            f();
        }
        let user = Box::into_raw(Box::new(on_release)) as *mut c_void;
        // SAFETY: the trampoline matches cvCleanupFn; user stays valid until it runs.
        let status = unsafe { ffi::cvTensorSetCleanup(self.0, Some(trampoline::<F>), user) };
        if status != ffi::CV_SUCCESS {
            // SAFETY: the library refused the callback, so it will never hand `user` back.
            drop(unsafe { Box::from_raw(user as *mut F) });
        }
        check(status)
    }
}

impl Drop for Tensor {
    fn drop(&mut self) {
        // SAFETY: we own one reference.
        unsafe { ffi::cvTensorRelease(self.0) }
    }
}

/// Enqueues dst = flip(src) on `stream` (OpenCV flipCode: 0 rows, > 0 columns, < 0 both).
pub fn flip(stream: &Stream, src: &Tensor, dst: &Tensor, flip_code: i32) -> Result<()> {
    // SAFETY: all handles are live.
    check(unsafe { ffi::cvFlip(stream.0, src.0, dst.0, flip_code) })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;

    const FAKE_DATA: u64 = 0x7f00_0010_0000;

    fn ready(mut cai: ffi::cvArrayInterface) -> ffi::cvArrayInterface {
        cai.streamKind = ffi::CV_CAI_STREAM_NONE;
        cai
    }

    #[test]
    fn version_matches_these_declarations() {
        assert_eq!(version(), ffi::CVCUDA_C_VERSION_NUMBER);
    }

    // The library writes structSize = sizeof(struct) as its C compiler sees it: the Rust layouts must agree. The
    // outputs go to an oversized buffer, so that a Rust struct smaller than C's cannot be overrun.
    #[test]
    fn struct_sizes_match_the_c_compiler() {
        let t = Tensor::wrap(&ready(array_interface(FAKE_DATA, "|u1", &[2, 3], None)), Some("HW")).unwrap();
        let mut buffer = [0u64; 128];
        buffer[0] = std::mem::size_of_val(&buffer) as u64; // structSize (low 32 bits), 1024
        let out = buffer.as_mut_ptr();
        assert_eq!(unsafe { ffi::cvTensorExport(t.raw(), out.cast(), ptr::null_mut()) }, ffi::CV_SUCCESS);
        assert_eq!(buffer[0] as u32 as usize, std::mem::size_of::<ffi::cvArrayInterface>());
        buffer[0] = std::mem::size_of_val(&buffer) as u64;
        assert_eq!(unsafe { ffi::cvTensorGetInfo(t.raw(), out.cast()) }, ffi::CV_SUCCESS);
        assert_eq!(buffer[0] as u32 as usize, std::mem::size_of::<ffi::cvTensorInfo>());
        buffer[0] = std::mem::size_of_val(&buffer) as u64;
        assert_eq!(unsafe { ffi::cvGetStats(out.cast()) }, ffi::CV_SUCCESS);
        assert_eq!(buffer[0] as u32 as usize, std::mem::size_of::<ffi::cvStats>());
    }

    #[test]
    fn wrap_describes_the_buffer() {
        let cai = ready(array_interface(FAKE_DATA, "<f4", &[4, 5, 3], Some(&[64, 12, 4])));
        let t = Tensor::wrap(&cai, Some("HWC")).unwrap();
        let info = t.info().unwrap();
        assert_eq!(info.ndim, 3);
        assert_eq!(&info.shape[..3], &[4, 5, 3]);
        assert_eq!(&info.strides[..3], &[64, 12, 4]);
        assert_eq!(info.data, FAKE_DATA);
        assert_eq!(info.dtype, ffi::CV_DTYPE_FLOAT32);
        let layout = unsafe { CStr::from_ptr(info.layout.as_ptr()) };
        assert_eq!(layout.to_str().unwrap(), "HWC");
        let exported = t.export().unwrap();
        assert_eq!((exported.version, exported.data, exported.streamKind), (3, FAKE_DATA, ffi::CV_CAI_STREAM_NONE));
    }

    #[test]
    fn errors_carry_status_and_message() {
        let bad = array_interface(FAKE_DATA, "<f4", &[2, 3], Some(&[12, 6]));
        let err = Tensor::wrap(&bad, Some("HW")).err().unwrap();
        assert_eq!(err.status, ffi::CV_ERROR_INVALID_ARGUMENT);
        assert_eq!(err.message, "cvTensorWrap: strides[1]=6 is not a multiple of itemsize 4");
        assert_eq!(err.to_string(), "CV_ERROR_INVALID_ARGUMENT: cvTensorWrap: strides[1]=6 is not a multiple of itemsize 4");
        let err = Tensor::wrap(&array_interface(FAKE_DATA, "<c32", &[2], None), None).err().unwrap();
        assert_eq!(err.status, ffi::CV_ERROR_NOT_SUPPORTED);
        let err = Tensor::wrap(&array_interface(FAKE_DATA, "|u1", &[2, 3], None), Some("NHWC")).err().unwrap();
        assert!(err.message.contains("layout='NHWC'"), "{}", err.message);
    }

    #[test]
    fn cleanup_runs_once_when_the_last_reference_goes() {
        let calls = Arc::new(AtomicUsize::new(0));
        let t = Tensor::wrap(&ready(array_interface(FAKE_DATA, "|u1", &[8], None)), None).unwrap();
        let seen = Arc::clone(&calls);
        t.set_cleanup(move || {
            seen.fetch_add(1, Ordering::SeqCst);
        })
        .unwrap();
        let second = t.set_cleanup(|| {}).err().unwrap();
        assert_eq!(second.status, ffi::CV_ERROR_INVALID_STATE);
        assert_eq!(calls.load(Ordering::SeqCst), 0);
        drop(t);
        assert_eq!(calls.load(Ordering::SeqCst), 1);
    }

    #[test]
    fn stream_creation_needs_a_device() {
        match Stream::create() {
            Ok(_) => {} // a GPU is visible
            Err(e) => {
                assert_eq!(e.status, ffi::CV_ERROR_NO_DEVICE);
                assert!(e.message.starts_with("cvStreamCreate: no "), "{}", e.message);
            }
        }
    }
}
