//! Uses libcvcuda_c from Rust: checks the version, wraps a buffer description, checks error handling (no GPU
//! needed), then, when a GPU is visible, flips an image and compares it with a CPU reference.
//! The device memory is filled and read back through the CUDA driver API (libcuda.so.1, loaded at run time), so the
//! binary starts on machines without a driver.
//! Exit status: 0 ok, 1 failure, 77 no GPU for the GPU part (1 instead when CVCUDA_REQUIRE_GPU=1).
use cvcuda_sample::{array_interface, ffi, flip, stats, sync_and_collect, version, Stream, Tensor};
use std::ffi::{c_void, CStr};
use std::os::raw::{c_char, c_int, c_uint};
use std::process::ExitCode;

const NO_GPU: u8 = 77;

fn no_gpu_paths() -> Result<(), String> {
    if version() != ffi::CVCUDA_C_VERSION_NUMBER {
        return Err(format!("library version {} but these declarations are {}", version(), ffi::CVCUDA_C_VERSION_NUMBER));
    }
    println!("libcvcuda_c version {}", version());

    let mut cai = array_interface(0x7f00_0010_0000, "<V2", &[2, 480, 640, 3], None);
    cai.dtype = 11; // CV_DTYPE_BFLOAT16: "<V2" alone does not say which 2-byte type
    cai.streamKind = ffi::CV_CAI_STREAM_NONE;
    let tensor = Tensor::wrap(&cai, Some("NHWC")).map_err(|e| e.to_string())?;
    let info = tensor.info().map_err(|e| e.to_string())?;
    println!("wrapped NHWC bfloat16 {:?}, byte strides {:?}", &info.shape[..4], &info.strides[..4]);
    if info.strides[..4] != [1_843_200, 3840, 6, 2] {
        return Err("unexpected strides".into());
    }

    cai.typestr = [0; 16];
    for (dst, src) in cai.typestr.iter_mut().zip(b">f4") {
        *dst = *src as c_char;
    }
    cai.dtype = ffi::CV_DTYPE_UNSPECIFIED;
    match Tensor::wrap(&cai, Some("NHWC")) {
        Err(e) if e.status == ffi::CV_ERROR_INVALID_ARGUMENT && e.message.contains("'>f4'") => println!("rejected as expected: {e}"),
        Err(e) => return Err(format!("wrong error: {e}")),
        Ok(_) => return Err("a big-endian typestr was accepted".into()),
    }
    Ok(())
}

/// The few CUDA driver API entries the GPU path needs, resolved with dlopen/dlsym.
struct Driver {
    memcpy_htod: unsafe extern "C" fn(u64, *const c_void, usize) -> c_int,
    memcpy_dtoh: unsafe extern "C" fn(*mut c_void, u64, usize) -> c_int,
    ctx_synchronize: unsafe extern "C" fn() -> c_int,
}

extern "C" {
    fn dlopen(filename: *const c_char, flags: c_int) -> *mut c_void;
    fn dlsym(handle: *mut c_void, symbol: *const c_char) -> *mut c_void;
}

impl Driver {
    /// Loads libcuda.so.1 and makes device 0's primary context (the one the library uses) current on this thread.
    fn load() -> Result<Driver, String> {
        const RTLD_NOW: c_int = 2;
        // SAFETY: plain C calls with NUL-terminated names; each symbol is cast to its documented signature.
        unsafe {
            let lib = dlopen(c"libcuda.so.1".as_ptr(), RTLD_NOW);
            if lib.is_null() {
                return Err("libcuda.so.1 not found".into());
            }
            let sym = |name: &CStr| -> Result<*mut c_void, String> {
                let p = dlsym(lib, name.as_ptr());
                if p.is_null() { Err(format!("{name:?} not found")) } else { Ok(p) }
            };
            let init: unsafe extern "C" fn(c_uint) -> c_int = std::mem::transmute(sym(c"cuInit")?);
            let retain: unsafe extern "C" fn(*mut *mut c_void, c_int) -> c_int =
                std::mem::transmute(sym(c"cuDevicePrimaryCtxRetain")?);
            let set_current: unsafe extern "C" fn(*mut c_void) -> c_int = std::mem::transmute(sym(c"cuCtxSetCurrent")?);
            let mut ctx = std::ptr::null_mut();
            if init(0) != 0 || retain(&mut ctx, 0) != 0 || set_current(ctx) != 0 {
                return Err("cannot make the primary context current".into());
            }
            Ok(Driver {
                memcpy_htod: std::mem::transmute(sym(c"cuMemcpyHtoD_v2")?),
                memcpy_dtoh: std::mem::transmute(sym(c"cuMemcpyDtoH_v2")?),
                ctx_synchronize: std::mem::transmute(sym(c"cuCtxSynchronize")?),
            })
        }
    }
    fn upload(&self, dst: u64, src: &[u8]) -> Result<(), String> {
        // SAFETY: dst is a device allocation of at least src.len() bytes; the context sync completes the copy.
        let ok = unsafe { (self.memcpy_htod)(dst, src.as_ptr().cast(), src.len()) == 0 && (self.ctx_synchronize)() == 0 };
        ok.then_some(()).ok_or_else(|| "cuMemcpyHtoD failed".into())
    }
    fn download(&self, dst: &mut [u8], src: u64) -> Result<(), String> {
        // SAFETY: src is a device allocation of at least dst.len() bytes.
        let ok = unsafe { (self.memcpy_dtoh)(dst.as_mut_ptr().cast(), src, dst.len()) == 0 };
        ok.then_some(()).ok_or_else(|| "cuMemcpyDtoH failed".into())
    }
}

