"""Operators. Each enqueues its work on a stream and returns without waiting for the GPU."""

from typing import Any, Optional

from ._errors import error_from_status
from ._library import lib
from ._stream import stream_argument
from ._tensor import Tensor, _adopt_owned, _hold_owner, _scratch

_flip = lib.cvFlip
_create_on_stream = lib.cvTensorCreateOnStream


def _flip_code(flipCode: Any) -> None:
    if not isinstance(flipCode, int):
        raise TypeError(f"cvcuda.flip: flipCode must be an int (0, > 0 or < 0), got {type(flipCode).__name__}")
    raise ValueError(f"cvcuda.flip: flipCode={flipCode} is outside the int32 range")


def _not_a_tensor(name: str, value: Any) -> TypeError:
    return TypeError(f"cvcuda.flip: {name} must be a cvcuda.Tensor (see cvcuda.as_tensor), got {type(value).__name__}")


def flip(src: Tensor, flipCode: int, *, stream: Optional[Any] = None) -> Tensor:
    """Returns a new tensor holding ``src`` flipped (OpenCV's ``cv::flip`` convention, as the reference library).

    ``flipCode == 0`` flips around the x-axis (rows: ``dst[y][x] = src[H-1-y][x]``), ``> 0`` around the y-axis
    (columns: ``dst[y][x] = src[y][W-1-x]``), ``< 0`` both. ``src`` needs a layout with H directly followed by W
    (``HW, HWC, NHWC, CHW, NCHW, NHW``); any element type and channel count; any strides.
    The result is C-contiguous, with the shape, dtype and layout of ``src``, allocated stream-ordered on ``stream``
    (its device).

    :param stream: where the work runs: a :class:`Stream`, a ``torch.cuda.Stream``, an int ``cudaStream_t``, or
        None for :attr:`Stream.current`. The stream first waits (events) for pending writes to ``src`` on other
        streams; a wrapper whose producer is unknown (every PyTorch tensor) costs one ``cudaDeviceSynchronize`` at
        its first use. Returns without waiting for the GPU; call ``stream.sync()`` before reading on the host or
        handing the result to PyTorch.
    :raises TypeError: ``src`` is not a Tensor, ``flipCode`` not an int.
    :raises InvalidArgumentError: no H/W in the layout, memory that is not on the stream's device (C's message).
    :raises NotSupportedError: a layout where W does not follow H.
    :raises InvalidStateError: a defensive sync would be needed while the stream is captured into a CUDA graph.
    :raises NoDeviceError, OutOfMemoryError, CudaError.
    """
    cv_stream = stream_argument(stream)
    try:
        like = src._like or src._make_like()
        src_cv = src._cv
        if src._owner is not None:
            _hold_owner(src)
    except AttributeError:
        raise _not_a_tensor("src", src) from None
    out = _scratch.tensor
    status = _create_on_stream(cv_stream, like[0], like[1], like[2], like[3], out)
    if status:
        raise error_from_status(lib, status)
    dst = _adopt_owned(out[0])
    try:
        status = _flip(cv_stream, src_cv, dst._cv, flipCode)
    except (TypeError, OverflowError):
        _flip_code(flipCode)
    if status:
        raise error_from_status(lib, status)
    return dst


def flip_into(dst: Tensor, src: Tensor, flipCode: int, *, stream: Optional[Any] = None) -> None:
    """Writes ``src`` flipped into ``dst`` (see :func:`flip` for flipCode, layouts and streams).

    ``dst`` must have the shape and dtype of ``src`` (layouts equal when both have one) and must not be readonly;
    ``dst is src`` (the same memory and strides) flips in place; any other overlap is rejected. Both may be wrappers
    of foreign memory (e.g. PyTorch tensors via :func:`as_tensor`). The stream also waits for pending reads and
    writes of ``dst`` on other streams. Returns without waiting for the GPU.

    :raises TypeError: ``dst``/``src`` is not a Tensor, ``flipCode`` not an int.
    :raises InvalidArgumentError: shapes, dtypes or layouts differ; ``dst`` readonly; partial overlap; ... (C's
        message names the rule).
    :raises NotSupportedError, InvalidStateError, NoDeviceError, CudaError: as :func:`flip`.
    """
    cv_stream = stream_argument(stream)
    try:
        src_cv = src._cv
        if src._owner is not None:
            _hold_owner(src)
    except AttributeError:
        raise _not_a_tensor("src", src) from None
    try:
        dst_cv = dst._cv
        if dst._owner is not None:
            _hold_owner(dst)
    except AttributeError:
        raise _not_a_tensor("dst", dst) from None
    try:
        status = _flip(cv_stream, src_cv, dst_cv, flipCode)
    except (TypeError, OverflowError):
        _flip_code(flipCode)
    if status:
        raise error_from_status(lib, status)
