"""Colour conversion: ``cvtcolor`` / ``cvtcolor_into`` (OpenCV's cv::cvtColor, the reference library's signature) and
``advcvtcolor`` / ``advcvtcolor_into`` (the same with a :class:`ColorSpec` for the YUV codes). Semantics, the table of
codes, layouts and dtypes, and errors are those of ``include/cvcuda/cvtcolor.h``; this module converts arguments and
sizes the output only."""

import enum
from typing import Any, Optional

from ._library import lib
from ._op import check, int_arg, new_tensor, stream_argument, tensor_arg
from ._tensor import Tensor
from ._types import ColorConversion

__all__ = ["ColorSpec", "advcvtcolor", "advcvtcolor_into", "cvtcolor", "cvtcolor_into"]

_cvt = lib.cvCvtColor


class ColorSpec(enum.IntEnum):
    """The YUV matrix and range of the YUV codes (the reference's names; ``_ER``: extended, i.e. full, range). The
    values are this library's C ``cvColorSpec``, not the reference's packed NVCV specs. Unlike the reference's
    advcvtcolor, which uses the same arithmetic for a spec and its ``_ER`` variant, the range is honoured here."""

    BT601 = 1  #: Kr 0.299, Kb 0.114, limited range (Y 16-235): OpenCV's, and what cvtcolor uses
    BT601_ER = 2  #: BT.601 full range (JPEG)
    BT709 = 3  #: Kr 0.2126, Kb 0.0722, limited range
    BT709_ER = 4
    BT2020 = 5  #: Kr 0.2627, Kb 0.0593, limited range
    BT2020_ER = 6


# Channels of dst, and its height as a fraction of src's, per code (the rest of the table lives in C).
_TO_3, _TO_4, _TO_1 = (3, 1, 1), (4, 1, 1), (1, 1, 1)
_OUTPUT = {0: _TO_4, 1: _TO_3, 2: _TO_4, 3: _TO_3, 4: _TO_3, 5: _TO_4, 6: _TO_1, 7: _TO_1, 8: _TO_3, 9: _TO_4,
           10: _TO_1, 11: _TO_1, 148: _TO_1, 149: _TO_1, 150: _TO_1, 151: _TO_1}
_OUTPUT.update({c: (3, 2, 3) for c in (90, 91, 92, 93, 98, 99, 100, 101)})
_OUTPUT.update({c: (4, 2, 3) for c in (94, 95, 96, 97, 102, 103, 104, 105)})
_OUTPUT.update({c: (1, 3, 2) for c in range(140, 148)})


def _code(function: str, code: Any) -> int:
    return int_arg(function, "code", code)


def _spec(function: str, spec: Any) -> int:
    value = int_arg(function, "spec", spec)
    if value not in ColorSpec._value2member_map_:
        raise ValueError(f"{function}: spec={value} is not a cvcuda.ColorSpec ({', '.join(m.name for m in ColorSpec)})")
    return value


def _convert(function: str, src: Tensor, code: int, spec: int, stream: Any) -> Tensor:
    src_cv = tensor_arg(function, "src", src)
    layout = src.layout
    out = _OUTPUT.get(code)
    if out is None or layout not in ("HWC", "NHWC"):
        # No output size for this code or layout: C's message names the rule (it checks code and src before dst).
        check(_cvt(stream_argument(stream), src_cv, src_cv, code, spec))
        raise AssertionError(f"{function}: code {code} on layout {layout} was accepted without an output")
    shape = list(src.shape)
    h = layout.index("H")
    shape[h] = shape[h] * out[1] // out[2]
    shape[-1] = out[0]
    like = src._like or src._make_like()
    dst = new_tensor(stream, shape, like[2], like[3])
    check(_cvt(stream_argument(stream), src_cv, dst._cv, code, spec))
    return dst


