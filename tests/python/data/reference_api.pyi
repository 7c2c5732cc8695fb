# Excerpt of CV-CUDA 0.19's typed Python API (cvcuda/__init__.pyi of the cvcuda-cu13 0.19.0 wheel, Apache-2.0),
# trimmed to what this package implements: signatures and member names only (docstrings removed).
# tests/python/test_reference_api.py compares this package against it.

class RectI:

    @overload
    def __init__(self) -> None:
        ...

    @overload
    def __init__(self, x: SupportsInt | SupportsIndex, y: SupportsInt | SupportsIndex, width: SupportsInt | SupportsIndex, height: SupportsInt | SupportsIndex) -> None:
        ...

    @property
    def x(self) -> int:
        ...

    @x.setter
    def x(self, arg: SupportsInt | SupportsIndex, /) -> None:
        ...

    @property
    def y(self) -> int:
        ...

    @y.setter
    def y(self, arg: SupportsInt | SupportsIndex, /) -> None:
        ...

    @property
    def width(self) -> int:
        ...

    @width.setter
    def width(self, arg: SupportsInt | SupportsIndex, /) -> None:
        ...

    @property
    def height(self) -> int:
        ...

    @height.setter
    def height(self, arg: SupportsInt | SupportsIndex, /) -> None:
        ...

    def __repr__(self) -> str:
        ...

class TensorLayout:

    def __init__(self, arg: str, /) -> None:
        ...

    def __eq__(self, arg: TensorLayout, /) -> bool:
        ...

    def __ne__(self, arg: TensorLayout, /) -> bool:
        ...

    def __hash__(self) -> int:
        ...

    def __repr__(self) -> str:
        ...
    NONE: ClassVar[TensorLayout]
    N: ClassVar[TensorLayout]
    C: ClassVar[TensorLayout]
    F: ClassVar[TensorLayout]
    D: ClassVar[TensorLayout]
    H: ClassVar[TensorLayout]
    W: ClassVar[TensorLayout]
    WC: ClassVar[TensorLayout]
    CW: ClassVar[TensorLayout]
    NW: ClassVar[TensorLayout]
    NWC: ClassVar[TensorLayout]
    NCW: ClassVar[TensorLayout]
    HW: ClassVar[TensorLayout]
    NHW: ClassVar[TensorLayout]
    FHW: ClassVar[TensorLayout]
    NFHW: ClassVar[TensorLayout]
    CHW: ClassVar[TensorLayout]
    NCHW: ClassVar[TensorLayout]
    HWC: ClassVar[TensorLayout]
    NHWC: ClassVar[TensorLayout]
    CFHW: ClassVar[TensorLayout]
    FCHW: ClassVar[TensorLayout]
    FHWC: ClassVar[TensorLayout]
    NCFHW: ClassVar[TensorLayout]
    NFCHW: ClassVar[TensorLayout]
    NFHWC: ClassVar[TensorLayout]
    DHW: ClassVar[TensorLayout]
    NDHW: ClassVar[TensorLayout]
    CDHW: ClassVar[TensorLayout]
    DHWC: ClassVar[TensorLayout]
    NCDHW: ClassVar[TensorLayout]
    NDHWC: ClassVar[TensorLayout]
    FDHW: ClassVar[TensorLayout]
    NFDHW: ClassVar[TensorLayout]
    CFDHW: ClassVar[TensorLayout]
    FCDHW: ClassVar[TensorLayout]
    FDHWC: ClassVar[TensorLayout]
    NCFDHW: ClassVar[TensorLayout]
    NFCDHW: ClassVar[TensorLayout]
    NFDHWC: ClassVar[TensorLayout]

class Stream:

    def __init__(self) -> None:
        ...

    def __enter__(self) -> None:
        ...

    def __exit__(self, arg0: object | None, arg1: object | None, arg2: object | None, /) -> None:
        ...

    def sync(self) -> None:
        ...

    def wait_stream(self, other: Stream) -> None:
        ...

    def __int__(self) -> int:
        ...

    def __repr__(self) -> str:
        ...

    @property
    def handle(self) -> int:
        ...

    @property
    def id(self) -> int:
        ...

