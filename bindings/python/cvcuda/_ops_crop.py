"""Crop operators: customcrop (a rectangle of every image) and center_crop (the centred one)."""

from typing import Any, Optional, Tuple

from ._library import lib
from ._op import check, int_arg, new_tensor, rect_arg, stream_argument, tensor_arg
from ._tensor import Tensor
from ._types import RectI

__all__ = ["center_crop", "center_crop_into", "customcrop", "customcrop_into"]

_custom_crop = lib.cvCustomCrop
_center_crop = lib.cvCenterCrop


def _cropped_shape(src: Tensor, width: int, height: int):
    """src's shape with H and W replaced, or None when its layout has no H and W (C then names the rule)."""
    layout = src.layout or ""
    if "H" not in layout or "W" not in layout:
        return None
    shape = list(src.shape)
    shape[layout.index("H")], shape[layout.index("W")] = height, width
    return shape


def customcrop_into(dst: Tensor, src: Tensor, rect: RectI, *, stream: Optional[Any] = None) -> Tensor:
    """Writes the rectangle ``rect`` of every image of ``src`` into ``dst`` and returns ``dst``:
    ``dst[n, r, c, :] = src[n, rect.y + r, rect.x + c, :]``.

    Layouts HWC, NHWC, CHW, NCHW (``src`` and ``dst`` equal), any dtype and channel count, any strides. ``dst`` has
    ``src``'s N and C, H = ``rect.height`` and W = ``rect.width``. The rectangle must lie inside the image
    (``0 <= x``, ``x + width <= W``, same for y/height, sizes > 0): an out-of-range rectangle is rejected, never
    clipped. Runs on ``stream`` (None: :attr:`Stream.current`), ordered after pending work on ``src``/``dst`` of
    other streams; returns without waiting for the GPU (see :func:`flip` for the stream rules).

    :raises TypeError: ``dst``/``src`` not Tensors, ``rect`` not a RectI.
    :raises InvalidArgumentError: layout, dtype or shape mismatch; rectangle outside ``src``; ``dst`` readonly;
        overlap (C's message names the rule).
    :raises InvalidStateError, NoDeviceError, CudaError: as :func:`flip`.
    """
    function = "cvcuda.customcrop_into"
    dst_cv = tensor_arg(function, "dst", dst)
    src_cv = tensor_arg(function, "src", src)
    x, y, w, h = rect_arg(function, "rect", rect)
    check(_custom_crop(stream_argument(stream), src_cv, dst_cv, x, y, w, h))
    return dst


def customcrop(src: Tensor, rect: RectI, *, stream: Optional[Any] = None) -> Tensor:
    """Returns a new tensor holding the rectangle ``rect`` of every image of ``src`` (C-contiguous, ``src``'s dtype
    and layout, allocated stream-ordered on ``stream``). See :func:`customcrop_into`."""
    function = "cvcuda.customcrop"
    src_cv = tensor_arg(function, "src", src)
    x, y, w, h = rect_arg(function, "rect", rect)
    s = stream_argument(stream)
    shape = _cropped_shape(src, w, h)
    if shape is None or w <= 0 or h <= 0:
        check(_custom_crop(s, src_cv, src_cv, x, y, w, h))  # raises C's message: nothing to allocate
    dst = new_tensor(s, shape, (src._like or src._make_like())[2], src.layout)
    check(_custom_crop(s, src_cv, dst._cv, x, y, w, h))
    return dst


def _crop_size(function: str, crop_size: Any) -> Tuple[int, int]:
    try:
        width, height = crop_size
    except (TypeError, ValueError):
        raise TypeError(f"{function}: crop_size must be a (width, height) pair of ints, got {crop_size!r}") from None
    return int_arg(function, "crop_size[0] (width)", width), int_arg(function, "crop_size[1] (height)", height)


def center_crop_into(dst: Tensor, src: Tensor, crop_size: Tuple[int, int], *, stream: Optional[Any] = None) -> Tensor:
    """Writes the centred ``crop_size = (width, height)`` rectangle of every image of ``src`` into ``dst``; returns
    ``dst``. The corner is ``x = (W - width) // 2``, ``y = (H - height) // 2`` (rounded down, as the reference
    library; torchvision's ``center_crop`` rounds to the nearest, one pixel further when ``W - width`` is odd).
    Needs ``0 < width <= W`` and ``0 < height <= H``. Layouts, dtypes, streams and errors as
    :func:`customcrop_into`."""
    function = "cvcuda.center_crop_into"
    dst_cv = tensor_arg(function, "dst", dst)
    src_cv = tensor_arg(function, "src", src)
    w, h = _crop_size(function, crop_size)
    check(_center_crop(stream_argument(stream), src_cv, dst_cv, w, h))
    return dst


def center_crop(src: Tensor, crop_size: Tuple[int, int], *, stream: Optional[Any] = None) -> Tensor:
    """Returns a new tensor holding the centred ``crop_size = (width, height)`` rectangle of every image of ``src``.
    See :func:`center_crop_into`."""
    function = "cvcuda.center_crop"
    src_cv = tensor_arg(function, "src", src)
    w, h = _crop_size(function, crop_size)
    s = stream_argument(stream)
    shape = _cropped_shape(src, w, h)
    if shape is None or w <= 0 or h <= 0:
        check(_center_crop(s, src_cv, src_cv, w, h))
    dst = new_tensor(s, shape, (src._like or src._make_like())[2], src.layout)
    check(_center_crop(s, src_cv, dst._cv, w, h))
    return dst
