# Excerpt of CV-CUDA 0.19's typed Python API (cvcuda/__init__.pyi of the cvcuda-cu13 0.19.0 wheel, Apache-2.0),
# docstrings removed: the names and signatures that bench/ops/*.py call, for `bench/run.py --dry-run`, which checks
# every row's call against it without a GPU. Our package mirrors these; the GPU run calls both libraries.
from typing import Any, ClassVar, Sequence, SupportsIndex, SupportsInt, overload
import numpy

class Type:
    U8: ClassVar[numpy.dtype[numpy.uint8]]
    U16: ClassVar[numpy.dtype[numpy.uint16]]
    S16: ClassVar[numpy.dtype[numpy.int16]]
    F16: ClassVar[numpy.dtype[numpy.float16]]
    F32: ClassVar[numpy.dtype[numpy.float32]]

class RectI:

    @overload
    def __init__(self) -> None:
        ...

    @overload
    def __init__(self, x: SupportsInt | SupportsIndex, y: SupportsInt | SupportsIndex, width: SupportsInt | SupportsIndex, height: SupportsInt | SupportsIndex) -> None:
        ...

class Stream:

    def __init__(self) -> None:
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

class Tensor(Container):

    def cuda(self) -> object:
        ...

@overload
def as_tensor(buffer: ExternalBuffer, layout: TensorLayout | str | None=None) -> Tensor:
    ...

@overload
def as_tensor(image: Image) -> Tensor:
    ...

class Border:
    __members__: ClassVar[dict[str, Border]]
    CONSTANT: ClassVar[Border]
    REPLICATE: ClassVar[Border]
    REFLECT: ClassVar[Border]
    WRAP: ClassVar[Border]
    REFLECT101: ClassVar[Border]
    CONSTANT_COVERAGE: ClassVar[Border]

class ChannelManip:
    __members__: ClassVar[dict[str, ChannelManip]]
    NO_OP: ClassVar[ChannelManip]
    REVERSE: ClassVar[ChannelManip]

class ColorConversion:
    BGR2RGB: ClassVar[ColorConversion]
    RGB2BGR: ClassVar[ColorConversion]
    RGB2GRAY: ClassVar[ColorConversion]

class Interp:
    __members__: ClassVar[dict[str, Interp]]
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

class Round:
    __members__: ClassVar[dict[str, Round]]
    NEAREST: ClassVar[Round]
    TRUNCATE: ClassVar[Round]
    NEAREST_WRAP: ClassVar[Round]
    TRUNCATE_WRAP: ClassVar[Round]

@overload
def resize_crop_convert_reformat_into(dst: Tensor, src: Tensor, resize_dim: tuple[SupportsInt | SupportsIndex, SupportsInt | SupportsIndex], interp: Interp, cropPos: tuple[SupportsInt | SupportsIndex, SupportsInt | SupportsIndex], *, manip: ChannelManip=..., scale: float=1.0, offset: float=0.0, srcCast: bool=True, stream: Stream | None=None) -> Tensor:
    ...

@overload
def resize_crop_convert_reformat_into(dst: Tensor, src: ImageBatchVarShape, resize_dim: tuple[SupportsInt | SupportsIndex, SupportsInt | SupportsIndex], interp: Interp, cropPos: tuple[SupportsInt | SupportsIndex, SupportsInt | SupportsIndex], *, manip: ChannelManip=..., scale: float=1.0, offset: float=0.0, srcCast: bool=True, stream: Stream | None=None) -> Tensor:
    ...

def reformat_into(dst: Tensor, src: Tensor, *, stream: Stream | None=None) -> Tensor:
    ...

@overload
def resize_into(dst: Tensor, src: Tensor, interp: Interp=..., *, stream: Stream | None=None) -> Tensor:
    ...

@overload
def resize_into(dst: ImageBatchVarShape, src: ImageBatchVarShape, interp: Interp=..., *, stream: Stream | None=None) -> ImageBatchVarShape:
    ...

def customcrop_into(dst: Tensor, src: Tensor, rect: RectI, *, stream: Stream | None=None) -> Tensor:
    ...

class NormalizeFlags:
    __members__: ClassVar[dict[str, NormalizeFlags]]
    SCALE_IS_STDDEV: ClassVar[NormalizeFlags]

@overload
def normalize_into(dst: Tensor, src: Tensor, base: Tensor, scale: Tensor, flags: SupportsInt | SupportsIndex | None=None, *, globalscale: float=1.0, globalshift: float=0.0, epsilon: float=0.0, stream: Stream | None=None) -> Tensor:
    ...

@overload
def normalize_into(dst: ImageBatchVarShape, src: ImageBatchVarShape, base: Tensor, scale: Tensor, flags: SupportsInt | SupportsIndex | None=None, *, globalscale: float=1.0, globalshift: float=0.0, epsilon: float=0.0, stream: Stream | None=None) -> ImageBatchVarShape:
    ...

@overload
def normalize_into(dst: Tensor, src: Tensor, base: Sequence[float], scale: Sequence[float], flags: SupportsInt | SupportsIndex | None=None, *, globalscale: float=1.0, globalshift: float=0.0, epsilon: float=0.0, stream: Stream | None=None) -> Tensor:
    ...

def convertto_into(dst: Tensor, src: Tensor, scale: float=1, offset: float=0, *, round: Round=..., stream: Stream | None=None) -> Tensor:
    ...

@overload
def copymakeborder_into(dst: Tensor, src: Tensor, border_mode: Border=..., border_value: Sequence[float]=[], *, top: SupportsInt | SupportsIndex, left: SupportsInt | SupportsIndex, stream: Stream | None=None) -> Tensor:
    ...

@overload
def copymakeborder_into(dst: ImageBatchVarShape, src: ImageBatchVarShape, border_mode: Border=..., border_value: Sequence[float]=[], *, top: Tensor, left: Tensor, stream: Stream | None=None) -> ImageBatchVarShape:
    ...

@overload
def flip(src: Tensor, flipCode: SupportsInt | SupportsIndex, *, stream: Stream | None=None) -> Tensor:
    ...

@overload
def flip(src: ImageBatchVarShape, flipCode: Tensor, *, stream: Stream | None=None) -> ImageBatchVarShape:
    ...

@overload
def flip_into(dst: Tensor, src: Tensor, flipCode: SupportsInt | SupportsIndex, *, stream: Stream | None=None) -> Tensor:
    ...

@overload
def flip_into(dst: ImageBatchVarShape, src: ImageBatchVarShape, flipCode: Tensor, *, stream: Stream | None=None) -> ImageBatchVarShape:
    ...

@overload
def cvtcolor_into(dst: Tensor, src: Tensor, code: ColorConversion, *, stream: Stream | None=None) -> Tensor:
    ...

@overload
def cvtcolor_into(dst: ImageBatchVarShape, src: ImageBatchVarShape, code: ColorConversion, *, stream: Stream | None=None) -> ImageBatchVarShape:
    ...
