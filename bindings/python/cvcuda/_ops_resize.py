"""Resize operators: ``resize`` / ``resize_into`` (OpenCV's cv::resize) and the fused preprocessing pass
``resize_crop_convert_reformat`` / ``_into`` (the reference library's signature, plus per-channel ``mean``/``std``).
Semantics, layouts and errors are those of ``include/cvcuda/resize.h``; this module converts arguments only."""

from typing import Any, Optional, Sequence, Tuple

from ._ffi import ffi
from ._library import lib
from ._op import check, float_arg, int_arg, new_tensor, rect_arg, stream_argument, tensor_arg
from ._tensor import Tensor
from ._types import ChannelManip, Interp

__all__ = [
    "resize",
    "resize_crop_convert_reformat",
    "resize_crop_convert_reformat_into",
    "resize_into",
    "tvresize",
    "tvresize_crop_convert_reformat_into",
    "tvresize_into",
]


# The reference's Interp values (cvcuda.Interp) -> this library's cvInterp (include/cvcuda/interp.h).
_C_INTERP = {Interp.NEAREST: 1, Interp.NEAREST_FLOOR: 2, Interp.LINEAR: 3, Interp.CUBIC: 4, Interp.AREA: 5}


def _interp(function: str, interp: Any) -> int:
    """The cvInterp value of a cvcuda.Interp member (or the reference's number for it)."""
    if isinstance(interp, bool) or not hasattr(type(interp), "__index__"):
        raise TypeError(f"{function}: interp must be a cvcuda.Interp, got {type(interp).__name__}")
    value = _C_INTERP.get(interp.__index__())
    if value is None:
        names = ", ".join(m.name for m in _C_INTERP)
        raise ValueError(f"{function}: interp={interp!r} is not supported (resize takes {names})")
    return value


def resize_into(dst: Tensor, src: Tensor, interp: Interp = Interp.LINEAR, *, stream: Optional[Any] = None) -> Tensor:
    """Writes ``src`` resized to ``dst``'s height and width into ``dst`` and returns ``dst``.

    OpenCV's ``cv2.resize`` semantics (centres aligned, border replicated; NEAREST is INTER_NEAREST_EXACT, the pixel
    covering the destination centre, with cv2 5.0's side where a centre lies on a pixel edge, NEAREST_FLOOR INTER_NEAREST; uint8 LINEAR/CUBIC in OpenCV's 11-bit fixed point,
    within 1 of cv2; other types in float32 with saturate_cast rounding). Layouts HWC, NHWC, CHW, NCHW, HW, NHW (src and
    dst alike); uint8, uint16, int16, float16, float32; any channel count; same N, C and dtype on both sides; any
    strides. ``dst`` must not overlap ``src``. Runs on ``stream`` (None: :attr:`Stream.current`), ordered after
    pending writes of ``src`` and accesses of ``dst`` on other streams; returns without waiting for the GPU.

    :raises TypeError: ``dst``/``src`` not a Tensor, ``interp`` not an Interp.
    :raises ValueError: ``interp`` out of range.
    :raises InvalidArgumentError: layouts, dtypes, N or C differ; empty H/W; overlap (C's message).
    :raises NotSupportedError: a dtype outside the list.
    :raises InvalidStateError, NoDeviceError, CudaError: as :func:`flip`.
    """
    dst_cv = tensor_arg("cvcuda.resize_into", "dst", dst)
    src_cv = tensor_arg("cvcuda.resize_into", "src", src)
    value = _interp("cvcuda.resize_into", interp)
    check(lib.cvResize(stream_argument(stream), src_cv, dst_cv, value))
    return dst


def resize(src: Tensor, shape: Tuple[int, ...], interp: Interp = Interp.LINEAR, *, stream: Optional[Any] = None) -> Tensor:
    """Returns ``src`` resized into a new C-contiguous tensor of ``shape`` (the whole output shape, in ``src``'s
    layout, e.g. ``(N, 224, 224, 3)`` for NHWC), allocated stream-ordered on ``stream``. See :func:`resize_into`."""
    if not isinstance(shape, (tuple, list)):
        raise TypeError(f"cvcuda.resize: shape must be a tuple of ints, got {type(shape).__name__}")
    extents = [int_arg("cvcuda.resize", f"shape[{i}]", v, 0, 2**63 - 1) for i, v in enumerate(shape)]
    tensor_arg("cvcuda.resize", "src", src)
    _interp("cvcuda.resize", interp)
    dst = new_tensor(stream, extents, src.dtype, src.layout)
    return resize_into(dst, src, interp, stream=stream)


