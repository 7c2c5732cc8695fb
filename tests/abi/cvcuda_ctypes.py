"""A minimal binding of libcvcuda_c with the standard library's ctypes only: the ABI as a Python program sees it.

Used by test_ctypes_abi.py; kept free of anything but the C headers' facts, so that a struct or signature change in
include/cvcuda/*.h that is not mirrored here shows up as a failing ABI test.
"""
import ctypes

CV_MAX_DIMS = 8

# cvStatus
CV_SUCCESS = 0
CV_ERROR_INVALID_ARGUMENT = 1
CV_ERROR_NOT_SUPPORTED = 2
CV_ERROR_OUT_OF_MEMORY = 3
CV_ERROR_NO_DEVICE = 4
CV_ERROR_CUDA = 5
CV_ERROR_INVALID_STATE = 6
CV_ERROR_INTERNAL = 7
CV_NOT_READY = 8

# cvCaiStreamKind
CV_CAI_STREAM_ABSENT = 0
CV_CAI_STREAM_NONE = 1
CV_CAI_STREAM_INTEGER = 2

# cvDataType
CV_DTYPE_UNSPECIFIED = 0
CV_DTYPE_UINT8 = 2
CV_DTYPE_BFLOAT16 = 11
CV_DTYPE_FLOAT32 = 12

# Enums are 32-bit (forced by their *_FORCE_32BIT member).
cvStatus = ctypes.c_int32
cvDataType = ctypes.c_int32
cvCaiStreamKind = ctypes.c_int32
cvInterp = ctypes.c_int32
cvRoundMode = ctypes.c_int32
cvBorderMode = ctypes.c_int32
cvColorConversion = ctypes.c_int32
cvColorSpec = ctypes.c_int32
cvTensor = ctypes.c_void_p
cvStream = ctypes.c_void_p
cvCleanupFn = ctypes.CFUNCTYPE(None, ctypes.c_void_p)


class cvArrayInterface(ctypes.Structure):
    _fields_ = [
        ("structSize", ctypes.c_uint32),
        ("version", ctypes.c_int32),
        ("data", ctypes.c_uint64),
        ("readonly", ctypes.c_int32),
        ("ndim", ctypes.c_int32),
        ("shape", ctypes.c_int64 * CV_MAX_DIMS),
        ("strides", ctypes.c_int64 * CV_MAX_DIMS),
        ("hasStrides", ctypes.c_int32),
        ("streamKind", cvCaiStreamKind),
        ("stream", ctypes.c_int64),
        ("typestr", ctypes.c_char * 16),
        ("dtype", cvDataType),
        ("reserved0", ctypes.c_uint32),
    ]

    @classmethod
    def init(cls):
        """CV_ARRAY_INTERFACE_INIT."""
        return cls(structSize=ctypes.sizeof(cls), version=3)


class cvTensorInfo(ctypes.Structure):
    _fields_ = [
        ("structSize", ctypes.c_uint32),
        ("ndim", ctypes.c_int32),
        ("shape", ctypes.c_int64 * CV_MAX_DIMS),
        ("strides", ctypes.c_int64 * CV_MAX_DIMS),
        ("data", ctypes.c_uint64),
        ("dtype", cvDataType),
        ("readonly", ctypes.c_int32),
        ("ownsMemory", ctypes.c_int32),
        ("layout", ctypes.c_char * (CV_MAX_DIMS + 1)),
        ("reserved0", ctypes.c_char * 7),
    ]

    @classmethod
    def init(cls):
        """CV_TENSOR_INFO_INIT."""
        return cls(structSize=ctypes.sizeof(cls))


class cvStats(ctypes.Structure):
    _fields_ = [
        ("structSize", ctypes.c_uint32),
        ("reserved0", ctypes.c_uint32),
        ("deviceSyncs", ctypes.c_uint64),
        ("eventRecords", ctypes.c_uint64),
        ("eventWaits", ctypes.c_uint64),
        ("kernelLaunches", ctypes.c_uint64),
        ("liveTensors", ctypes.c_int64),
        ("liveStreams", ctypes.c_int64),
    ]

    @classmethod
    def init(cls):
        """CV_STATS_INIT."""
        return cls(structSize=ctypes.sizeof(cls))


