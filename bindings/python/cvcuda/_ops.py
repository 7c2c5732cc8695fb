"""Operators. Each checks its arguments, then enqueues its work on a stream and returns without waiting for the GPU."""

from typing import Any, Optional

from ._errors import error_from_status
from ._library import lib
from ._op import check, int_arg, new_like, stream_argument, tensor_arg
from ._tensor import Tensor

_flip = lib.cvFlip


def flip(src: Tensor, flipCode: int, *, stream: Optional[Any] = None) -> Tensor:
    """Returns a new tensor holding ``src`` flipped (OpenCV's ``cv::flip`` convention, as the reference library).

    ``flipCode == 0`` flips around the x-axis (rows: ``dst[y][x] = src[H-1-y][x]``), ``> 0`` around the y-axis
    (columns: ``dst[y][x] = src[y][W-1-x]``), ``< 0`` both; an int32 (an int or numpy integer, never a bool).
    ``src`` needs a layout with H directly followed by W (``HW, HWC, NHWC, CHW, NCHW, NHW``); any element type and
    channel count; any strides. The result is C-contiguous, with the shape, dtype and layout of ``src``, allocated
    stream-ordered on ``stream`` (its device). Arguments are checked before the stream is resolved or anything is
    allocated.

    :param stream: where the work runs: keyword-only, anything :func:`as_stream` accepts (a :class:`Stream`, a
        ``torch.cuda.Stream``, a CuPy stream, an integer ``cudaStream_t``, a ``ctypes.c_void_p``), or None for
        :attr:`Stream.current`. The stream first waits (events) for pending writes to ``src`` on other
        streams; a wrapper whose producer is unknown (every PyTorch tensor) costs one ``cudaDeviceSynchronize`` at
        its first use. Returns without waiting for the GPU; call ``stream.sync()`` before reading on the host or
        handing the result to PyTorch.
    :raises TypeError: ``src`` is not a Tensor, ``flipCode`` not an int.
    :raises ValueError: ``flipCode`` outside the int32 range.
    :raises InvalidArgumentError: no H/W in the layout, memory that is not on the stream's device (C's message).
    :raises NotSupportedError: a layout where W does not follow H.
    :raises InvalidStateError: a defensive sync would be needed while the stream is captured into a CUDA graph.
    :raises NoDeviceError, OutOfMemoryError, CudaError.
    """
    src_cv = tensor_arg("cvcuda.flip", "src", src)
    code = int_arg("cvcuda.flip", "flipCode", flipCode)
    cv_stream, dst = new_like(stream, src)
    status = _flip(cv_stream, src_cv, dst._cv, code)  # flip_into's call, its arguments already checked
    if status:
        raise error_from_status(lib, status)
    return dst


def flip_into(dst: Tensor, src: Tensor, flipCode: int, *, stream: Optional[Any] = None) -> Tensor:
    """Writes ``src`` flipped into ``dst`` and returns ``dst`` (see :func:`flip` for flipCode, layouts and streams).

    ``dst`` must have the shape and dtype of ``src`` (layouts equal when both have one) and must not be readonly;
    ``dst is src`` (the same memory and strides) flips in place; any other overlap is rejected. Both may be wrappers
    of foreign memory (e.g. PyTorch tensors via :func:`as_tensor`). The stream also waits for pending reads and
    writes of ``dst`` on other streams. Returns without waiting for the GPU.

    :raises TypeError: ``dst``/``src`` is not a Tensor, ``flipCode`` not an int.
    :raises ValueError: ``flipCode`` outside the int32 range.
    :raises InvalidArgumentError: shapes, dtypes or layouts differ; ``dst`` readonly; partial overlap; ... (C's
        message names the rule).
    :raises NotSupportedError, InvalidStateError, NoDeviceError, CudaError: as :func:`flip`.
    """
    dst_cv = tensor_arg("cvcuda.flip_into", "dst", dst)
    src_cv = tensor_arg("cvcuda.flip_into", "src", src)
    code = int_arg("cvcuda.flip_into", "flipCode", flipCode)
    check(_flip(stream_argument(stream), src_cv, dst_cv, code))
    return dst
