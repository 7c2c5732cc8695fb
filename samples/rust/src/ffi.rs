//! The C ABI of libcvcuda_c (include/cvcuda/*.h), declared by hand. Enums are plain i32 values: the library may
//! return codes this crate does not know yet.
#![allow(non_camel_case_types, non_snake_case, dead_code)]

use std::os::raw::{c_char, c_void};

pub const CV_MAX_DIMS: usize = 8;

pub type cvStatus = i32;
pub const CV_SUCCESS: cvStatus = 0;
pub const CV_ERROR_INVALID_ARGUMENT: cvStatus = 1;
pub const CV_ERROR_NOT_SUPPORTED: cvStatus = 2;
pub const CV_ERROR_OUT_OF_MEMORY: cvStatus = 3;
pub const CV_ERROR_NO_DEVICE: cvStatus = 4;
pub const CV_ERROR_CUDA: cvStatus = 5;
pub const CV_ERROR_INVALID_STATE: cvStatus = 6;
pub const CV_ERROR_INTERNAL: cvStatus = 7;

pub type cvDataType = i32;
pub const CV_DTYPE_UNSPECIFIED: cvDataType = 0;
pub const CV_DTYPE_UINT8: cvDataType = 2;
pub const CV_DTYPE_FLOAT32: cvDataType = 12;

pub type cvCaiStreamKind = i32;
pub const CV_CAI_STREAM_ABSENT: cvCaiStreamKind = 0;
pub const CV_CAI_STREAM_NONE: cvCaiStreamKind = 1;
pub const CV_CAI_STREAM_INTEGER: cvCaiStreamKind = 2;

pub const CVCUDA_C_VERSION_MAJOR: u32 = 0;
pub const CVCUDA_C_VERSION_MINOR: u32 = 1;
pub const CVCUDA_C_VERSION_PATCH: u32 = 0;
pub const CVCUDA_C_VERSION_NUMBER: u32 = CVCUDA_C_VERSION_MAJOR * 10000 + CVCUDA_C_VERSION_MINOR * 100 + CVCUDA_C_VERSION_PATCH;

#[repr(C)]
pub struct cvTensor_t {
    _opaque: [u8; 0],
}
pub type cvTensor = *mut cvTensor_t;
#[repr(C)]
pub struct cvStream_t {
    _opaque: [u8; 0],
}
pub type cvStream = *mut cvStream_t;

pub type cvCleanupFn = Option<unsafe extern "C" fn(userData: *mut c_void)>;

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct cvArrayInterface {
    pub structSize: u32,
    pub version: i32,
    pub data: u64,
    pub readonly: i32,
    pub ndim: i32,
    pub shape: [i64; CV_MAX_DIMS],
    pub strides: [i64; CV_MAX_DIMS],
    pub hasStrides: i32,
    pub streamKind: cvCaiStreamKind,
    pub stream: i64,
    pub typestr: [c_char; 16],
    pub dtype: cvDataType,
    pub reserved0: u32,
}

impl cvArrayInterface {
    /// CV_ARRAY_INTERFACE_INIT.
    pub fn init() -> Self {
        Self {
            structSize: std::mem::size_of::<Self>() as u32,
            version: 3,
            data: 0,
            readonly: 0,
            ndim: 0,
            shape: [0; CV_MAX_DIMS],
            strides: [0; CV_MAX_DIMS],
            hasStrides: 0,
            streamKind: CV_CAI_STREAM_ABSENT,
            stream: 0,
            typestr: [0; 16],
            dtype: CV_DTYPE_UNSPECIFIED,
            reserved0: 0,
        }
    }
}

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct cvTensorInfo {
    pub structSize: u32,
    pub ndim: i32,
    pub shape: [i64; CV_MAX_DIMS],
    pub strides: [i64; CV_MAX_DIMS],
    pub data: u64,
    pub dtype: cvDataType,
    pub readonly: i32,
    pub ownsMemory: i32,
    pub layout: [c_char; CV_MAX_DIMS + 1],
    pub reserved0: [c_char; 7],
}

impl cvTensorInfo {
    /// CV_TENSOR_INFO_INIT.
    pub fn init() -> Self {
        Self {
            structSize: std::mem::size_of::<Self>() as u32,
            ndim: 0,
            shape: [0; CV_MAX_DIMS],
            strides: [0; CV_MAX_DIMS],
            data: 0,
            dtype: CV_DTYPE_UNSPECIFIED,
            readonly: 0,
            ownsMemory: 0,
            layout: [0; CV_MAX_DIMS + 1],
            reserved0: [0; 7],
        }
    }
}

#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct cvStats {
    pub structSize: u32,
    pub reserved0: u32,
    pub deviceSyncs: u64,
    pub eventRecords: u64,
    pub eventWaits: u64,
    pub kernelLaunches: u64,
    pub liveTensors: i64,
    pub liveStreams: i64,
}

extern "C" {
    pub fn cvGetVersion() -> u32;
    pub fn cvStatusName(status: cvStatus) -> *const c_char;
    pub fn cvGetLastErrorMessage() -> *const c_char;
    pub fn cvDataTypeFromTypestr(typestr: *const c_char, out: *mut cvDataType) -> cvStatus;
    pub fn cvDataTypeTypestr(dtype: cvDataType) -> *const c_char;
    pub fn cvDataTypeName(dtype: cvDataType) -> *const c_char;
    pub fn cvDataTypeItemSize(dtype: cvDataType) -> i32;
    pub fn cvStreamCreate(out: *mut cvStream) -> cvStatus;
    pub fn cvStreamWrap(cudaStream: *mut c_void, out: *mut cvStream) -> cvStatus;
    pub fn cvStreamRetain(stream: cvStream);
    pub fn cvStreamRelease(stream: cvStream);
    pub fn cvStreamGetHandle(stream: cvStream, cudaStream: *mut *mut c_void) -> cvStatus;
    pub fn cvStreamSync(stream: cvStream) -> cvStatus;
    pub fn cvTensorWrap(cai: *const cvArrayInterface, layout: *const c_char, out: *mut cvTensor) -> cvStatus;
    pub fn cvTensorCreate(ndim: i32, shape: *const i64, dtype: cvDataType, layout: *const c_char, out: *mut cvTensor) -> cvStatus;
    pub fn cvTensorRetain(tensor: cvTensor);
    pub fn cvTensorRelease(tensor: cvTensor);
    pub fn cvTensorSetCleanup(tensor: cvTensor, fn_: cvCleanupFn, userData: *mut c_void) -> cvStatus;
    pub fn cvTensorExport(tensor: cvTensor, out: *mut cvArrayInterface, writerStream: *mut cvStream) -> cvStatus;
    pub fn cvTensorGetInfo(tensor: cvTensor, out: *mut cvTensorInfo) -> cvStatus;
    pub fn cvFlip(stream: cvStream, src: cvTensor, dst: cvTensor, flipCode: i32) -> cvStatus;
    pub fn cvGetStats(out: *mut cvStats) -> cvStatus;
    pub fn cvResetStats();
    pub fn cvCollect() -> cvStatus;
    pub fn cvSyncAndCollect() -> cvStatus;
}
