"""Value types and enumerations of the reference library's Python API (CV-CUDA 0.19), by its names: the element
types (:class:`Type`, whose members are numpy dtypes there too), :class:`TensorLayout`, :class:`RectI`, and the enum
classes operators take (:class:`Interp`, :class:`Border`, :class:`ColorConversion`, :class:`NormalizeFlags`,
:class:`ChannelManip`, :class:`Round`).

The enums are :class:`enum.IntEnum`: a member has ``.name`` and ``.value``, ``int(member)`` and ``__index__``, is
hashable and compares equal to its value, as the reference's enums do. Their values are the reference's own (its C
enums: NVCV's ``NVCVInterpolationType``, ``NVCVBorderType``, ``NVCVColorConversionCode``, which for colour conversions
are OpenCV's ``cv::ColorConversionCodes``), so ``int(cvcuda.Interp.LINEAR)`` is the same number in both libraries.
Exceptions, numbered here without a published source to copy: ``Interp.NEAREST_FLOOR``, ``GAUSSIAN``, ``HAMMING``,
``BOX``, ``Border.CONSTANT_COVERAGE``, the ``Round`` members and ``ColorConversion.*2GRAY_TV``; code that names
members, as the reference's documentation does, is unaffected.
Operators translate members into this library's C enums (``CV_INTERP_...``, ``CV_BORDER_MODE_...``,
``CV_COLOR_...``): those numbers are not the same, so pass members (or the reference's numbers), never C values.
"""

import enum
from typing import Any

import numpy

from ._integers import integer

__all__ = ["Border", "ChannelManip", "ColorConversion", "Interp", "NormalizeFlags", "RectI", "Round", "TensorLayout",
           "Type"]


class Type:
    """Element types by the reference library's names; each member is the numpy dtype (``Type.U8 is
    numpy.dtype(numpy.uint8)``), and anything that takes a dtype here also takes these. Only the types this library
    supports are listed (the reference's complex and multi-channel ``_2U8``-style types are not)."""

    U8 = numpy.dtype(numpy.uint8)
    S8 = numpy.dtype(numpy.int8)
    U16 = numpy.dtype(numpy.uint16)
    S16 = numpy.dtype(numpy.int16)
    U32 = numpy.dtype(numpy.uint32)
    S32 = numpy.dtype(numpy.int32)
    U64 = numpy.dtype(numpy.uint64)
    S64 = numpy.dtype(numpy.int64)
    F16 = numpy.dtype(numpy.float16)
    F32 = numpy.dtype(numpy.float32)
    F64 = numpy.dtype(numpy.float64)


class TensorLayout(str):
    """A tensor layout: one upper-case label per dimension from N, C, H, W, D, F (``TensorLayout("NHWC")``), as the
    reference library's class of that name, with its named members (``TensorLayout.NHWC``; ``TensorLayout.NONE`` is
    no layout). It is a ``str``, so it equals and hashes as its labels (``TensorLayout.NHWC == "NHWC"``) and every
    function taking a layout takes either. The labels are checked where a layout is used (C's message names the rule).
    Raises ``TypeError`` for a non-str argument."""

    __slots__ = ()

    def __new__(cls, layout: str) -> "TensorLayout":
        if not isinstance(layout, str):
            raise TypeError(f"cvcuda.TensorLayout: expected a str such as 'NHWC', got {type(layout).__name__}")
        return super().__new__(cls, str.__str__(layout))

    def __repr__(self) -> str:
        return f"cvcuda.TensorLayout({str.__repr__(self)})"


for _labels in ("N C F D H W WC CW NW NWC NCW HW NHW FHW NFHW CHW NCHW HWC NHWC CFHW FCHW FHWC NCFHW NFCHW NFHWC DHW "
                "NDHW CDHW DHWC NCDHW NDHWC FDHW NFDHW CFDHW FCDHW FDHWC NCFDHW NFCDHW NFDHWC").split():
    setattr(TensorLayout, _labels, TensorLayout(_labels))
TensorLayout.NONE = TensorLayout("")
del _labels


class RectI:
    """An integer rectangle (the reference's ``RectI``): ``x``, ``y`` of the top-left corner, ``width``, ``height``,
    in pixels. ``RectI()`` is all zeros. Values follow the package's integer rule (cvcuda._integers); the operator
    using the rectangle checks its range."""

    __slots__ = ("_x", "_y", "_width", "_height")

    def __init__(self, x: Any = 0, y: Any = 0, width: Any = 0, height: Any = 0) -> None:
        self.x, self.y, self.width, self.height = x, y, width, height

    def _field(name: str):  # builds the four properties below
        slot = "_" + name

        def get(self) -> int:
            return getattr(self, slot)

        def set(self, value: Any) -> None:
            setattr(self, slot, integer(value, f"cvcuda.RectI: {name}"))

        return property(get, set, doc=f"{name} in pixels")

    x = _field("x")
    y = _field("y")
    width = _field("width")
    height = _field("height")
    del _field

    def __eq__(self, other: Any) -> bool:
        if type(other) is not RectI:
            return NotImplemented
        return (self.x, self.y, self.width, self.height) == (other.x, other.y, other.width, other.height)

    __hash__ = None

    def __repr__(self) -> str:
        return f"cvcuda.RectI(x={self.x}, y={self.y}, width={self.width}, height={self.height})"


