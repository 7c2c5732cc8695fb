"""normalize: dst = (src - base) * scale * globalscale + globalshift, per channel or per tensor."""

from typing import Any, Optional, Sequence, Union

from ._ffi import ffi
from ._library import lib
from ._op import check, float_arg, int_arg, new_like, stream_argument, tensor_arg
from ._tensor import Tensor

__all__ = ["normalize", "normalize_into"]

_normalize = lib.cvNormalize
_PARAMS_SIZE = ffi.sizeof("cvNormalizeParams")
_NULL = ffi.NULL


def _constant(function: str, name: str, value: Any, params, keep: list) -> None:
    if hasattr(value, "_cv"):
        setattr(params, name, tensor_arg(function, name, value))
        return
    try:
        values = [float_arg(function, f"{name}[{i}]", v) for i, v in enumerate(value)]
    except TypeError as exc:
        if "must be a number" in str(exc):
            raise
        raise TypeError(
            f"{function}: {name} must be a cvcuda.Tensor or a sequence of floats, got {type(value).__name__}"
        ) from None
    array = ffi.new("float[]", values or [0.0])
    keep.append(array)
    setattr(params, name + "Values", array)
    setattr(params, name + "Count", len(values))


def _params(function: str, base, scale, flags, globalscale, globalshift, epsilon, keep: list):
    p = ffi.new("cvNormalizeParams *")
    p.structSize = _PARAMS_SIZE
    p.flags = 0 if flags is None else int_arg(function, "flags", flags, 0, 2**32 - 1)
    p.globalScale = float_arg(function, "globalscale", globalscale)
    p.globalShift = float_arg(function, "globalshift", globalshift)
    p.epsilon = float_arg(function, "epsilon", epsilon)
    _constant(function, "base", base, p, keep)
    _constant(function, "scale", scale, p, keep)
    return p


_Constant = Union[Tensor, Sequence[float]]


def normalize_into(
    dst: Tensor, src: Tensor, base: _Constant, scale: _Constant, flags: Optional[int] = None, *,
    globalscale: float = 1.0, globalshift: float = 0.0, epsilon: float = 0.0, stream: Optional[Any] = None,
) -> Tensor:
    """Writes ``(src - base) * scale * globalscale + globalshift`` into ``dst`` and returns ``dst``.

    ``base`` is subtracted and ``scale`` multiplies (the reference library's names and meaning), each either a
    float32 tensor on the device holding 1 or C values (e.g. shape (1, 1, 1, C), "NHWC") or a sequence of 1 or C
    floats (passed by value, no upload). With ``flags = NormalizeFlags.SCALE_IS_STDDEV`` the factor is
    ``1 / sqrt(scale**2 + epsilon)``. Computed in float32, converted to ``dst``'s dtype with OpenCV's
    saturate_cast (round half to even, clamp).
    src dtypes uint8, uint16, int16, float16, float32; dst float32, float16 or src's dtype; layouts NHWC, HWC (and
    NCHW, CHW), equal on both sides; C <= 256. ``dst is src`` (same dtype) normalizes in place. Runs on ``stream``
    (None: :attr:`Stream.current`), ordered after pending writes of ``src``, ``base``, ``scale`` on other streams;
    returns without waiting for the GPU.

    :raises TypeError: arguments of the wrong Python type.
    :raises InvalidArgumentError: wrong counts or shapes of base/scale, unknown flags, shapes or layouts differ,
        ``dst`` readonly, overlap (C's message).
    :raises NotSupportedError: a dtype pair outside the table, C > 256.
    :raises InvalidStateError, NoDeviceError, CudaError: as :func:`flip`.
    """
    function = "cvcuda.normalize_into"
    dst_cv = tensor_arg(function, "dst", dst)
    src_cv = tensor_arg(function, "src", src)
    keep: list = []
    p = _params(function, base, scale, flags, globalscale, globalshift, epsilon, keep)
    check(_normalize(stream_argument(stream), src_cv, dst_cv, p))
    return dst


def normalize(
    src: Tensor, base: _Constant, scale: _Constant, flags: Optional[int] = None, *,
    globalscale: float = 1.0, globalshift: float = 0.0, epsilon: float = 0.0, stream: Optional[Any] = None,
) -> Tensor:
    """Returns a new tensor with ``src``'s shape, dtype and layout holding the normalization (allocated
    stream-ordered on ``stream``). See :func:`normalize_into`."""
    function = "cvcuda.normalize"
    src_cv = tensor_arg(function, "src", src)
    keep: list = []
    p = _params(function, base, scale, flags, globalscale, globalshift, epsilon, keep)
    s, dst = new_like(stream, src)
    check(_normalize(s, src_cv, dst._cv, p))
    return dst