def tvresize_into(
    dst: Tensor, src: Tensor, interp: Interp = Interp.LINEAR, antialias: Optional[bool] = True, *, stream: Optional[Any] = None
) -> Tensor:
    """Writes ``src`` resized to ``dst``'s height and width the way ``torchvision.transforms.v2.functional.resize``
    does on GPU tensors (``torch.nn.functional.interpolate``, align_corners=False) and returns ``dst``.

    ``interp``: LINEAR (bilinear), CUBIC (bicubic: a = -0.75; with ``antialias`` Keys' a = -0.5, also when
    enlarging, as PyTorch), NEAREST (nearest-exact), NEAREST_FLOOR (nearest). ``antialias`` True (default)
    selects PyTorch's antialiased kernels; None means False; ignored for nearest. Integer results round half to
    even and saturate. uint8 with ``antialias``: the horizontal sums are exact integers, and the results are within
    float32 rounding of PyTorch's (``cvResizeTorchvision`` in cvcuda/resize.h). Layouts, dtypes, streams and errors as :func:`resize_into`; AREA is rejected."""
    function = "cvcuda.tvresize_into"
    dst_cv = tensor_arg(function, "dst", dst)
    src_cv = tensor_arg(function, "src", src)
    value = _interp(function, interp)
    if antialias is not None and not isinstance(antialias, bool):
        raise TypeError(f"{function}: antialias must be a bool or None, got {type(antialias).__name__}")
    check(lib.cvResizeTorchvision(stream_argument(stream), src_cv, dst_cv, value, 1 if antialias else 0))
    return dst


def _tv_output_size(function: str, h: int, w: int, size: Any, max_size: Any) -> Tuple[int, int]:
    """torchvision's _compute_resized_output_size: an int (or 1-sequence) sets the shorter edge (the longer one
    truncated), (H, W) sets both, None lets max_size set the longer edge."""
    short, long = (w, h) if w <= h else (h, w)
    if max_size is not None:
        max_size = int_arg(function, "max_size", max_size, 1)
    if size is None:
        if max_size is None:
            raise ValueError(f"{function}: give size, or max_size when size is None")
        new_short, new_long = int(max_size * short / long), max_size
    else:
        values = [size] if not isinstance(size, (tuple, list)) else list(size)
        if len(values) == 2:
            if max_size is not None:
                raise ValueError(f"{function}: max_size is not allowed with an exact (H, W) size")
            return int_arg(function, "size[0]", values[0], 1), int_arg(function, "size[1]", values[1], 1)
        if len(values) != 1:
            raise ValueError(f"{function}: size must be an int, a 1-sequence or (H, W), got {size!r}")
        requested = int_arg(function, "size", values[0], 1)
        new_short, new_long = requested, int(requested * long / short)
        if max_size is not None:
            if max_size <= requested:
                raise ValueError(f"{function}: max_size={max_size} must be greater than the shorter edge {requested}")
            if new_long > max_size:
                new_short, new_long = int(max_size * new_short / new_long), max_size
    new_w, new_h = (new_short, new_long) if w <= h else (new_long, new_short)
    return new_h, new_w


def tvresize(
    src: Tensor,
    size: Any = None,
    interp: Interp = Interp.LINEAR,
    max_size: Optional[int] = None,
    antialias: Optional[bool] = True,
    *,
    stream: Optional[Any] = None,
) -> Tensor:
    """torchvision's resize into a new tensor: ``size`` and ``max_size`` as ``torchvision.transforms.v2.functional
    .resize`` (shorter edge, or exact (H, W)); only H and W change. See :func:`tvresize_into`."""
    function = "cvcuda.tvresize"
    tensor_arg(function, "src", src)
    _interp(function, interp)
    shape, layout = list(src.shape), src.layout or ""
    if "H" not in layout or "W" not in layout:
        raise ValueError(f"{function}: src layout {layout!r} has no H and W")
    hi, wi = layout.index("H"), layout.index("W")
    shape[hi], shape[wi] = _tv_output_size(function, shape[hi], shape[wi], size, max_size)
    dst = new_tensor(stream, shape, src.dtype, src.layout)
    return tvresize_into(dst, src, interp, antialias, stream=stream)