def _enum(name: str, doc: str, members: dict) -> Any:
    cls = enum.IntEnum(name, members, module=__name__)
    cls.__doc__ = doc
    return cls


Interp = _enum("Interp", "Interpolation methods (the reference's names and values; NEAREST samples the pixel covering "
               "the destination centre as OpenCV's INTER_NEAREST; NEAREST_FLOOR is torchvision's legacy nearest). "
               "Members combine with | into an int, as there (WARP_INVERSE_MAP is a flag).",
               dict(NEAREST=0, NEAREST_FLOOR=20, LINEAR=1, CUBIC=2, AREA=3, LANCZOS=4, WARP_INVERSE_MAP=16,
                    GAUSSIAN=19, HAMMING=17, BOX=18))

Border = _enum("Border", "Border modes (OpenCV's BORDER_* conventions; the reference's names and values).",
               dict(CONSTANT=0, REPLICATE=1, REFLECT=2, WRAP=3, REFLECT101=4, CONSTANT_COVERAGE=5))

ChannelManip = _enum("ChannelManip", "Channel manipulation of colour conversions: NO_OP, or REVERSE the channel order.",
                     dict(NO_OP=0, REVERSE=1))

NormalizeFlags = _enum("NormalizeFlags", "Flags of normalize: SCALE_IS_STDDEV divides by the scale tensor as a "
                       "standard deviation (1 / sqrt(scale^2 + epsilon)) instead of multiplying by it.",
                       dict(SCALE_IS_STDDEV=1))

Round = _enum("Round", "Rounding of conversions to integer types: to nearest (ties to even) or toward zero, "
              "saturating, or the _WRAP variants reducing modulo the destination range.",
              dict(NEAREST=0, TRUNCATE=1, NEAREST_WRAP=2, TRUNCATE_WRAP=3))