class cvNormalizeParams(ctypes.Structure):
    _fields_ = [
        ("structSize", ctypes.c_uint32),
        ("flags", ctypes.c_uint32),
        ("base", ctypes.c_void_p),
        ("scale", ctypes.c_void_p),
        ("baseValues", ctypes.POINTER(ctypes.c_float)),
        ("scaleValues", ctypes.POINTER(ctypes.c_float)),
        ("baseCount", ctypes.c_int32),
        ("scaleCount", ctypes.c_int32),
        ("globalScale", ctypes.c_float),
        ("globalShift", ctypes.c_float),
        ("epsilon", ctypes.c_float),
        ("reserved", ctypes.c_uint32),
    ]

    @classmethod
    def init(cls):
        """CV_NORMALIZE_PARAMS_INIT."""
        return cls(structSize=ctypes.sizeof(cls), globalScale=1.0)


class cvCopyMakeBorderParams(ctypes.Structure):
    _fields_ = [
        ("structSize", ctypes.c_uint32),
        ("top", ctypes.c_int32),
        ("left", ctypes.c_int32),
        ("borderMode", ctypes.c_int32),
        ("borderValue", ctypes.c_double * 4),
    ]

    @classmethod
    def init(cls):
        """CV_COPY_MAKE_BORDER_PARAMS_INIT (borderMode CV_BORDER_MODE_CONSTANT = 1)."""
        return cls(structSize=ctypes.sizeof(cls), borderMode=1)


class cvResizeCropConvertParams(ctypes.Structure):
    _fields_ = [
        ("structSize", ctypes.c_uint32),
        ("resizeWidth", ctypes.c_int32),
        ("resizeHeight", ctypes.c_int32),
        ("interp", ctypes.c_int32),
        ("cropX", ctypes.c_int32),
        ("cropY", ctypes.c_int32),
        ("reverseChannels", ctypes.c_int32),
        ("srcCast", ctypes.c_int32),
        ("scale", ctypes.c_float),
        ("offset", ctypes.c_float),
        ("normalize", ctypes.c_int32),
        ("mean", ctypes.c_float * 4),
        ("stddev", ctypes.c_float * 4),
    ]

    @classmethod
    def init(cls):
        """CV_RESIZE_CROP_CONVERT_PARAMS_INIT."""
        return cls(structSize=ctypes.sizeof(cls), interp=3, srcCast=1, scale=1.0, stddev=(ctypes.c_float * 4)(1, 1, 1, 1))


STRUCTS = {
    "cvArrayInterface": cvArrayInterface,
    "cvTensorInfo": cvTensorInfo,
    "cvStats": cvStats,
    "cvNormalizeParams": cvNormalizeParams,
    "cvResizeCropConvertParams": cvResizeCropConvertParams,
    "cvCopyMakeBorderParams": cvCopyMakeBorderParams,
}