def _pair(function: str, name: str, value: Any) -> Tuple[int, int]:
    if not isinstance(value, (tuple, list)) or len(value) != 2:
        raise TypeError(f"{function}: {name} must be a tuple of two ints, got {value!r}")
    return int_arg(function, f"{name}[0]", value[0]), int_arg(function, f"{name}[1]", value[1])


def _channel_values(function: str, name: str, values: Optional[Sequence[float]]) -> Optional[list]:
    if values is None:
        return None
    try:
        items = list(values)
    except TypeError:
        raise TypeError(f"{function}: {name} must be a sequence of numbers, got {type(values).__name__}") from None
    if not 1 <= len(items) <= 4:
        raise ValueError(f"{function}: {name} has {len(items)} values (one per channel, at most 4)")
    return [float_arg(function, f"{name}[{i}]", v) for i, v in enumerate(items)]


def _fused_params(function, resize_dim, interp, crop_xy, manip, scale, offset, srcCast, mean, std):
    """The C parameters of the fused passes (include/cvcuda/resize.h); interp is converted as by resize's."""
    w, h = _pair(function, "resize_dim", resize_dim)
    p = ffi.new("cvResizeCropConvertParams *")
    p.structSize = ffi.sizeof("cvResizeCropConvertParams")
    p.resizeWidth, p.resizeHeight = w, h
    p.interp = _interp(function, interp)
    p.cropX, p.cropY = crop_xy
    if isinstance(manip, bool) or not hasattr(type(manip), "__index__") or manip.__index__() not in (0, 1):
        raise ValueError(f"{function}: manip={manip!r} is not a cvcuda.ChannelManip (NO_OP, REVERSE)")
    p.reverseChannels = manip.__index__()
    p.srcCast = 1 if srcCast else 0
    p.scale = float_arg(function, "scale", scale)
    p.offset = float_arg(function, "offset", offset)
    means, stds = _channel_values(function, "mean", mean), _channel_values(function, "std", std)
    if (means is None) != (stds is None):
        raise ValueError(f"{function}: mean and std go together (give both or neither)")
    if means is not None:
        if len(means) != len(stds):
            raise ValueError(f"{function}: mean has {len(means)} values and std {len(stds)} (one per channel each)")
        p.normalize = 1
        for i in range(4):
            p.mean[i] = means[i if i < len(means) else -1]
            p.stddev[i] = stds[i if i < len(stds) else -1]
    else:
        for i in range(4):
            p.stddev[i] = 1.0
    return p


def resize_crop_convert_reformat_into(
    dst: Tensor,
    src: Tensor,
    resize_dim: Tuple[int, int],
    interp: Interp,
    cropPos: Tuple[int, int],
    *,
    manip: ChannelManip = ChannelManip.NO_OP,
    scale: float = 1.0,
    offset: float = 0.0,
    srcCast: bool = True,
    mean: Optional[Sequence[float]] = None,
    std: Optional[Sequence[float]] = None,
    stream: Optional[Any] = None,
) -> Tensor:
    """The fused pass into ``dst``: resize ``src`` (uint8 NHWC/HWC) to ``resize_dim`` = (width, height) with
    ``interp`` (cvResize's sampler), crop ``dst``'s W x H at ``cropPos`` = (x, y), optionally reverse the channels,
    then ``(v * scale + offset - mean[c]) / std[c]`` in float32 (``mean``/``std``: one value per output channel,
    both or neither; the reference library has neither), stored into ``dst`` (float32 or float16, NHWC or NCHW, or
    HWC/CHW for an HWC ``src``). ``srcCast`` rounds the interpolated value to uint8 first (the reference's default).
    Equal to :func:`resize_into` followed by crop, conversion and normalization within float32 rounding.
    Returns ``dst`` without waiting for the GPU; errors as :func:`resize_into` plus the rules of the C header."""
    function = "cvcuda.resize_crop_convert_reformat_into"
    dst_cv = tensor_arg(function, "dst", dst)
    src_cv = tensor_arg(function, "src", src)
    p = _fused_params(function, resize_dim, interp, _pair(function, "cropPos", cropPos), manip, scale, offset, srcCast, mean, std)
    check(lib.cvResizeCropConvertReformat(stream_argument(stream), src_cv, dst_cv, p))
    return dst


