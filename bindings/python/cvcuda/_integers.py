"""The one rule for integer arguments, used by every function of the package that takes one (shapes, strides, CAI
fields, flipCode and other operator parameters, stream handles, rowalign):

an integer is an ``int`` or an object whose type has ``__index__`` (numpy integers, for instance); ``bool`` is
rejected (``True`` is not the extent 1) and so are floats, even integral ones. The CAI ``data`` readonly flag is a flag, not an integer: any ``bool`` or integer is accepted there.
Failures are ``TypeError`` naming the argument; range checks are the caller's (``ValueError``) or C's.
"""

from operator import index as _index
from typing import Any, Tuple


def integer(value: Any, what: str) -> int:
    """`value` as a plain int under the rule above; `what` names the argument in the TypeError ("cvcuda.flip: flipCode")."""
    if value.__class__ is int:
        return value
    if isinstance(value, bool) or not hasattr(type(value), "__index__"):
        raise TypeError(f"{what} must be an int, got {type(value).__name__} {value!r}")
    return _index(value)


def integers(values: Any, what: str) -> Tuple[int, ...]:
    """A tuple or list of integers as a tuple of plain ints (`what` names the sequence in the TypeError)."""
    if not isinstance(values, (tuple, list)):
        raise TypeError(f"{what} must be a tuple of ints, got {type(values).__name__}")
    out = []
    for i, v in enumerate(values):
        out.append(integer(v, f"{what}[{i}]"))
    return tuple(out)