@overload
def as_stream(arg: torch.cuda.Stream, /) -> Stream:
    ...

@overload
def as_stream(arg: cupy.cuda.Stream, /) -> Stream:
    ...

@overload
def as_stream(arg: ctypes.c_void_p, /) -> Stream:
    ...

@overload
def as_stream(arg: int, /) -> Stream:
    ...

class Tensor:

    @overload
    def __init__(self, shape: tuple, dtype: Type, layout: TensorLayout | str | None=None, rowalign: SupportsInt | SupportsIndex=0) -> None:
        ...

    @property
    def layout(self) -> object:
        ...

    @property
    def shape(self) -> tuple:
        ...

    @property
    def dtype(self) -> Type:
        ...

    @property
    def ndim(self) -> int:
        ...

    def cuda(self) -> object:
        ...

    def reshape(self, shape: tuple, layout: TensorLayout | str | None=None) -> Tensor:
        ...

    def __repr__(self) -> str:
        ...

@overload
def as_tensor(buffer: ExternalBuffer, layout: TensorLayout | str | None=None) -> Tensor:
    ...

def reshape(tensor: Tensor, shape: tuple, layout: TensorLayout | str | None=None) -> Tensor:
    ...

class Border:
    __members__: ClassVar[dict[str, Border]]

    def __init__(self, value: SupportsInt | SupportsIndex) -> None:
        ...

    def __eq__(self, other: Any) -> bool:
        ...

    def __ne__(self, other: Any) -> bool:
        ...

    def __hash__(self) -> int:
        ...

    def __index__(self) -> int:
        ...

    def __int__(self) -> int:
        ...

    def __repr__(self) -> str:
        ...

    def __str__(self) -> str:
        ...

    @property
    def name(self) -> str:
        ...

    @property
    def value(self) -> int:
        ...
    CONSTANT: ClassVar[Border]
    REPLICATE: ClassVar[Border]
    REFLECT: ClassVar[Border]
    WRAP: ClassVar[Border]
    REFLECT101: ClassVar[Border]
    CONSTANT_COVERAGE: ClassVar[Border]

class ChannelManip:
    __members__: ClassVar[dict[str, ChannelManip]]

    def __init__(self, value: SupportsInt | SupportsIndex) -> None:
        ...

    def __eq__(self, other: Any) -> bool:
        ...

    def __ne__(self, other: Any) -> bool:
        ...

    def __hash__(self) -> int:
        ...

    def __index__(self) -> int:
        ...

    def __int__(self) -> int:
        ...

    def __repr__(self) -> str:
        ...

    def __str__(self) -> str:
        ...

    @property
    def name(self) -> str:
        ...

    @property
    def value(self) -> int:
        ...
    NO_OP: ClassVar[ChannelManip]
    REVERSE: ClassVar[ChannelManip]

