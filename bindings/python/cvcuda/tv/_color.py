"""rgb_to_grayscale (torchvision v2 name, arguments and result, on torch tensors, on torch's current stream)."""

from typing import Any

from .._errors import NotSupportedError
from .._ops_color import cvtcolor_into
from .._types import ColorConversion
from ._image import Image, wrap

__all__ = ["rgb_to_grayscale"]

_GRAY_DTYPES = ("uint8", "uint16", "float16", "float32")


def rgb_to_grayscale(inpt: Any, num_output_channels: int = 1) -> Any:
    """torchvision's ``rgb_to_grayscale`` of RGB images (..., 3, H, W): ``0.2989 R + 0.587 G + 0.114 B`` computed
    exactly as torchvision computes it on the GPU (cvcuda.cvtcolor with ``ColorConversion.RGB2GRAY_TV``: PyTorch's
    float32 steps, float16 rounded after each step, integers truncated, so white uint8 is 254; OpenCV's RGB2GRAY,
    0.299 and rounding, differs), on torch's current stream, without a host sync. Planar images are read through
    their strides, channels_last ones as NHWC; the result is (..., 1, H, W) contiguous, and for
    ``num_output_channels=3`` that tensor expanded to 3 channels (a stride-0 view, as torchvision's). A 1-channel
    image is cloned (1) or repeated (3) by torch, as torchvision does.
    dtypes: uint8, uint16, float16, float32. Differs: other dtypes raise :class:`cvcuda.NotSupportedError`; channel
    counts other than 1 and 3 raise ValueError (torchvision: its unpacking error).
    :raises ValueError: ``num_output_channels`` not 1 or 3 (torchvision's message); fewer than 3 dimensions.
    :raises TypeError: ``inpt`` not a CUDA torch tensor.
    """
    function = "cvcuda.tv.rgb_to_grayscale"
    if num_output_channels not in (1, 3) or isinstance(num_output_channels, bool):
        raise ValueError(f"{function}: num_output_channels must be 1 or 3, got {num_output_channels}.")
    img = Image(function, inpt)
    if img.c == 1:
        t = img.x
        out = t.clone() if num_output_channels == 1 else t.repeat(1, 3, 1, 1)
        return img.finish(out)
    if img.c != 3:
        raise ValueError(f"{function}: inpt has {img.c} channels (shape {img.shape}); RGB images have 3")
    if str(img.x.dtype).replace("torch.", "") not in _GRAY_DTYPES:
        raise NotSupportedError(f"{function}: dtype {img.x.dtype} is not supported (cvcuda.tv takes "
                                f"{', '.join(_GRAY_DTYPES)} here)")
    b = img.x.shape[0]
    gray = img.torch.empty((b, 1, img.h, img.w), dtype=img.x.dtype, device=img.x.device)
    if gray.numel():
        cvtcolor_into(wrap(gray.permute(0, 2, 3, 1), "NHWC"), wrap(img.x.permute(0, 2, 3, 1), "NHWC"),
                      ColorConversion.RGB2GRAY_TV, stream=img.stream)
    if num_output_channels == 3:
        gray = gray.expand(b, 3, img.h, img.w)
    return img.finish(gray)
