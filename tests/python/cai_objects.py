"""Helpers for the CPU tests: plain objects carrying a __cuda_array_interface__ dict, and the dict rules the C library
applies, restated independently for the tests (the library's own table is not reused, so the tests can disagree)."""

import math

TYPESTRS = ["|b1", "|u1", "|i1", "<u2", "<i2", "<u4", "<i4", "<u8", "<i8", "<f2", "<f4", "<f8"]
LABELS = "NCHWDF"
BASE = 1 << 40  # a fake device address: the CPU tests never dereference it


class CaiObject:
    """What a GPU array library hands over: an object with a __cuda_array_interface__ attribute."""

    def __init__(self, interface):
        self.__cuda_array_interface__ = interface


def itemsize(typestr: str) -> int:
    return int(typestr[2:])


def contiguous_strides(shape, size):
    strides = []
    for extent in reversed(shape):
        strides.append(size)
        size *= extent
    return tuple(reversed(strides))


def numel(shape) -> int:
    return math.prod(shape)
