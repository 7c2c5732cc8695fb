"""What every operator's Python function shares, so that an operator is its signature, its docstring and a few lines:
argument checks of Python types (before any allocation or CUDA call), the stream, the output allocated
stream-ordered on that stream, the producers' owners handed to the library's keep-alive, and C's message raised.

    def customcrop_into(dst, src, rect, *, stream=None):
        src_cv = tensor_arg("cvcuda.customcrop_into", "src", src)
        dst_cv = tensor_arg("cvcuda.customcrop_into", "dst", dst)
        x, y, w, h = ...                       # parameters converted and range-checked first
        s = stream_argument(stream)
        check(lib.cvCustomCrop(s, src_cv, dst_cv, x, y, w, h))
        return dst

    def customcrop(src, rect, *, stream=None):
        ...checks...
        dst = new_tensor(stream, shape, src_dtype, layout)   # or: s, dst = new_like(stream, src)
        return customcrop_into(dst, src, rect, stream=stream)
"""

import threading
from typing import Any, Optional, Sequence

from ._errors import error_from_status
from ._ffi import ffi
from ._integers import integer
from ._library import lib
from ._stream import Stream, stream_argument
from ._tensor import Tensor, _adopt_owned, _cv_dtype, _hold_owner, _layout_argument

__all__ = ["check", "int_arg", "float_arg", "new_like", "new_tensor", "rect_arg", "stream_argument", "tensor_arg"]

_create_on_stream = lib.cvTensorCreateOnStream
_create_like = lib.cvTensorCreateLike
_CData = ffi.CData


class _Out(threading.local):
    """The per-thread out-parameter of the allocations below (read right after the call, which runs no Python)."""

    def __init__(self) -> None:
        self.tensor = ffi.new("cvTensor *")


_out = _Out()


def check(status: int) -> None:
    """Raises the exception for a failed C call (its message names the function, the argument and the rule)."""
    if status:
        raise error_from_status(lib, status)


def tensor_arg(function: str, name: str, value: Any):
    """The cvTensor handle of operator argument `name`. From here on the Python owner of wrapped memory lives until
    the library reports the memory unused (see cvcuda.as_tensor). Raises TypeError for anything but a Tensor."""
    try:
        handle = value._cv
        if value._owner is not None:
            _hold_owner(value)
    except AttributeError:
        raise TypeError(
            f"{function}: {name} must be a cvcuda.Tensor (see cvcuda.as_tensor), got {type(value).__name__}"
        ) from None
    return handle


def int_arg(function: str, name: str, value: Any, lo: int = -(2**31), hi: int = 2**31 - 1) -> int:
    """`value` as a Python int in [lo, hi] under the package's integer rule (cvcuda._integers: an int or anything
    with __index__, never a bool): TypeError otherwise, ValueError outside the range."""
    if value.__class__ is int and lo <= value <= hi:  # the common case, without a call
        return value
    v = integer(value, f"{function}: {name}")
    if not lo <= v <= hi:
        raise ValueError(f"{function}: {name}={v} is outside [{lo}, {hi}]")
    return v


def rect_arg(function: str, name: str, rect: Any, tuples: bool = False):
    """(x, y, width, height) as ints of a cvcuda.RectI (anything with those attributes), or, where `tuples`, of a
    4-sequence; each field under the integer rule of int_arg. Raises TypeError naming `name` otherwise."""
    if all(hasattr(rect, a) for a in ("x", "y", "width", "height")):
        values = (rect.x, rect.y, rect.width, rect.height)
    elif tuples and isinstance(rect, (tuple, list)) and len(rect) == 4:
        values = tuple(rect)
    else:
        kinds = "a cvcuda.RectI or (x, y, width, height)" if tuples else "a cvcuda.RectI"
        raise TypeError(f"{function}: {name} must be {kinds}, got {type(rect).__name__}")
    return tuple(int_arg(function, f"{name}.{n}", v) for n, v in zip(("x", "y", "width", "height"), values))


def float_arg(function: str, name: str, value: Any) -> float:
    """`value` as a Python float: an int, a float or anything with __float__ (numpy scalars), never a bool."""
    if isinstance(value, bool) or not hasattr(type(value), "__float__"):
        raise TypeError(f"{function}: {name} must be a number, got {type(value).__name__}")
    return float(value)


def _resolved(stream: Any):
    """The cvStream of an operator's stream argument, or `stream` itself when it is one already (stream_argument's
    result: an operator resolves its stream once and hands it on)."""
    return stream if isinstance(stream, _CData) else stream_argument(stream)


def new_tensor(stream: Any, shape: Sequence[int], dtype: Any, layout: Optional[str]) -> Tensor:
    """A new C-contiguous tensor allocated stream-ordered on `stream` (an operator's stream argument, None = current,
    or the cvStream stream_argument gave). `dtype` is a cvDataType int or anything cvcuda.Tensor accepts."""
    cv_dtype = dtype if type(dtype) is int else _cv_dtype(dtype)
    layout_arg = layout if type(layout) is bytes else _layout_argument(layout, "cvcuda")
    extents = ffi.new("int64_t[]", list(shape) or [0])
    out = _out.tensor
    check(_create_on_stream(_resolved(stream), len(shape), extents, cv_dtype, layout_arg, out))
    return _adopt_owned(out[0])


def new_like(stream: Any, src: Tensor):
    """(the cvStream of `stream`, a new C-contiguous tensor with the shape, dtype and layout of `src` allocated
    stream-ordered on it, cvTensorCreateLike): an allocating operator's stream_argument and output in one Python call
    (its host time is measured in microseconds, bench/host_breakdown.py); `stream`: the operator's stream argument,
    as for stream_argument."""
    stream = stream._cv if stream.__class__ is Stream else stream_argument(stream)
    out = _out.tensor
    status = _create_like(stream, src._cv, out)
    if status:
        raise error_from_status(lib, status)
    # src's Tensor._make_like tuple, when known, is the output's too (an operator on it needs no cvTensorGetInfo).
    return stream, _adopt_owned(out[0], src._like)
