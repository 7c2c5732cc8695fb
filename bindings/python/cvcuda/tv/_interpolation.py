"""torchvision's InterpolationMode, so that cvcuda.tv needs torchvision neither to import nor for its defaults.

Members compare by value with torchvision.transforms.InterpolationMode: a function takes either enum (or the Pillow
integer constants torchvision takes) and reads its ``.value``.
"""

import enum
from typing import Any

__all__ = ["InterpolationMode", "interpolation_value"]


class InterpolationMode(enum.Enum):
    """The members and values of ``torchvision.transforms.InterpolationMode``."""

    NEAREST = "nearest"
    NEAREST_EXACT = "nearest-exact"
    BILINEAR = "bilinear"
    BICUBIC = "bicubic"
    BOX = "box"
    HAMMING = "hamming"
    LANCZOS = "lanczos"


# torchvision's _interpolation_modes_from_int (Pillow's constants).
_FROM_INT = {0: "nearest", 2: "bilinear", 3: "bicubic", 4: "box", 5: "hamming", 1: "lanczos"}
_VALUES = frozenset(m.value for m in InterpolationMode)


def interpolation_value(function: str, interpolation: Any) -> str:
    """The mode's value ("bilinear", ...) of an InterpolationMode (ours or torchvision's) or a Pillow int constant;
    ValueError otherwise, as torchvision's _check_interpolation."""
    if isinstance(interpolation, int) and not isinstance(interpolation, bool):
        value = _FROM_INT.get(interpolation)
        if value is None:
            raise ValueError(f"{function}: interpolation={interpolation} is not a Pillow interpolation constant "
                             f"(0 nearest, 1 lanczos, 2 bilinear, 3 bicubic, 4 box, 5 hamming)")
        return value
    value = getattr(interpolation, "value", None)
    if isinstance(interpolation, enum.Enum) and type(interpolation).__name__ == "InterpolationMode" and value in _VALUES:
        return value
    raise ValueError(f"{function}: interpolation should be an InterpolationMode or a corresponding Pillow integer "
                     f"constant, but got {interpolation!r}")
