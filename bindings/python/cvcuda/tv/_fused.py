"""Compose's fused step: torchvision v2's Resize -> CenterCrop -> ToDtype(torch.float32, scale=True) -> Normalize as
one cvcuda.tvresize_crop_convert_reformat_into pass (only the crop's pixels are interpolated; the resized image,
the uint8 crop and the unnormalised floats are never stored), with torchvision's values: the resized uint8 rounded
as torchvision rounds it, then its product by 1/255, its subtraction of the mean and its division by the std, each
rounded once in float32. Images the pass does not take run the four functions one after the other."""

import sys
from typing import Any, Callable, List, Optional

from .._ops_resize import _tv_output_size, tvresize_crop_convert_reformat_into
from ._geometry import _resize_mode, center_box
from ._image import Image, hw_pair
from ._misc import _constants, _round_to

__all__ = ["FusedPreprocess", "fused_preprocess"]

_RESIZE, _CROP, _TO_DTYPE, _NORMALIZE = "cvcuda.tv.resize", "cvcuda.tv.center_crop", "cvcuda.tv.to_dtype", "cvcuda.tv.normalize"


class FusedPreprocess:
    """One step for the four transforms; ``unfused`` runs them one by one (their cvcuda.tv functions)."""

    def __init__(self, resize: Any, crop: Any, normalize: Any, unfused: List[Callable]) -> None:
        self.size, self.interpolation, self.max_size, self.antialias = (resize.size, resize.interpolation,
                                                                       resize.max_size, resize.antialias)
        self.crop = list(crop.size)
        self.mean, self.std = normalize.mean, normalize.std
        self.unfused = unfused

    def __call__(self, inpt: Any) -> Any:
        out = self._fused(inpt)
        if out is not None:
            return out
        for step in self.unfused:
            inpt = step(inpt)
        return inpt

    def _fused(self, inpt: Any) -> Optional[Any]:
        """The pass's result, or None where the unfused steps must run (their own checks then raise as usual)."""
        torch = sys.modules.get("torch")
        if torch is None or not isinstance(inpt, torch.Tensor) or not inpt.is_cuda or inpt.dtype != torch.uint8 or \
                inpt.ndim < 3 or not 1 <= inpt.shape[-3] <= 4:
            return None
        interp, antialias = _resize_mode(_RESIZE, self.interpolation, self.antialias)
        img = Image(_RESIZE, inpt)
        if img.x.numel() == 0:
            return None
        new_h, new_w = _tv_output_size(_RESIZE, img.h, img.w, self.size, self.max_size)
        crop_h, crop_w = hw_pair(_CROP, "output_size", self.crop)
        if (new_h, new_w) == (img.h, img.w) or not (0 < crop_h <= new_h and 0 < crop_w <= new_w):
            return None
        means, stds = _constants(_NORMALIZE, "mean", self.mean), _constants(_NORMALIZE, "std", self.std)
        if len(means) not in (1, img.c) or len(stds) not in (1, img.c) or not all(stds):
            return None
        # torchvision's normalize builds mean and std as tensors of the image's dtype (float32 here).
        means, stds = _round_to(means, "float32"), _round_to(stds, "float32")
        top, left = center_box(new_h, new_w, crop_h, crop_w)
        out = img.empty(img.c, crop_h, crop_w, torch.float32)
        tvresize_crop_convert_reformat_into(img.wrap(out), img.wrap(img.x), (new_w, new_h), interp, (left, top),
                                            antialias, scale=1.0 / 255, offset=0.0, srcCast=True,
                                            mean=means * (img.c if len(means) == 1 else 1),
                                            std=stds * (img.c if len(stds) == 1 else 1), stream=img.stream)
        return img.finish(out)


def fused_preprocess(transforms: List[Any], steps: List[Callable], i: int) -> Optional[FusedPreprocess]:
    """The fused step for transforms[i:i + 4] when they are v2 Resize, CenterCrop, ToDtype(torch.float32,
    scale=True) and Normalize (steps[i:i + 4] their cvcuda.tv functions), else None."""
    v2, torch = sys.modules.get("torchvision.transforms.v2"), sys.modules.get("torch")
    if v2 is None or torch is None or i + 4 > len(transforms):
        return None
    resize, crop, to_dtype, normalize = transforms[i:i + 4]
    if (type(resize), type(crop), type(to_dtype), type(normalize)) != (v2.Resize, v2.CenterCrop, v2.ToDtype, v2.Normalize):
        return None
    if to_dtype.dtype is not torch.float32 or to_dtype.scale is not True:
        return None
    return FusedPreprocess(resize, crop, normalize, steps[i:i + 4])