ColorConversion = _enum("ColorConversion", "Colour conversion codes: OpenCV's cv::COLOR_* names and numbers (as the "
                        "reference's); the *_TV members convert to grayscale with torchvision's rounding.", dict(
    BGR2BGRA=0, RGB2RGBA=0, BGRA2BGR=1, RGBA2RGB=1, BGR2RGBA=2, RGB2BGRA=2, RGBA2BGR=3, BGRA2RGB=3, BGR2RGB=4,
    RGB2BGR=4, BGRA2RGBA=5, RGBA2BGRA=5, BGR2GRAY=6, RGB2GRAY=7, GRAY2BGR=8, GRAY2RGB=8, GRAY2BGRA=9,
    GRAY2RGBA=9, BGRA2GRAY=10, RGBA2GRAY=11, BGR2BGR565=12, RGB2BGR565=13, BGR5652BGR=14, BGR5652RGB=15,
    BGRA2BGR565=16, RGBA2BGR565=17, BGR5652BGRA=18, BGR5652RGBA=19, GRAY2BGR565=20, BGR5652GRAY=21,
    BGR2BGR555=22, RGB2BGR555=23, BGR5552BGR=24, BGR5552RGB=25, BGRA2BGR555=26, RGBA2BGR555=27, BGR5552BGRA=28,
    BGR5552RGBA=29, GRAY2BGR555=30, BGR5552GRAY=31, BGR2XYZ=32, RGB2XYZ=33, XYZ2BGR=34, XYZ2RGB=35, BGR2YCrCb=36,
    RGB2YCrCb=37, YCrCb2BGR=38, YCrCb2RGB=39, BGR2HSV=40, RGB2HSV=41, BGR2Lab=44, RGB2Lab=45, BGR2Luv=50,
    RGB2Luv=51, BGR2HLS=52, RGB2HLS=53, HSV2BGR=54, HSV2RGB=55, Lab2BGR=56, Lab2RGB=57, Luv2BGR=58, Luv2RGB=59,
    HLS2BGR=60, HLS2RGB=61, BGR2HSV_FULL=66, RGB2HSV_FULL=67, BGR2HLS_FULL=68, RGB2HLS_FULL=69, HSV2BGR_FULL=70,
    HSV2RGB_FULL=71, HLS2BGR_FULL=72, HLS2RGB_FULL=73, LBGR2Lab=74, LRGB2Lab=75, LBGR2Luv=76, LRGB2Luv=77,
    Lab2LBGR=78, Lab2LRGB=79, Luv2LBGR=80, Luv2LRGB=81, BGR2YUV=82, RGB2YUV=83, YUV2BGR=84, YUV2RGB=85,
    YUV2RGB_NV12=90, YUV2BGR_NV12=91, YUV2RGB_NV21=92, YUV2BGR_NV21=93, YUV420sp2RGB=92, YUV420sp2BGR=93,
    YUV2RGBA_NV12=94, YUV2BGRA_NV12=95, YUV2RGBA_NV21=96, YUV2BGRA_NV21=97, YUV420sp2RGBA=96, YUV420sp2BGRA=97,
    YUV2RGB_YV12=98, YUV2BGR_YV12=99, YUV2RGB_IYUV=100, YUV2BGR_IYUV=101, YUV2RGB_I420=100, YUV2BGR_I420=101,
    YUV420p2RGB=98, YUV420p2BGR=99, YUV2RGBA_YV12=102, YUV2BGRA_YV12=103, YUV2RGBA_IYUV=104, YUV2BGRA_IYUV=105,
    YUV2RGBA_I420=104, YUV2BGRA_I420=105, YUV420p2RGBA=102, YUV420p2BGRA=103, YUV2GRAY_420=106,
    YUV2GRAY_NV21=106, YUV2GRAY_NV12=106, YUV2GRAY_YV12=106, YUV2GRAY_IYUV=106, YUV2GRAY_I420=106,
    YUV420sp2GRAY=106, YUV420p2GRAY=106, YUV2RGB_UYVY=107, YUV2BGR_UYVY=108, YUV2RGB_Y422=107, YUV2BGR_Y422=108,
    YUV2RGB_UYNV=107, YUV2BGR_UYNV=108, YUV2RGBA_UYVY=111, YUV2BGRA_UYVY=112, YUV2RGBA_Y422=111,
    YUV2BGRA_Y422=112, YUV2RGBA_UYNV=111, YUV2BGRA_UYNV=112, YUV2RGB_YUY2=115, YUV2BGR_YUY2=116,
    YUV2RGB_YVYU=117, YUV2BGR_YVYU=118, YUV2RGB_YUYV=115, YUV2BGR_YUYV=116, YUV2RGB_YUNV=115, YUV2BGR_YUNV=116,
    YUV2RGBA_YUY2=119, YUV2BGRA_YUY2=120, YUV2RGBA_YVYU=121, YUV2BGRA_YVYU=122, YUV2RGBA_YUYV=119,
    YUV2BGRA_YUYV=120, YUV2RGBA_YUNV=119, YUV2BGRA_YUNV=120, YUV2GRAY_UYVY=123, YUV2GRAY_YUY2=124,
    YUV2GRAY_Y422=123, YUV2GRAY_UYNV=123, YUV2GRAY_YVYU=124, YUV2GRAY_YUYV=124, YUV2GRAY_YUNV=124,
    RGBA2mRGBA=125, mRGBA2RGBA=126, RGB2YUV_I420=127, BGR2YUV_I420=128, RGB2YUV_IYUV=127, BGR2YUV_IYUV=128,
    RGBA2YUV_I420=129, BGRA2YUV_I420=130, RGBA2YUV_IYUV=129, BGRA2YUV_IYUV=130, RGB2YUV_YV12=131,
    BGR2YUV_YV12=132, RGBA2YUV_YV12=133, BGRA2YUV_YV12=134, BayerBG2BGR=46, BayerGB2BGR=47, BayerRG2BGR=48,
    BayerGR2BGR=49, BayerBG2RGB=48, BayerGB2RGB=49, BayerRG2RGB=46, BayerGR2RGB=47, BayerBG2GRAY=86,
    BayerGB2GRAY=87, BayerRG2GRAY=88, BayerGR2GRAY=89, BayerBG2BGR_VNG=62, BayerGB2BGR_VNG=63,
    BayerRG2BGR_VNG=64, BayerGR2BGR_VNG=65, BayerBG2RGB_VNG=64, BayerGB2RGB_VNG=65, BayerRG2RGB_VNG=62,
    BayerGR2RGB_VNG=63, BayerBG2BGR_EA=135, BayerGB2BGR_EA=136, BayerRG2BGR_EA=137, BayerGR2BGR_EA=138,
    BayerBG2RGB_EA=137, BayerGB2RGB_EA=138, BayerRG2RGB_EA=135, BayerGR2RGB_EA=136, RGB2YUV_NV12=140,
    BGR2YUV_NV12=141, RGB2YUV_NV21=142, RGB2YUV420sp=142, BGR2YUV_NV21=143, BGR2YUV420sp=143, RGBA2YUV_NV12=144,
    BGRA2YUV_NV12=145, RGBA2YUV_NV21=146, RGBA2YUV420sp=146, BGRA2YUV_NV21=147, BGRA2YUV420sp=147,
    RGB2GRAY_TV=148, BGR2GRAY_TV=149, RGBA2GRAY_TV=150, BGRA2GRAY_TV=151,
))
