"""Geometry: horizontal_flip, vertical_flip, resize, crop, center_crop, resized_crop, pad (torchvision v2 names,
arguments and results, on torch tensors, on torch's current stream)."""

import math
from typing import Any, List, Optional, Union

from .._errors import NotSupportedError
from .._ops import flip_into
from .._ops_border import copymakeborder_into
from .._ops_convert import convertto_into
from .._ops_resize import _tv_output_size, tvresize_into
from .._types import Border, Interp, Round
from ._image import Image, hw_pair, interleaved, wrap
from ._interpolation import InterpolationMode, interpolation_value

__all__ = ["center_crop", "crop", "horizontal_flip", "pad", "resize", "resized_crop", "vertical_flip"]


def _flip(function: str, inpt: Any, code: int):
    img = Image(function, inpt, min_ndim=2)
    out = img.empty(img.c, img.h, img.w)
    if out.numel():
        flip_into(img.wrap(out), img.wrap(img.x), code, stream=img.stream)
    return img.finish(out)


def horizontal_flip(inpt: Any) -> Any:
    """torchvision's ``horizontal_flip``: the columns of every image of ``inpt`` (..., C, H, W) reversed (cvcuda.flip,
    flipCode 1), on torch's current stream, without a host sync.

    As torchvision: every dtype, any memory format, at least 2 dimensions. Differs: the result is a new tensor in the
    input's memory format (contiguous or channels_last); a CUDA tensor only.
    :raises TypeError: ``inpt`` is not a CUDA torch tensor (or tv_tensors.Image/Video).
    """
    return _flip("cvcuda.tv.horizontal_flip", inpt, 1)


def vertical_flip(inpt: Any) -> Any:
    """torchvision's ``vertical_flip``: the rows reversed (cvcuda.flip, flipCode 0). As :func:`horizontal_flip`."""
    return _flip("cvcuda.tv.vertical_flip", inpt, 0)


# torchvision's mode names -> cvcuda.Interp for cvcuda.tvresize (torchvision's "nearest" is torch's legacy floor rule).
_RESIZE_INTERP = {"nearest": Interp.NEAREST_FLOOR, "nearest-exact": Interp.NEAREST, "bilinear": Interp.LINEAR,
                  "bicubic": Interp.CUBIC}
_RESIZE_DTYPES = ("uint8", "uint16", "int16", "float16", "float32")


def _resize_mode(function: str, interpolation: Any, antialias: Any):
    mode = interpolation_value(function, interpolation)
    interp = _RESIZE_INTERP.get(mode)
    if interp is None:
        raise NotImplementedError(f"{function}: interpolation {mode!r} is not supported for tensors (torchvision's "
                                  f"tensor resize takes nearest, nearest-exact, bilinear, bicubic; got {mode})")
    if antialias is not None and not isinstance(antialias, bool):
        raise TypeError(f"{function}: antialias must be a bool or None, got {type(antialias).__name__}")
    # torchvision: None means False, and only bilinear and bicubic antialias.
    return interp, bool(antialias) and mode in ("bilinear", "bicubic")


def _resize(function: str, img: Image, src4: Any, new_h: int, new_w: int, interp: Interp, antialias: bool):
    dtype = str(src4.dtype).replace("torch.", "")
    if dtype not in _RESIZE_DTYPES:
        raise NotSupportedError(f"{function}: dtype {src4.dtype} is not supported (cvcuda.tv resizes "
                                f"{', '.join(_RESIZE_DTYPES)}; torchvision also takes float64 and other integers)")
    out = img.empty(src4.shape[1], new_h, new_w)
    if not out.numel() or not src4.numel():
        return out
    s = img.stream
    if dtype == "uint16" and interp in (Interp.LINEAR, Interp.CUBIC):
        # torchvision interpolates uint16 in float32 and truncates (it rounds only uint8 and the signed types).
        torch = img.torch
        tmp_in = img.empty(src4.shape[1], src4.shape[2], src4.shape[3], torch.float32)
        tmp_out = img.empty(src4.shape[1], new_h, new_w, torch.float32)
        convertto_into(img.wrap(tmp_in), img.wrap(src4), stream=s)
        tvresize_into(img.wrap(tmp_out), img.wrap(tmp_in), interp, antialias, stream=s)
        convertto_into(img.wrap(out), img.wrap(tmp_out), round=Round.TRUNCATE, stream=s)
    else:
        tvresize_into(img.wrap(out), img.wrap(src4), interp, antialias, stream=s)
    return out


