"""cvcuda: GPU computer vision with zero-copy PyTorch/CuPy interop and correct cross-stream ordering.

A thin Python layer (cffi: the compiled API-mode module when it lies beside the library, else ABI mode, which needs
no compiler; see ``_library``) over libcvcuda_c's stable C ABI. It mirrors the API of the
reference library CV-CUDA (NVIDIA), whose Python module has the same name: do not install both in one environment.

    import torch, cvcuda
    src = torch.randint(0, 256, (2, 64, 64, 3), dtype=torch.uint8).cuda()
    src_nv = cvcuda.as_tensor(src, "NHWC")          # zero-copy; keeps `src` alive while the GPU uses it
    target = cvcuda.Stream()                         # non-blocking CUDA stream
    with target:
        out_nv = cvcuda.flip(src_nv, -1, stream=target)
    target.sync()
    out = torch.as_tensor(out_nv.cuda())             # zero-copy back to PyTorch

``import cvcuda`` loads the C library but does no CUDA work and starts no thread (safe before ``fork``); the C
library is found through ``CVCUDA_C_LIBRARY``, next to this package, or the system loader (see ``_library``).
Errors raise exceptions carrying the C library's message (see :mod:`cvcuda._errors` for the mapping).
"""

from ._errors import (
    CudaError,
    Error,
    InternalError,
    InvalidArgumentError,
    InvalidStateError,
    NoDeviceError,
    NotSupportedError,
    OutOfMemoryError,
)
from ._library import __c_version__, reset_stats, stats, sync_and_collect
from ._ops import flip, flip_into
from ._ops_border import copymakeborder, copymakeborder_into
from ._ops_color import ColorSpec, advcvtcolor, advcvtcolor_into, cvtcolor, cvtcolor_into
from ._ops_convert import convertto, convertto_into
from ._ops_crop import center_crop, center_crop_into, customcrop, customcrop_into
from ._ops_normalize import normalize, normalize_into
from ._ops_reformat import reformat, reformat_into
from ._ops_resize import (
    resize,
    resize_crop_convert_reformat,
    resize_crop_convert_reformat_into,
    resize_into,
    tvresize,
    tvresize_crop_convert_reformat_into,
    tvresize_into,
)
from ._stream import Stream, as_stream
from ._tensor import CudaArray, Tensor, _debug_disable_keepalive, as_tensor, reshape
from ._types import Border, ChannelManip, ColorConversion, Interp, NormalizeFlags, RectI, Round, TensorLayout, Type
from ._dlpack import from_dlpack

__version__ = "0.1.0"

__all__ = [
    "Border",
    "ChannelManip",
    "ColorConversion",
    "ColorSpec",
    "CudaArray",
    "CudaError",
    "Error",
    "InternalError",
    "Interp",
    "InvalidArgumentError",
    "InvalidStateError",
    "NoDeviceError",
    "NormalizeFlags",
    "NotSupportedError",
    "OutOfMemoryError",
    "RectI",
    "Round",
    "Stream",
    "Tensor",
    "TensorLayout",
    "Type",
    "advcvtcolor",
    "advcvtcolor_into",
    "as_stream",
    "as_tensor",
    "center_crop",
    "center_crop_into",
    "convertto",
    "convertto_into",
    "copymakeborder",
    "copymakeborder_into",
    "customcrop",
    "customcrop_into",
    "cvtcolor",
    "cvtcolor_into",
    "flip",
    "flip_into",
    "from_dlpack",
    "normalize",
    "normalize_into",
    "reformat",
    "reformat_into",
    "reset_stats",
    "resize",
    "resize_crop_convert_reformat",
    "resize_crop_convert_reformat_into",
    "resize_into",
    "reshape",
    "stats",
    "sync_and_collect",
    "tvresize",
    "tvresize_crop_convert_reformat_into",
    "tvresize_into",
]