_P = ctypes.POINTER
# name: (restype, argtypes), one entry per exported function.
SIGNATURES = {
    "cvGetVersion": (ctypes.c_uint32, []),
    "cvStatusName": (ctypes.c_char_p, [cvStatus]),
    "cvGetLastErrorMessage": (ctypes.c_char_p, []),
    "cvDataTypeFromTypestr": (cvStatus, [ctypes.c_char_p, _P(cvDataType)]),
    "cvDataTypeTypestr": (ctypes.c_char_p, [cvDataType]),
    "cvDataTypeName": (ctypes.c_char_p, [cvDataType]),
    "cvDataTypeItemSize": (ctypes.c_int32, [cvDataType]),
    "cvStreamCreate": (cvStatus, [_P(cvStream)]),
    "cvStreamCreateWithHandle": (cvStatus, [_P(ctypes.c_void_p), _P(cvStream)]),
    "cvStreamCreateOnDevice": (cvStatus, [ctypes.c_int32, _P(ctypes.c_void_p), _P(cvStream)]),
    "cvStreamGetDevice": (cvStatus, [cvStream, _P(ctypes.c_int32)]),
    "cvStreamWrap": (cvStatus, [ctypes.c_void_p, _P(cvStream)]),
    "cvStreamWrapDefault": (cvStatus, [ctypes.c_int32, _P(cvStream)]),
    "cvDeviceGetCount": (cvStatus, [_P(ctypes.c_int32)]),
    "cvDeviceGetCurrent": (cvStatus, [_P(ctypes.c_int32)]),
    "cvStreamRetain": (None, [cvStream]),
    "cvStreamRelease": (None, [cvStream]),
    "cvStreamGetHandle": (cvStatus, [cvStream, _P(ctypes.c_void_p)]),
    "cvStreamSync": (cvStatus, [cvStream]),
    "cvStreamQuery": (cvStatus, [cvStream]),
    "cvStreamQueryReusable": (cvStatus, [cvStream]),
    "cvStreamPeekReusable": (cvStatus, [cvStream]),
    "cvStreamWaitStream": (cvStatus, [cvStream, cvStream]),
    "cvTensorWrap": (cvStatus, [_P(cvArrayInterface), ctypes.c_char_p, _P(cvTensor)]),
    "cvTensorCreate": (cvStatus, [ctypes.c_int32, _P(ctypes.c_int64), cvDataType, ctypes.c_char_p, _P(cvTensor)]),
    "cvTensorCreateOnStream": (cvStatus, [cvStream, ctypes.c_int32, _P(ctypes.c_int64), cvDataType, ctypes.c_char_p, _P(cvTensor)]),
    "cvTensorCreateLike": (cvStatus, [cvStream, cvTensor, _P(cvTensor)]),
    "cvTensorRetain": (None, [cvTensor]),
    "cvTensorRelease": (None, [cvTensor]),
    "cvTensorSetCleanup": (cvStatus, [cvTensor, cvCleanupFn, ctypes.c_void_p]),
    "cvTensorExport": (cvStatus, [cvTensor, _P(cvArrayInterface), _P(cvStream)]),
    "cvTensorGetInfo": (cvStatus, [cvTensor, _P(cvTensorInfo)]),
    "cvTensorExportDLPack": (cvStatus, [cvTensor, cvStream, ctypes.c_uint32, _P(ctypes.c_void_p)]),
    "cvTensorWrapDLPack": (cvStatus, [ctypes.c_void_p, ctypes.c_char_p, cvStream, _P(cvTensor)]),
    "cvTensorGetDevice": (cvStatus, [cvTensor, _P(ctypes.c_int32)]),
    "cvTensorAddConsumer": (cvStatus, [cvTensor, cvStream]),
    "cvFlip": (cvStatus, [cvStream, cvTensor, cvTensor, ctypes.c_int32]),
    "cvResize": (cvStatus, [cvStream, cvTensor, cvTensor, ctypes.c_int32]),
    "cvResizeTorchvision": (cvStatus, [cvStream, cvTensor, cvTensor, ctypes.c_int32, ctypes.c_int32]),
    "cvResizeCropConvertReformat": (cvStatus, [cvStream, cvTensor, cvTensor, _P(cvResizeCropConvertParams)]),
    "cvResizeTorchvisionCropConvertReformat": (cvStatus, [cvStream, cvTensor, cvTensor, _P(cvResizeCropConvertParams), ctypes.c_int32]),
    "cvCustomCrop": (cvStatus, [cvStream, cvTensor, cvTensor] + [ctypes.c_int32] * 4),
    "cvCenterCrop": (cvStatus, [cvStream, cvTensor, cvTensor, ctypes.c_int32, ctypes.c_int32]),
    "cvConvertTo": (cvStatus, [cvStream, cvTensor, cvTensor, ctypes.c_double, ctypes.c_double, ctypes.c_int32]),
    "cvNormalize": (cvStatus, [cvStream, cvTensor, cvTensor, _P(cvNormalizeParams)]),
    "cvReformat": (cvStatus, [cvStream, cvTensor, cvTensor]),
    "cvCvtColor": (cvStatus, [cvStream, cvTensor, cvTensor, ctypes.c_int32, ctypes.c_int32]),
    "cvCopyMakeBorder": (cvStatus, [cvStream, cvTensor, cvTensor, _P(cvCopyMakeBorderParams)]),
    "cvGetStats": (cvStatus, [_P(cvStats)]),
    "cvResetStats": (None, []),
    "cvCollect": (cvStatus, []),
    "cvSyncAndCollect": (cvStatus, []),
}


def load(path: str) -> ctypes.CDLL:
    """Loads the library and declares every function's signature."""
    lib = ctypes.CDLL(path)
    for name, (restype, argtypes) in SIGNATURES.items():
        fn = getattr(lib, name)
        fn.restype = restype
        fn.argtypes = argtypes
    return lib
