"""convertto: dst = saturate(round(src * scale + offset)) between numeric dtypes (OpenCV's Mat::convertTo)."""

from typing import Any, Optional

from ._library import lib
from ._op import check, float_arg, int_arg, new_tensor, stream_argument, tensor_arg
from ._tensor import Tensor
from ._types import Round

__all__ = ["convertto", "convertto_into"]

_convert_to = lib.cvConvertTo


# cvcuda.Round keeps the reference library's numbers (NEAREST = 0 ...); the C enum reserves 0 for "unspecified".
_C_ROUND = {0: lib.CV_ROUND_MODE_NEAREST, 1: lib.CV_ROUND_MODE_TRUNCATE, 2: lib.CV_ROUND_MODE_NEAREST_WRAP,
            3: lib.CV_ROUND_MODE_TRUNCATE_WRAP}


def _arguments(function: str, scale: Any, offset: Any, round: Any):
    mode = _C_ROUND[int_arg(function, "round", round, 0, 3)]
    return float_arg(function, "scale", scale), float_arg(function, "offset", offset), mode


def convertto_into(
    dst: Tensor, src: Tensor, scale: float = 1, offset: float = 0, *, round: Round = Round.NEAREST,
    stream: Optional[Any] = None,
) -> Tensor:
    """Writes ``saturate(round(src * scale + offset))`` into ``dst`` (same shape, any layout) and returns ``dst``.

    dtypes (any pair): uint8, int8, uint16, int16, int32, float16, bfloat16, float32, float64. Computed in float32
    (float64 when either side is int32 or float64) with one fused multiply-add. Integer ``dst`` follows OpenCV's
    ``saturate_cast``: ``Round.NEAREST`` rounds half to even (uint8 from float32: 254.5 -> 254, 255.5 -> 255,
    -0.1 -> 0, 300 -> 255), ``TRUNCATE`` toward zero, then clamp; the ``*_WRAP`` modes reduce modulo 2**bits
    instead; NaN -> 0 (OpenCV gives INT_MIN saturated for signed dtypes). Floating ``dst``: nearest even, overflow
    to inf, ``round`` has no effect. ``dst is src`` (same item size) converts in place. Runs on ``stream`` (None:
    :attr:`Stream.current`) and returns without waiting for the GPU (stream rules as :func:`flip`).

    :raises TypeError: ``dst``/``src`` not Tensors; ``scale``/``offset`` not numbers; ``round`` not an int.
    :raises InvalidArgumentError: shapes or layouts differ, ``round`` not a Round, ``dst`` readonly, overlap.
    :raises NotSupportedError: a dtype outside the list.
    :raises InvalidStateError, NoDeviceError, CudaError: as :func:`flip`.
    """
    function = "cvcuda.convertto_into"
    dst_cv = tensor_arg(function, "dst", dst)
    src_cv = tensor_arg(function, "src", src)
    scale, offset, mode = _arguments(function, scale, offset, round)
    check(_convert_to(stream_argument(stream), src_cv, dst_cv, scale, offset, mode))
    return dst


def convertto(
    src: Tensor, dtype: Any, scale: float = 1, offset: float = 0, *, round: Round = Round.NEAREST,
    stream: Optional[Any] = None,
) -> Tensor:
    """Returns a new tensor of ``dtype`` (a numpy or torch dtype) with ``src``'s shape and layout holding
    ``saturate(round(src * scale + offset))``, allocated stream-ordered on ``stream``. See :func:`convertto_into`."""
    function = "cvcuda.convertto"
    src_cv = tensor_arg(function, "src", src)
    scale, offset, mode = _arguments(function, scale, offset, round)
    s = stream_argument(stream)
    dst = new_tensor(s, src.shape, dtype, src.layout)
    check(_convert_to(s, src_cv, dst._cv, scale, offset, mode))
    return dst
