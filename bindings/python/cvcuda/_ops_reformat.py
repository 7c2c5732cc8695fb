"""reformat: the same images in another layout (NHWC <-> NCHW, HWC <-> CHW)."""

from typing import Any, Optional

from ._library import lib
from ._op import check, new_tensor, stream_argument, tensor_arg
from ._tensor import Tensor

__all__ = ["reformat", "reformat_into"]

_reformat = lib.cvReformat


def reformat_into(dst: Tensor, src: Tensor, *, stream: Optional[Any] = None) -> Tensor:
    """Writes ``src``'s images into ``dst`` in ``dst``'s layout and returns ``dst``: NHWC <-> NCHW, HWC <-> CHW (or
    equal layouts, a copy); same dtype (any) and N, H, W, C. Packed images go through a tiled transpose; other
    strides are copied element by element. Runs on ``stream`` (None: :attr:`Stream.current`) and returns without
    waiting for the GPU (stream rules as :func:`flip`).

    :raises TypeError: ``dst``/``src`` not Tensors.
    :raises InvalidArgumentError: layouts outside the table, dtype or N/H/W/C mismatch, ``dst`` readonly, overlap.
    :raises InvalidStateError, NoDeviceError, CudaError: as :func:`flip`.
    """
    function = "cvcuda.reformat_into"
    dst_cv = tensor_arg(function, "dst", dst)
    src_cv = tensor_arg(function, "src", src)
    check(_reformat(stream_argument(stream), src_cv, dst_cv))
    return dst


def reformat(src: Tensor, layout: str, *, stream: Optional[Any] = None) -> Tensor:
    """Returns a new C-contiguous tensor with ``src``'s images in ``layout`` ("NCHW", "NHWC", "CHW", "HWC"),
    allocated stream-ordered on ``stream``. See :func:`reformat_into`.

    :raises TypeError: ``layout`` not a str.
    :raises ValueError: ``layout`` does not hold the same labels as ``src``'s layout.
    """
    function = "cvcuda.reformat"
    src_cv = tensor_arg(function, "src", src)
    if not isinstance(layout, str):  # a str or a cvcuda.TensorLayout
        raise TypeError(f"{function}: layout must be a str such as 'NCHW' or a cvcuda.TensorLayout, got "
                        f"{type(layout).__name__}")
    src_layout = str.__str__(src.layout or "")
    if sorted(layout) != sorted(src_layout):
        raise ValueError(
            f"{function}: layout='{layout}' must hold the labels of src's layout '{src_layout}' in another order"
        )
    shape = src.shape
    s = stream_argument(stream)
    dst = new_tensor(s, [shape[src_layout.index(label)] for label in layout], (src._like or src._make_like())[2], layout)
    check(_reformat(s, src_cv, dst._cv))
    return dst