class ColorConversion:
    __members__: ClassVar[dict[str, ColorConversion]]

    def __init__(self, value: SupportsInt | SupportsIndex) -> None:
        ...

    def __eq__(self, other: Any) -> bool:
        ...

    def __ne__(self, other: Any) -> bool:
        ...

    def __hash__(self) -> int:
        ...

    def __index__(self) -> int:
        ...

    def __int__(self) -> int:
        ...

    def __repr__(self) -> str:
        ...

    def __str__(self) -> str:
        ...

    @property
    def name(self) -> str:
        ...

    @property
    def value(self) -> int:
        ...
    BGR2BGRA: ClassVar[ColorConversion]
    RGB2RGBA: ClassVar[ColorConversion]
    BGRA2BGR: ClassVar[ColorConversion]
    RGBA2RGB: ClassVar[ColorConversion]
    BGR2RGBA: ClassVar[ColorConversion]
    RGB2BGRA: ClassVar[ColorConversion]
    RGBA2BGR: ClassVar[ColorConversion]
    BGRA2RGB: ClassVar[ColorConversion]
    BGR2RGB: ClassVar[ColorConversion]
    RGB2BGR: ClassVar[ColorConversion]
    BGRA2RGBA: ClassVar[ColorConversion]
    RGBA2BGRA: ClassVar[ColorConversion]
    BGR2GRAY: ClassVar[ColorConversion]
    RGB2GRAY: ClassVar[ColorConversion]
    GRAY2BGR: ClassVar[ColorConversion]
    GRAY2RGB: ClassVar[ColorConversion]
    GRAY2BGRA: ClassVar[ColorConversion]
    GRAY2RGBA: ClassVar[ColorConversion]
    BGRA2GRAY: ClassVar[ColorConversion]
    RGBA2GRAY: ClassVar[ColorConversion]
    BGR2BGR565: ClassVar[ColorConversion]
    RGB2BGR565: ClassVar[ColorConversion]
    BGR5652BGR: ClassVar[ColorConversion]
    BGR5652RGB: ClassVar[ColorConversion]
    BGRA2BGR565: ClassVar[ColorConversion]
    RGBA2BGR565: ClassVar[ColorConversion]
    BGR5652BGRA: ClassVar[ColorConversion]
    BGR5652RGBA: ClassVar[ColorConversion]
    GRAY2BGR565: ClassVar[ColorConversion]
    BGR5652GRAY: ClassVar[ColorConversion]
    BGR2BGR555: ClassVar[ColorConversion]
    RGB2BGR555: ClassVar[ColorConversion]
    BGR5552BGR: ClassVar[ColorConversion]
    BGR5552RGB: ClassVar[ColorConversion]
    BGRA2BGR555: ClassVar[ColorConversion]
    RGBA2BGR555: ClassVar[ColorConversion]
    BGR5552BGRA: ClassVar[ColorConversion]
    BGR5552RGBA: ClassVar[ColorConversion]
    GRAY2BGR555: ClassVar[ColorConversion]
    BGR5552GRAY: ClassVar[ColorConversion]
    BGR2XYZ: ClassVar[ColorConversion]
    RGB2XYZ: ClassVar[ColorConversion]
    XYZ2BGR: ClassVar[ColorConversion]
    XYZ2RGB: ClassVar[ColorConversion]
    BGR2YCrCb: ClassVar[ColorConversion]
    RGB2YCrCb: ClassVar[ColorConversion]
    YCrCb2BGR: ClassVar[ColorConversion]
    YCrCb2RGB: ClassVar[ColorConversion]
    BGR2HSV: ClassVar[ColorConversion]
    RGB2HSV: ClassVar[ColorConversion]
    BGR2Lab: ClassVar[ColorConversion]
    RGB2Lab: ClassVar[ColorConversion]
    BGR2Luv: ClassVar[ColorConversion]
    RGB2Luv: ClassVar[ColorConversion]
    BGR2HLS: ClassVar[ColorConversion]
    RGB2HLS: ClassVar[ColorConversion]
    HSV2BGR: ClassVar[ColorConversion]
    HSV2RGB: ClassVar[ColorConversion]
    Lab2BGR: ClassVar[ColorConversion]
    Lab2RGB: ClassVar[ColorConversion]
    Luv2BGR: ClassVar[ColorConversion]
    Luv2RGB: ClassVar[ColorConversion]
    HLS2BGR: ClassVar[ColorConversion]
    HLS2RGB: ClassVar[ColorConversion]
    BGR2HSV_FULL: ClassVar[ColorConversion]
    RGB2HSV_FULL: ClassVar[ColorConversion]
    BGR2HLS_FULL: ClassVar[ColorConversion]
    RGB2HLS_FULL: ClassVar[ColorConversion]
    HSV2BGR_FULL: ClassVar[ColorConversion]
    HSV2RGB_FULL: ClassVar[ColorConversion]
    HLS2BGR_FULL: ClassVar[ColorConversion]
    HLS2RGB_FULL: ClassVar[ColorConversion]
    LBGR2Lab: ClassVar[ColorConversion]
    LRGB2Lab: ClassVar[ColorConversion]
    LBGR2Luv: ClassVar[ColorConversion]
    LRGB2Luv: ClassVar[ColorConversion]
    Lab2LBGR: ClassVar[ColorConversion]
    Lab2LRGB: ClassVar[ColorConversion]
    Luv2LBGR: ClassVar[ColorConversion]
    Luv2LRGB: ClassVar[ColorConversion]
    BGR2YUV: ClassVar[ColorConversion]
    RGB2YUV: ClassVar[ColorConversion]
    YUV2BGR: ClassVar[ColorConversion]
    YUV2RGB: ClassVar[ColorConversion]
    YUV2RGB_NV12: ClassVar[ColorConversion]
    YUV2BGR_NV12: ClassVar[ColorConversion]
    YUV2RGB_NV21: ClassVar[ColorConversion]
    YUV2BGR_NV21: ClassVar[ColorConversion]
    YUV420sp2RGB: ClassVar[ColorConversion]
    YUV420sp2BGR: ClassVar[ColorConversion]
    YUV2RGBA_NV12: ClassVar[ColorConversion]
    YUV2BGRA_NV12: ClassVar[ColorConversion]
    YUV2RGBA_NV21: ClassVar[ColorConversion]
    YUV2BGRA_NV21: ClassVar[ColorConversion]
    YUV420sp2RGBA: ClassVar[ColorConversion]
    YUV420sp2BGRA: ClassVar[ColorConversion]
    YUV2RGB_YV12: ClassVar[ColorConversion]
    YUV2BGR_YV12: ClassVar[ColorConversion]
    YUV2RGB_IYUV: ClassVar[ColorConversion]
    YUV2BGR_IYUV: ClassVar[ColorConversion]
    YUV2RGB_I420: ClassVar[ColorConversion]
    YUV2BGR_I420: ClassVar[ColorConversion]
    YUV420p2RGB: ClassVar[ColorConversion]
    YUV420p2BGR: ClassVar[ColorConversion]
    YUV2RGBA_YV12: ClassVar[ColorConversion]
    YUV2BGRA_YV12: ClassVar[ColorConversion]
    YUV2RGBA_IYUV: ClassVar[ColorConversion]
    YUV2BGRA_IYUV: ClassVar[ColorConversion]
    YUV2RGBA_I420: ClassVar[ColorConversion]
    YUV2BGRA_I420: ClassVar[ColorConversion]
    YUV420p2RGBA: ClassVar[ColorConversion]
    YUV420p2BGRA: ClassVar[ColorConversion]
    YUV2GRAY_420: ClassVar[ColorConversion]
    YUV2GRAY_NV21: ClassVar[ColorConversion]
    YUV2GRAY_NV12: ClassVar[ColorConversion]
    YUV2GRAY_YV12: ClassVar[ColorConversion]
    YUV2GRAY_IYUV: ClassVar[ColorConversion]
    YUV2GRAY_I420: ClassVar[ColorConversion]
    YUV420sp2GRAY: ClassVar[ColorConversion]
    YUV420p2GRAY: ClassVar[ColorConversion]
    YUV2RGB_UYVY: ClassVar[ColorConversion]
    YUV2BGR_UYVY: ClassVar[ColorConversion]
    YUV2RGB_Y422: ClassVar[ColorConversion]
    YUV2BGR_Y422: ClassVar[ColorConversion]
    YUV2RGB_UYNV: ClassVar[ColorConversion]
    YUV2BGR_UYNV: ClassVar[ColorConversion]
    YUV2RGBA_UYVY: ClassVar[ColorConversion]
    YUV2BGRA_UYVY: ClassVar[ColorConversion]
    YUV2RGBA_Y422: ClassVar[ColorConversion]
    YUV2BGRA_Y422: ClassVar[ColorConversion]
    YUV2RGBA_UYNV: ClassVar[ColorConversion]
    YUV2BGRA_UYNV: ClassVar[ColorConversion]
    YUV2RGB_YUY2: ClassVar[ColorConversion]
    YUV2BGR_YUY2: ClassVar[ColorConversion]
    YUV2RGB_YVYU: ClassVar[ColorConversion]
    YUV2BGR_YVYU: ClassVar[ColorConversion]
    YUV2RGB_YUYV: ClassVar[ColorConversion]
    YUV2BGR_YUYV: ClassVar[ColorConversion]
    YUV2RGB_YUNV: ClassVar[ColorConversion]
    YUV2BGR_YUNV: ClassVar[ColorConversion]
    YUV2RGBA_YUY2: ClassVar[ColorConversion]
    YUV2BGRA_YUY2: ClassVar[ColorConversion]
    YUV2RGBA_YVYU: ClassVar[ColorConversion]
    YUV2BGRA_YVYU: ClassVar[ColorConversion]
    YUV2RGBA_YUYV: ClassVar[ColorConversion]
    YUV2BGRA_YUYV: ClassVar[ColorConversion]
    YUV2RGBA_YUNV: ClassVar[ColorConversion]
    YUV2BGRA_YUNV: ClassVar[ColorConversion]
    YUV2GRAY_UYVY: ClassVar[ColorConversion]
    YUV2GRAY_YUY2: ClassVar[ColorConversion]
    YUV2GRAY_Y422: ClassVar[ColorConversion]
    YUV2GRAY_UYNV: ClassVar[ColorConversion]
    YUV2GRAY_YVYU: ClassVar[ColorConversion]
    YUV2GRAY_YUYV: ClassVar[ColorConversion]
    YUV2GRAY_YUNV: ClassVar[ColorConversion]
    RGBA2mRGBA: ClassVar[ColorConversion]
    mRGBA2RGBA: ClassVar[ColorConversion]
    RGB2YUV_I420: ClassVar[ColorConversion]
    BGR2YUV_I420: ClassVar[ColorConversion]
    RGB2YUV_IYUV: ClassVar[ColorConversion]
    BGR2YUV_IYUV: ClassVar[ColorConversion]
    RGBA2YUV_I420: ClassVar[ColorConversion]
    BGRA2YUV_I420: ClassVar[ColorConversion]
    RGBA2YUV_IYUV: ClassVar[ColorConversion]
    BGRA2YUV_IYUV: ClassVar[ColorConversion]
    RGB2YUV_YV12: ClassVar[ColorConversion]
    BGR2YUV_YV12: ClassVar[ColorConversion]
    RGBA2YUV_YV12: ClassVar[ColorConversion]
    BGRA2YUV_YV12: ClassVar[ColorConversion]
    BayerBG2BGR: ClassVar[ColorConversion]
    BayerGB2BGR: ClassVar[ColorConversion]
    BayerRG2BGR: ClassVar[ColorConversion]
    BayerGR2BGR: ClassVar[ColorConversion]
    BayerBG2RGB: ClassVar[ColorConversion]
    BayerGB2RGB: ClassVar[ColorConversion]
    BayerRG2RGB: ClassVar[ColorConversion]
    BayerGR2RGB: ClassVar[ColorConversion]
    BayerBG2GRAY: ClassVar[ColorConversion]
    BayerGB2GRAY: ClassVar[ColorConversion]
    BayerRG2GRAY: ClassVar[ColorConversion]
    BayerGR2GRAY: ClassVar[ColorConversion]
    BayerBG2BGR_VNG: ClassVar[ColorConversion]
    BayerGB2BGR_VNG: ClassVar[ColorConversion]
    BayerRG2BGR_VNG: ClassVar[ColorConversion]
    BayerGR2BGR_VNG: ClassVar[ColorConversion]
    BayerBG2RGB_VNG: ClassVar[ColorConversion]
    BayerGB2RGB_VNG: ClassVar[ColorConversion]
    BayerRG2RGB_VNG: ClassVar[ColorConversion]
    BayerGR2RGB_VNG: ClassVar[ColorConversion]
    BayerBG2BGR_EA: ClassVar[ColorConversion]
    BayerGB2BGR_EA: ClassVar[ColorConversion]
    BayerRG2BGR_EA: ClassVar[ColorConversion]
    BayerGR2BGR_EA: ClassVar[ColorConversion]
    BayerBG2RGB_EA: ClassVar[ColorConversion]
    BayerGB2RGB_EA: ClassVar[ColorConversion]
    BayerRG2RGB_EA: ClassVar[ColorConversion]
    BayerGR2RGB_EA: ClassVar[ColorConversion]
    RGB2YUV_NV12: ClassVar[ColorConversion]
    BGR2YUV_NV12: ClassVar[ColorConversion]
    RGB2YUV_NV21: ClassVar[ColorConversion]
    RGB2YUV420sp: ClassVar[ColorConversion]
    BGR2YUV_NV21: ClassVar[ColorConversion]
    BGR2YUV420sp: ClassVar[ColorConversion]
    RGBA2YUV_NV12: ClassVar[ColorConversion]
    BGRA2YUV_NV12: ClassVar[ColorConversion]
    RGBA2YUV_NV21: ClassVar[ColorConversion]
    RGBA2YUV420sp: ClassVar[ColorConversion]
    BGRA2YUV_NV21: ClassVar[ColorConversion]
    BGRA2YUV420sp: ClassVar[ColorConversion]
    RGB2GRAY_TV: ClassVar[ColorConversion]
    BGR2GRAY_TV: ClassVar[ColorConversion]
    RGBA2GRAY_TV: ClassVar[ColorConversion]
    BGRA2GRAY_TV: ClassVar[ColorConversion]

