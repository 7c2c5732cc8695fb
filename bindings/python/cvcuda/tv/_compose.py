"""Compose: a pipeline of cvcuda.tv functions, called in order on one image tensor."""

import functools
import sys
from typing import Any, Callable, List, Sequence

from . import _color, _geometry, _misc
from ._fused import fused_preprocess

__all__ = ["Compose"]


def _random_flip(function: Callable, p: float) -> Callable:
    def step(x: Any) -> Any:
        # torchvision's _RandomApplyTransform: torch.rand(1) >= p skips (torch's CPU generator: no device work).
        return x if sys.modules["torch"].rand(1) >= p else function(x)
    return step


def _translated(t: Any) -> Callable:
    """The cvcuda.tv equivalent of a torchvision.transforms.v2 transform of the kinds this module implements, or None.
    Read by class name and attributes, so that torchvision is never imported here."""
    v2 = sys.modules.get("torchvision.transforms.v2")
    if v2 is None or not isinstance(t, getattr(v2, "Transform", ())):
        return None
    kind = type(t)
    if kind is v2.Compose:
        return Compose(t.transforms)
    if kind is v2.Resize:
        return functools.partial(_geometry.resize, size=t.size, interpolation=t.interpolation, max_size=t.max_size,
                                 antialias=t.antialias)
    if kind is v2.CenterCrop:
        return functools.partial(_geometry.center_crop, output_size=list(t.size))
    if kind is v2.Pad and not isinstance(t.fill, dict):
        return functools.partial(_geometry.pad, padding=t.padding, fill=t.fill, padding_mode=t.padding_mode)
    if kind is v2.Normalize:
        return functools.partial(_misc.normalize, mean=t.mean, std=t.std, inplace=t.inplace)
    if kind is v2.ToDtype and not isinstance(t.dtype, dict) and t.dtype is not None:
        return functools.partial(_misc.to_dtype, dtype=t.dtype, scale=t.scale)
    if kind is v2.Grayscale:
        return functools.partial(_color.rgb_to_grayscale, num_output_channels=t.num_output_channels)
    if kind is v2.RandomHorizontalFlip:
        return _random_flip(_geometry.horizontal_flip, t.p)
    if kind is v2.RandomVerticalFlip:
        return _random_flip(_geometry.vertical_flip, t.p)
    return None


class Compose:
    """torchvision's ``Compose`` for cvcuda.tv: ``Compose(transforms)(x)`` calls each transform on the previous one's
    result and returns the last.

    ``transforms``: a non-empty sequence of callables (cvcuda.tv functions, ``functools.partial`` of them, lambdas).
    torchvision v2 transforms of the kinds cvcuda.tv implements (Resize, CenterCrop, Pad, Normalize, ToDtype,
    Grayscale, RandomHorizontalFlip, RandomVerticalFlip, nested Compose) run as their cvcuda.tv functions with the
    transform's parameters (the random flips draw ``torch.rand(1)`` as torchvision does); any other callable,
    torchvision's other transforms included, is called as it is. Resize, CenterCrop, ToDtype(torch.float32,
    scale=True) and Normalize in a row run as one kernel (cvcuda.tvresize_crop_convert_reformat_into: only the crop is
    interpolated, nothing in between is stored) on CUDA uint8 images of 1 to 4 channels whose crop lies inside the
    resized image, with torchvision's values (its rounding of the resized uint8, then its float32 product, subtraction
    and division); other images run the four functions in turn. Everything runs on torch's current stream without a
    host sync (as long as the callables given do not sync), so a pipeline can be captured with ``torch.cuda.graph``
    and replayed. Differs from torchvision's: one image argument (no tuples or tv_tensors structures besides Image).

    :raises TypeError: ``transforms`` is not a sequence of callables.
    :raises ValueError: ``transforms`` is empty.
    """

    def __init__(self, transforms: Sequence[Callable]) -> None:
        if not isinstance(transforms, (list, tuple)):
            raise TypeError("cvcuda.tv.Compose: Argument transforms should be a sequence of callables")
        if not transforms:
            raise ValueError("cvcuda.tv.Compose: Pass at least one transform")
        for i, t in enumerate(transforms):
            if not callable(t):
                raise TypeError(f"cvcuda.tv.Compose: transforms[{i}] is a {type(t).__name__}, not a callable")
        self.transforms: List[Callable] = list(transforms)
        steps = [_translated(t) or t for t in self.transforms]
        # Resize, CenterCrop, ToDtype(float32, scale=True), Normalize in a row become one fused step.
        self._steps: List[Callable] = []
        i = 0
        while i < len(steps):
            fused = fused_preprocess(self.transforms, steps, i)
            self._steps.append(fused or steps[i])
            i += 4 if fused else 1

    def __call__(self, inpt: Any) -> Any:
        for step in self._steps:
            inpt = step(inpt)
        return inpt

    def __repr__(self) -> str:
        lines = "\n".join(f"    {t}" for t in self.transforms)
        return f"cvcuda.tv.Compose(\n{lines}\n)"