fn gpu_path(stream: Stream) -> Result<(), String> {
    let (h, w, c) = (270usize, 481usize, 3usize);
    let shape = [h as i64, w as i64, c as i64];
    let src = Tensor::create(&shape, ffi::CV_DTYPE_UINT8, Some("HWC")).map_err(|e| e.to_string())?;
    let dst = Tensor::create(&shape, ffi::CV_DTYPE_UINT8, Some("HWC")).map_err(|e| e.to_string())?;
    sync_and_collect().map_err(|e| e.to_string())?; // the stream-ordered allocations have completed
    let driver = Driver::load()?;
    let mut state = 0x2545_f491u32;
    let image: Vec<u8> = (0..h * w * c)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            (state >> 24) as u8
        })
        .collect();
    let (src_ptr, dst_ptr) = (src.info().map_err(|e| e.to_string())?.data, dst.info().map_err(|e| e.to_string())?.data);
    driver.upload(src_ptr, &image)?;
    let mut result = vec![0u8; image.len()];
    for flip_code in [0, 1, -1] {
        driver.upload(dst_ptr, &vec![0xA5; image.len()])?; // poison
        flip(&stream, &src, &dst, flip_code).map_err(|e| e.to_string())?;
        stream.sync().map_err(|e| e.to_string())?;
        driver.download(&mut result, dst_ptr)?;
        for y in 0..h {
            for x in 0..w {
                let sy = if flip_code <= 0 { h - 1 - y } else { y };
                let sx = if flip_code != 0 { w - 1 - x } else { x };
                if result[(y * w + x) * c..][..c] != image[(sy * w + sx) * c..][..c] {
                    return Err(format!("flipCode {flip_code}: pixel ({y}, {x}) differs from the CPU reference"));
                }
            }
        }
        println!("flipCode {flip_code:2}: matches the CPU reference");
    }
    let small = Tensor::create(&[2, 2, 3], ffi::CV_DTYPE_UINT8, Some("HWC")).map_err(|e| e.to_string())?;
    match flip(&stream, &src, &small, 1) {
        Err(e) if e.status == ffi::CV_ERROR_INVALID_ARGUMENT => println!("shape mismatch rejected: {e}"),
        other => return Err(format!("a shape mismatch gave {other:?}")),
    }
    drop((src, dst, small));
    sync_and_collect().map_err(|e| e.to_string())?;
    let s = stats().map_err(|e| e.to_string())?;
    if s.liveTensors != 0 {
        return Err(format!("{} tensors still alive", s.liveTensors));
    }
    Ok(())
}

fn main() -> ExitCode {
    if let Err(e) = no_gpu_paths() {
        println!("FAILED: {e}");
        return ExitCode::FAILURE;
    }
    let stream = match Stream::create() {
        Ok(s) => s,
        Err(e) if e.status == ffi::CV_ERROR_NO_DEVICE => {
            println!("GPU path skipped: {e}");
            let required = std::env::var("CVCUDA_REQUIRE_GPU").is_ok_and(|v| v == "1");
            return if required { ExitCode::FAILURE } else { ExitCode::from(NO_GPU) };
        }
        Err(e) => {
            println!("FAILED: {e}");
            return ExitCode::FAILURE;
        }
    };
    match gpu_path(stream) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            println!("FAILED: {e}");
            ExitCode::FAILURE
        }
    }
}