def resize_crop_convert_reformat(
    src: Tensor,
    resize_dim: Tuple[int, int],
    interp: Interp,
    crop_rect: Any,
    *,
    layout: str = "",
    data_type: Any = 0,
    manip: ChannelManip = ChannelManip.NO_OP,
    scale: float = 1.0,
    offset: float = 0.0,
    srcCast: bool = True,
    mean: Optional[Sequence[float]] = None,
    std: Optional[Sequence[float]] = None,
    stream: Optional[Any] = None,
) -> Tensor:
    """The fused pass into a new tensor: ``crop_rect`` = RectI(x, y, width, height) (or a 4-tuple) in the resized
    image, output ``layout`` ("" = ``src``'s) and ``data_type`` (a numpy dtype such as ``numpy.float32``; 0 =
    ``src``'s, which the fused pass does not write: give float32 or float16). See
    :func:`resize_crop_convert_reformat_into`."""
    function = "cvcuda.resize_crop_convert_reformat"
    tensor_arg(function, "src", src)
    x, y, w, h = rect_arg(function, "crop_rect", crop_rect, tuples=True)
    if not isinstance(layout, str):
        raise TypeError(f"{function}: layout must be a str, got {type(layout).__name__}")
    out_layout = layout or src.layout or ""
    dtype = src.dtype if (isinstance(data_type, int) and data_type == 0) else data_type
    src_shape, src_layout = src.shape, src.layout or ""
    n = src_shape[src_layout.index("N")] if "N" in src_layout else 1
    c = src_shape[src_layout.index("C")] if "C" in src_layout else 1
    extents = {"N": n, "H": h, "W": w, "C": c}
    if sorted(out_layout) not in (sorted("NHWC"), sorted("HWC")):
        raise ValueError(f"{function}: layout={out_layout!r} is not an image layout (NHWC, NCHW, HWC, CHW)")
    _fused_params(function, resize_dim, interp, (x, y), manip, scale, offset, srcCast, mean, std)  # check first
    dst = new_tensor(stream, [extents[label] for label in out_layout], dtype, out_layout)
    return resize_crop_convert_reformat_into(
        dst, src, resize_dim, interp, (x, y), manip=manip, scale=scale, offset=offset, srcCast=srcCast,
        mean=mean, std=std, stream=stream,
    )


def tvresize_crop_convert_reformat_into(
    dst: Tensor,
    src: Tensor,
    resize_dim: Tuple[int, int],
    interp: Interp,
    cropPos: Tuple[int, int],
    antialias: Optional[bool] = True,
    *,
    manip: ChannelManip = ChannelManip.NO_OP,
    scale: float = 1.0,
    offset: float = 0.0,
    srcCast: bool = True,
    mean: Optional[Sequence[float]] = None,
    std: Optional[Sequence[float]] = None,
    stream: Optional[Any] = None,
) -> Tensor:
    """:func:`resize_crop_convert_reformat_into` with :func:`tvresize_into`'s resize (torchvision's; ``interp``
    LINEAR, CUBIC, NEAREST or NEAREST_FLOOR, ``antialias`` as there; None means False), for ``src`` uint8 NHWC,
    NCHW, HWC or CHW: torchvision's Resize -> crop -> ToDtype(scale=True) -> Normalize in one kernel (``scale`` =
    1 / 255, ``offset`` 0, ``srcCast`` True give torchvision's values: its rounded uint8, its product, its subtraction
    and division). Not in the reference library (cvResizeTorchvisionCropConvertReformat). Returns ``dst`` without
    waiting for the GPU; errors as :func:`resize_crop_convert_reformat_into`."""
    function = "cvcuda.tvresize_crop_convert_reformat_into"
    dst_cv = tensor_arg(function, "dst", dst)
    src_cv = tensor_arg(function, "src", src)
    if antialias is not None and not isinstance(antialias, bool):
        raise TypeError(f"{function}: antialias must be a bool or None, got {type(antialias).__name__}")
    p = _fused_params(function, resize_dim, interp, _pair(function, "cropPos", cropPos), manip, scale, offset, srcCast, mean, std)
    check(lib.cvResizeTorchvisionCropConvertReformat(stream_argument(stream), src_cv, dst_cv, p, 1 if antialias else 0))
    return dst