def resize(inpt: Any, size: Optional[List[int]], interpolation: Union[InterpolationMode, int] = InterpolationMode.BILINEAR,
           max_size: Optional[int] = None, antialias: Optional[bool] = True) -> Any:
    """torchvision's ``resize`` of an image tensor (..., C, H, W): cvcuda.tvresize, PyTorch's ``interpolate``
    (align_corners=False) with torchvision's antialias, on torch's current stream, without a host sync.

    ``size``: an int or a 1-sequence sets the shorter edge (the longer one scaled and truncated, capped by
    ``max_size``), (H, W) sets both, None lets ``max_size`` set the longer edge (torchvision's rules and errors).
    ``interpolation``: an InterpolationMode (torchvision's or :class:`cvcuda.tv.InterpolationMode`) or a Pillow
    int: NEAREST (torch's floor rule), NEAREST_EXACT, BILINEAR, BICUBIC; ``antialias`` (None = False) applies to
    BILINEAR and BICUBIC. The same size returns ``inpt`` itself, as torchvision.
    dtypes: uint8, int16, float16, float32 (integers rounded half to even and saturated, float16 computed in float32,
    as torchvision on the GPU), uint16 (interpolated in float32 and truncated, as torchvision). Results equal
    torchvision's within float32 rounding (uint8: within 1 where the float value lies at .5).
    Differs: float64 and other integer dtypes raise :class:`cvcuda.NotSupportedError`; integer overshoot of BICUBIC
    saturates (torch wraps); the result keeps the input's memory format (torch's interpolate may return contiguous
    for one channels_last image).
    :raises ValueError: a bad ``interpolation``, ``size`` or ``max_size``.
    :raises NotImplementedError: BOX, HAMMING, LANCZOS (torchvision's tensor resize rejects them too).
    :raises TypeError: ``inpt`` not a CUDA torch tensor; ``antialias`` not a bool or None.
    """
    function = "cvcuda.tv.resize"
    interp, aa = _resize_mode(function, interpolation, antialias)
    img = Image(function, inpt)
    new_h, new_w = _tv_output_size(function, img.h, img.w, size, max_size)
    if (new_h, new_w) == (img.h, img.w):
        return inpt
    return img.finish(_resize(function, img, img.x, new_h, new_w, interp, aa))