class Interp:
    __members__: ClassVar[dict[str, Interp]]

    def __init__(self, value: SupportsInt | SupportsIndex) -> None:
        ...

    def __eq__(self, other: Any) -> bool:
        ...

    def __ne__(self, other: Any) -> bool:
        ...

    def __hash__(self) -> int:
        ...

    def __index__(self) -> int:
        ...

    def __int__(self) -> int:
        ...

    def __repr__(self) -> str:
        ...

    def __str__(self) -> str:
        ...

    @property
    def name(self) -> str:
        ...

    @property
    def value(self) -> int:
        ...
    NEAREST: ClassVar[Interp]
    NEAREST_FLOOR: ClassVar[Interp]
    LINEAR: ClassVar[Interp]
    CUBIC: ClassVar[Interp]
    AREA: ClassVar[Interp]
    LANCZOS: ClassVar[Interp]
    WARP_INVERSE_MAP: ClassVar[Interp]
    GAUSSIAN: ClassVar[Interp]
    HAMMING: ClassVar[Interp]
    BOX: ClassVar[Interp]

    def __or__(self, arg: Interp, /) -> int:
        ...

class Round:
    __members__: ClassVar[dict[str, Round]]

    def __init__(self, value: SupportsInt | SupportsIndex) -> None:
        ...

    def __eq__(self, other: Any) -> bool:
        ...

    def __ne__(self, other: Any) -> bool:
        ...

    def __hash__(self) -> int:
        ...

    def __index__(self) -> int:
        ...

    def __int__(self) -> int:
        ...

    def __repr__(self) -> str:
        ...

    def __str__(self) -> str:
        ...

    @property
    def name(self) -> str:
        ...

    @property
    def value(self) -> int:
        ...
    NEAREST: ClassVar[Round]
    TRUNCATE: ClassVar[Round]
    NEAREST_WRAP: ClassVar[Round]
    TRUNCATE_WRAP: ClassVar[Round]

class NormalizeFlags:
    __members__: ClassVar[dict[str, NormalizeFlags]]

    def __init__(self, value: SupportsInt | SupportsIndex) -> None:
        ...

    def __eq__(self, other: Any) -> bool:
        ...

    def __ne__(self, other: Any) -> bool:
        ...

    def __hash__(self) -> int:
        ...

    def __index__(self) -> int:
        ...

    def __int__(self) -> int:
        ...

    def __repr__(self) -> str:
        ...

    def __str__(self) -> str:
        ...

    @property
    def name(self) -> str:
        ...

    @property
    def value(self) -> int:
        ...
    SCALE_IS_STDDEV: ClassVar[NormalizeFlags]

@overload
def flip(src: Tensor, flipCode: SupportsInt | SupportsIndex, *, stream: Stream | None=None) -> Tensor:
    ...

@overload
def flip_into(dst: Tensor, src: Tensor, flipCode: SupportsInt | SupportsIndex, *, stream: Stream | None=None) -> Tensor:
    ...