def cvtcolor(src: Tensor, code: ColorConversion, *, stream: Optional[Any] = None) -> Tensor:
    """Returns a new tensor holding ``src`` converted by ``code`` (OpenCV's ``cv::cvtColor`` codes and arithmetic).

    Supported codes (see ``include/cvcuda/cvtcolor.h`` for shapes and arithmetic): the RGB/BGR swaps with alpha kept,
    added (the dtype's maximum) or dropped (0-5); to GRAY with OpenCV 4.x's weights and 15-bit rounding for integers
    (6, 7, 10, 11), or torchvision's ``rgb_to_grayscale`` exactly (``*2GRAY_TV``, 148-151: 0.2989/0.587/0.114 in
    PyTorch's float32 steps, integers truncated); GRAY to colour (8, 9); YUV 4:2:0 NV12/NV21/I420/IYUV/YV12 to RGB(A)/BGR(A) (90-105) and
    RGB(A)/BGR(A) to NV12/NV21 (140-147), BT.601 limited range as OpenCV (see :func:`advcvtcolor` for others).
    ``src`` is HWC or NHWC, uint8, uint16, float16 or float32 (YUV: uint8); a YUV image is one channel of H * 3 / 2
    rows. The result is C-contiguous with the same layout and dtype, allocated stream-ordered on ``stream``.

    :param code: a :class:`ColorConversion` member or its int value.
    :param stream: as :func:`flip` (waits on pending writes of ``src``; returns without waiting for the GPU).
    :raises TypeError: ``src`` is not a Tensor, ``code`` not an int.
    :raises InvalidArgumentError: an unknown code; layout, dtype, channel count or shape not fitting the code (C's
        message).
    :raises NotSupportedError: an OpenCV code this library does not implement (HSV, Lab, Bayer, ...).
    :raises InvalidStateError, NoDeviceError, OutOfMemoryError, CudaError: as :func:`flip`.
    """
    c = _code("cvcuda.cvtcolor", code)
    return _convert("cvcuda.cvtcolor", src, c, 0, stream)


def cvtcolor_into(dst: Tensor, src: Tensor, code: ColorConversion, *, stream: Optional[Any] = None) -> Tensor:
    """Writes ``src`` converted by ``code`` into ``dst`` and returns ``dst`` (see :func:`cvtcolor`). ``dst`` has the
    shape the code gives, src's layout and dtype, is writable and does not overlap ``src``."""
    dst_cv = tensor_arg("cvcuda.cvtcolor_into", "dst", dst)
    src_cv = tensor_arg("cvcuda.cvtcolor_into", "src", src)
    c = _code("cvcuda.cvtcolor_into", code)
    check(_cvt(stream_argument(stream), src_cv, dst_cv, c, 0))
    return dst


def advcvtcolor(src: Tensor, code: ColorConversion, spec: ColorSpec, *, stream: Optional[Any] = None) -> Tensor:
    """:func:`cvtcolor` with the YUV matrix and range of ``spec`` (a :class:`ColorSpec`) for the YUV codes; other
    codes ignore it. ``ColorSpec.BT601`` gives cvtcolor's (OpenCV's) result exactly.

    :raises ValueError: ``spec`` is not a ColorSpec. Otherwise as :func:`cvtcolor`.
    """
    c = _code("cvcuda.advcvtcolor", code)
    s = _spec("cvcuda.advcvtcolor", spec)
    return _convert("cvcuda.advcvtcolor", src, c, s, stream)


def advcvtcolor_into(dst: Tensor, src: Tensor, code: ColorConversion, spec: ColorSpec, *,
                     stream: Optional[Any] = None) -> Tensor:
    """:func:`cvtcolor_into` with ``spec`` (see :func:`advcvtcolor`); returns ``dst``."""
    dst_cv = tensor_arg("cvcuda.advcvtcolor_into", "dst", dst)
    src_cv = tensor_arg("cvcuda.advcvtcolor_into", "src", src)
    c = _code("cvcuda.advcvtcolor_into", code)
    s = _spec("cvcuda.advcvtcolor_into", spec)
    check(_cvt(stream_argument(stream), src_cv, dst_cv, c, s))
    return dst
