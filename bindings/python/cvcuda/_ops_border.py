"""Border padding: ``copymakeborder`` / ``copymakeborder_into`` (OpenCV's cv::copyMakeBorder, the reference library's
signature). Semantics, layouts, dtypes and errors are those of ``include/cvcuda/copymakeborder.h``; this module
converts arguments and sizes the output only."""

from typing import Any, Optional, Sequence

from ._ffi import ffi
from ._library import lib
from ._op import check, float_arg, int_arg, new_tensor, stream_argument, tensor_arg
from ._tensor import Tensor
from ._types import Border

__all__ = ["copymakeborder", "copymakeborder_into"]

_cmb = lib.cvCopyMakeBorder
# cvcuda.Border (the reference's values) to the C cvBorderMode.
_MODES = {Border.CONSTANT: lib.CV_BORDER_MODE_CONSTANT, Border.REPLICATE: lib.CV_BORDER_MODE_REPLICATE,
          Border.REFLECT: lib.CV_BORDER_MODE_REFLECT, Border.WRAP: lib.CV_BORDER_MODE_WRAP,
          Border.REFLECT101: lib.CV_BORDER_MODE_REFLECT101}


def _params(function: str, border_mode: Any, border_value: Any, top: Any, left: Any):
    mode = int_arg(function, "border_mode", border_mode)
    if mode == Border.CONSTANT_COVERAGE:
        raise ValueError(f"{function}: border_mode=Border.CONSTANT_COVERAGE applies to interpolating operators only")
    if mode not in _MODES:
        raise ValueError(f"{function}: border_mode={mode} is not a cvcuda.Border "
                         f"({', '.join(f'{m.name}={m.value}' for m in _MODES)})")
    if isinstance(border_value, (str, bytes)) or not hasattr(border_value, "__len__"):
        raise TypeError(f"{function}: border_value must be a sequence of at most 4 numbers, "
                        f"got {type(border_value).__name__}")
    if len(border_value) > 4:
        raise ValueError(f"{function}: border_value has {len(border_value)} values (at most 4, one per channel)")
    values = [float_arg(function, f"border_value[{i}]", v) for i, v in enumerate(border_value)]
    p = ffi.new("cvCopyMakeBorderParams *")
    p.structSize = ffi.sizeof("cvCopyMakeBorderParams")
    p.top = int_arg(function, "top", top, 0)
    p.left = int_arg(function, "left", left, 0)
    p.borderMode = _MODES[mode]
    for i, v in enumerate(values):  # channels without a value get 0, as the reference
        p.borderValue[i] = v
    return p


def copymakeborder(src: Tensor, border_mode: Border = Border.CONSTANT, border_value: Sequence[float] = [], *,
                   top: int, bottom: int, left: int, right: int, stream: Optional[Any] = None) -> Tensor:
    """Returns a new tensor holding ``src`` padded by ``top``, ``bottom`` rows and ``left``, ``right`` columns
    (OpenCV's ``cv::copyMakeBorder``; the border modes as ``cv::BORDER_*``, reflections folding as often as needed).

    ``src`` is HWC or NHWC with 1 to 4 channels, any dtype, any strides. The result has H + top + bottom rows and
    W + left + right columns, src's layout and dtype, C-contiguous, allocated stream-ordered on ``stream``.

    :param border_mode: a :class:`Border` member or its int value (CONSTANT, REPLICATE, REFLECT, WRAP, REFLECT101).
    :param border_value: CONSTANT only: up to 4 numbers, one per channel (missing channels get 0), converted to the
        dtype as OpenCV's saturate_cast (round half to even, clamp).
    :param stream: as :func:`flip` (waits on pending writes of ``src``; returns without waiting for the GPU).
    :raises TypeError: ``src`` not a Tensor; a non-int padding or mode; a non-numeric border value.
    :raises ValueError: a negative padding; an unknown or CONSTANT_COVERAGE mode; more than 4 border values.
    :raises InvalidArgumentError: layout, channel count or an empty src with a mode other than CONSTANT (C's message).
    :raises InvalidStateError, NoDeviceError, OutOfMemoryError, CudaError: as :func:`flip`.
    """
    fn = "cvcuda.copymakeborder"
    src_cv = tensor_arg(fn, "src", src)
    p = _params(fn, border_mode, border_value, top, left)
    grow_h = p.top + int_arg(fn, "bottom", bottom, 0)
    grow_w = p.left + int_arg(fn, "right", right, 0)
    layout = src.layout
    if layout not in ("HWC", "NHWC"):
        check(_cmb(stream_argument(stream), src_cv, src_cv, p))  # C's message for the layout
        raise AssertionError(f"{fn}: layout {layout} was accepted")
    shape = list(src.shape)
    h = layout.index("H")
    shape[h] += grow_h
    shape[h + 1] += grow_w
    like = src._like or src._make_like()
    dst = new_tensor(stream, shape, like[2], like[3])
    check(_cmb(stream_argument(stream), src_cv, dst._cv, p))
    return dst


def copymakeborder_into(dst: Tensor, src: Tensor, border_mode: Border = Border.CONSTANT,
                        border_value: Sequence[float] = [], *, top: int, left: int,
                        stream: Optional[Any] = None) -> Tensor:
    """Writes ``src`` padded into ``dst`` and returns ``dst`` (see :func:`copymakeborder`): ``top`` rows and ``left``
    columns before the image; the bottom rows and right columns are what dst's height and width leave (>= 0).
    ``dst`` has src's layout, N, C and dtype, is writable and does not overlap ``src``."""
    fn = "cvcuda.copymakeborder_into"
    dst_cv = tensor_arg(fn, "dst", dst)
    src_cv = tensor_arg(fn, "src", src)
    p = _params(fn, border_mode, border_value, top, left)
    check(_cmb(stream_argument(stream), src_cv, dst_cv, p))
    return dst