def _int(function: str, name: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{function}: {name} must be an int, got {value!r}")
    return value


def _box(function: str, top: Any, left: Any, height: Any, width: Any):
    box = [_int(function, n, v) for n, v in (("top", top), ("left", left), ("height", height), ("width", width))]
    if box[2] < 0 or box[3] < 0:
        raise ValueError(f"{function}: height={box[2]} and width={box[3]} must be >= 0")
    return box


def _crop(img: Image, top: int, left: int, height: int, width: int):
    """torchvision's crop_image on the (B, C, H, W) view: a view inside the image, else the inside part padded with
    zeros to height x width."""
    x, h, w = img.x, img.h, img.w
    bottom, right = top + height, left + width
    if top >= 0 and left >= 0 and bottom <= h and right <= w:
        return x[:, :, top:bottom, left:right]
    y0, y1 = min(max(top, 0), h), min(max(bottom, 0), h)
    x0, x1 = min(max(left, 0), w), min(max(right, 0), w)
    inner = x[:, :, y0:y1, x0:x1]
    out = img.empty(img.c, height, width)
    if y1 > y0 and x1 > x0:
        _pad_into(img, inner, out, y0 - top, x0 - left, Border.CONSTANT, [0.0])
    else:
        _pad_into(img, inner, out, 0, 0, Border.CONSTANT, [0.0])
    return out


def crop(inpt: Any, top: int, left: int, height: int, width: int) -> Any:
    """torchvision's ``crop``: rows ``top`` to ``top + height`` and columns ``left`` to ``left + width`` of every
    image. Inside the image the result is a view of ``inpt``, as torchvision's (no GPU work); a box reaching outside
    is filled with zeros there (cvcuda.copymakeborder, CONSTANT 0) into a new tensor of the input's memory format.
    Differs: a box that lies wholly outside gives height x width zeros (torchvision's slicing misreads the negative
    end there and returns another size). Any dtype for views; the padded case takes copymakeborder's dtypes.
    :raises TypeError: ``inpt`` not a CUDA torch tensor; a coordinate not an int.
    :raises ValueError: a negative height or width.
    """
    function = "cvcuda.tv.crop"
    top, left, height, width = _box(function, top, left, height, width)
    img = Image(function, inpt)
    return img.finish(_crop(img, top, left, height, width))


def center_box(h: int, w: int, crop_h: int, crop_w: int):
    """torchvision's center_crop corner (top, left) of a crop_h x crop_w box in an h x w image: Python's round, half
    to even."""
    return int(round((h - crop_h) / 2.0)), int(round((w - crop_w) / 2.0))


def center_crop(inpt: Any, output_size: List[int]) -> Any:
    """torchvision's ``center_crop``: the ``output_size`` (an int, or (h,) or (h, w)) box whose corner is
    ``round((H - h) / 2)``, ``round((W - w) / 2)`` (Python's round, half to even, as torchvision; cvcuda.center_crop
    rounds down), zero-padded first where the box is larger than the image, as torchvision. A view of ``inpt`` when
    the box lies inside (as torchvision), else a new tensor (see :func:`crop`).
    :raises TypeError: ``inpt`` not a CUDA torch tensor; ``output_size`` not an int or a sequence of 1 or 2 ints.
    """
    function = "cvcuda.tv.center_crop"
    if isinstance(output_size, float):
        output_size = int(output_size)
    crop_h, crop_w = hw_pair(function, "output_size", output_size)
    if crop_h < 0 or crop_w < 0:
        raise ValueError(f"{function}: output_size={output_size!r} must not be negative")
    img = Image(function, inpt)
    if img.x.numel() == 0:
        return img.finish(img.empty(img.c, crop_h, crop_w))
    h, w = img.h, img.w
    pad_top = pad_left = 0
    if crop_h > h or crop_w > w:
        pad_left = (crop_w - w) // 2 if crop_w > w else 0
        pad_top = (crop_h - h) // 2 if crop_h > h else 0
        h += pad_top + ((crop_h - h + 1) // 2 if crop_h > h else 0)
        w += pad_left + ((crop_w - w + 1) // 2 if crop_w > w else 0)
    top, left = center_box(h, w, crop_h, crop_w)
    return img.finish(_crop(img, top - pad_top, left - pad_left, crop_h, crop_w))


def resized_crop(inpt: Any, top: int, left: int, height: int, width: int, size: List[int],
                 interpolation: Union[InterpolationMode, int] = InterpolationMode.BILINEAR,
                 antialias: Optional[bool] = True) -> Any:
    """torchvision's ``resized_crop``: :func:`crop` then :func:`resize` to ``size`` (no max_size), as torchvision;
    the crop is a view read in place by the resize (no copy), and a size equal to the crop's returns the crop view.
    Arguments, dtypes, errors and differences: as :func:`crop` and :func:`resize`."""
    function = "cvcuda.tv.resized_crop"
    interp, aa = _resize_mode(function, interpolation, antialias)
    top, left, height, width = _box(function, top, left, height, width)
    if not height or not width:
        raise ValueError(f"{function}: a {height}x{width} crop cannot be resized")
    img = Image(function, inpt)
    cropped = _crop(img, top, left, height, width)
    new_h, new_w = _tv_output_size(function, height, width, size, None)
    if (new_h, new_w) == (height, width):
        return img.finish(cropped)
    return img.finish(_resize(function, img, cropped, new_h, new_w, interp, aa))


# torchvision's padding modes -> the library's border modes (OpenCV's names: reflect = REFLECT101, symmetric =
# REFLECT, as the reference library's cvcuda.tv).
_PAD_MODES = {"constant": Border.CONSTANT, "edge": Border.REPLICATE, "reflect": Border.REFLECT101,
              "symmetric": Border.REFLECT}


def _padding(function: str, padding: Any) -> List[int]:
    """torchvision's _parse_pad_padding: [left, right, top, bottom]."""
    if isinstance(padding, int) and not isinstance(padding, bool):
        return [padding] * 4
    if isinstance(padding, (tuple, list)):
        if not all(isinstance(p, int) and not isinstance(p, bool) for p in padding):
            raise TypeError(f"{function}: padding should be an integer or tuple or list of integers, but got {padding}")
        if len(padding) == 1:
            return [padding[0]] * 4
        if len(padding) == 2:
            return [padding[0], padding[0], padding[1], padding[1]]
        if len(padding) == 4:
            return [padding[0], padding[2], padding[1], padding[3]]
        raise ValueError(f"{function}: Padding must be an int or a 1, 2, or 4 element tuple or list. Found {len(padding)}")
    raise TypeError(f"{function}: padding should be an integer or tuple or list of integers, but got {padding}")


def _fills(function: str, fill: Any, mode: str) -> List[float]:
    """The fill as a list of one value (any channel count) or one value per channel."""
    if fill is None:
        return [0.0]
    if isinstance(fill, (int, float)) and not isinstance(fill, bool):
        return [float(fill)]
    if isinstance(fill, (tuple, list)) and fill and all(
            isinstance(v, (int, float)) and not isinstance(v, bool) for v in fill):
        if len(fill) > 1 and mode != "constant":
            raise ValueError(f"{function}: Padding mode '{mode}' is not supported if fill is not scalar")
        return [float(v) for v in fill]
    raise TypeError(f"{function}: fill must be None, a number or a sequence of numbers, got {fill!r}")


_INT_RANGES = {"uint8": (0, 255), "int8": (-128, 127), "uint16": (0, 65535), "int16": (-32768, 32767),
               "int32": (-2**31, 2**31 - 1), "int64": (-2**63, 2**63 - 1), "uint32": (0, 2**32 - 1),
               "bool": (0, 1)}


def _fill_values(function: str, fills: List[float], dtype: Any) -> List[float]:
    """The fill converted as torch converts a scalar into the tensor's dtype: integers truncate, out of range is an
    error; floats are passed on (the library rounds them to the element type)."""
    rng = _INT_RANGES.get(str(dtype).replace("torch.", ""))
    if rng is None:
        return fills
    out = []
    for v in fills:
        if not math.isfinite(v) or not rng[0] <= math.trunc(v) <= rng[1]:
            raise ValueError(f"{function}: fill value {v} cannot be converted to {dtype} without overflow")
        out.append(float(math.trunc(v)))
    return out


def _mergeable(t4: Any) -> bool:
    return t4.shape[0] == 1 or t4.stride(0) == t4.shape[1] * t4.stride(1)


def _pad_into(img: Image, src4: Any, dst4: Any, top: int, left: int, mode: Border, fills: List[float]) -> None:
    """cvcuda.copymakeborder of the (B, C, h, w) view src4 into dst4 with src4 at (top, left). copymakeborder takes
    interleaved images of 1 to 4 channels: planar images go plane by plane, as single-channel NHWC images (all planes
    in one call where a batch of planes is one view and one fill serves every channel)."""
    c = src4.shape[1]
    s = img.stream
    if img.nhwc and c <= 4:
        values = fills if len(fills) == c else fills * c
        copymakeborder_into(wrap(dst4.permute(0, 2, 3, 1), "NHWC"), wrap(src4.permute(0, 2, 3, 1), "NHWC"), mode,
                            values, top=top, left=left, stream=s)
        return
    if len(set(fills)) == 1 and not interleaved(src4) and not interleaved(dst4) and _mergeable(src4) and \
            _mergeable(dst4):
        b = src4.shape[0] * c
        src_planes = src4.view(b, src4.shape[2], src4.shape[3], 1)
        dst_planes = dst4.view(b, dst4.shape[2], dst4.shape[3], 1)
        copymakeborder_into(wrap(dst_planes, "NHWC"), wrap(src_planes, "NHWC"), mode, fills[:1], top=top, left=left,
                            stream=s)
        return
    for k in range(c):
        value = fills[k if len(fills) == c else 0]
        copymakeborder_into(wrap(dst4[:, k:k + 1].permute(0, 2, 3, 1), "NHWC"),
                            wrap(src4[:, k:k + 1].permute(0, 2, 3, 1), "NHWC"), mode, [value], top=top, left=left,
                            stream=s)


def pad(inpt: Any, padding: List[int], fill: Optional[Union[int, float, List[float]]] = None,
        padding_mode: str = "constant") -> Any:
    """torchvision's ``pad``: ``padding`` (an int, or [all], [left/right, top/bottom] or [left, top, right, bottom]
    pixels) around every image, by cvcuda.copymakeborder on torch's current stream, without a host sync.

    ``padding_mode``: "constant" (``fill``: None = 0, a number, or one number per channel), "edge" (REPLICATE),
    "reflect" (OpenCV's REFLECT101: the edge pixel not repeated; padding < the image size, as torch) or "symmetric"
    (OpenCV's REFLECT: the edge pixel repeated; padding <= the image size, as torchvision's indexing). Negative
    padding crops, in every mode (torchvision: constant and symmetric). A fill becomes the dtype as torch converts a
    scalar (integers truncate). Any dtype copymakeborder takes (every 1, 2, 4 and 8 byte type); the result keeps the
    input's memory format.
    Differs: a padding that reflect/symmetric cannot serve raises ValueError (torch: RuntimeError or an index error).
    :raises TypeError: ``inpt`` not a CUDA torch tensor; ``padding`` or ``fill`` of the wrong type.
    :raises ValueError: a bad padding length or mode, a non-scalar fill with another mode than constant, a fill out of
        the dtype's range, a padding the mode cannot serve, a result with no pixels.
    """
    function = "cvcuda.tv.pad"
    left, right, top, bottom = _padding(function, padding)
    if padding_mode not in _PAD_MODES:
        raise ValueError(f"{function}: `padding_mode` should be either `'constant'`, `'edge'`, `'reflect'` or "
                         f"`'symmetric'`, but got `'{padding_mode}'`.")
    fills = _fills(function, fill, padding_mode)
    img = Image(function, inpt)
    fills = _fill_values(function, fills, img.x.dtype)
    if len(fills) not in (1, img.c):
        raise ValueError(f"{function}: fill has {len(fills)} values for an image of {img.c} channels (give 1 or "
                         f"{img.c})")
    x, h, w = img.x, img.h, img.w
    src = x[:, :, max(-top, 0):h - max(-bottom, 0), max(-left, 0):w - max(-right, 0)]
    top, bottom, left, right = max(top, 0), max(bottom, 0), max(left, 0), max(right, 0)
    sh, sw = src.shape[2], src.shape[3]
    out_h, out_w = sh + top + bottom, sw + left + right
    if out_h <= 0 or out_w <= 0:
        raise ValueError(f"{function}: padding={padding!r} leaves no pixels of the {h}x{w} image")
    if padding_mode == "reflect" and (max(top, bottom) >= sh or max(left, right) >= sw):
        raise ValueError(f"{function}: padding {padding!r} with reflect must be smaller than the image ({sh}x{sw})")
    if padding_mode == "symmetric" and (max(top, bottom) > sh or max(left, right) > sw):
        raise ValueError(f"{function}: padding {padding!r} with symmetric must not exceed the image ({sh}x{sw})")
    if padding_mode == "edge" and (sh == 0 or sw == 0):
        raise ValueError(f"{function}: edge padding needs a non-empty image")
    out = img.empty(img.c, out_h, out_w)
    if out.numel():
        _pad_into(img, src, out, top, left, _PAD_MODES[padding_mode], fills)
    return img.finish(out)
