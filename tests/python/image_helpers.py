"""Helpers of the image-operator GPU tests: random torch tensors of every dtype, poisoned outputs, layout shapes,
reversed (negative-stride) views through a CAI dict, and host copies for numpy references."""

import zlib

import numpy

from cai_objects import CaiObject

# Each operator's dtype table, by torch dtype name.
ARITHMETIC = ["uint8", "int8", "uint16", "int16", "int32", "float16", "bfloat16", "float32", "float64"]
LAYOUTS = ["HWC", "NHWC", "CHW", "NCHW"]
_RANGES = {"uint8": (0, 256), "int8": (-128, 128), "uint16": (0, 65536), "int16": (-32768, 32768),
           "int32": (-(2**31), 2**31), "int64": (-(2**40), 2**40)}


def seed(*parts) -> int:
    """A reproducible seed for one parametrised case (Python's str hash changes from run to run)."""
    return zlib.crc32(repr(parts).encode())


def shape_of(layout: str, n: int, h: int, w: int, c: int):
    extents = {"N": n, "H": h, "W": w, "C": c}
    return tuple(extents[label] for label in layout)


def random_tensor(torch, shape, dtype: str, rng: numpy.random.Generator, lo=None, hi=None):
    """Random values of the dtype's range (floats: uniform in [lo, hi), default [-300, 300)), on the GPU."""
    if dtype in _RANGES:
        a, b = _RANGES[dtype]
        a, b = (a if lo is None else lo), (b if hi is None else hi)
        values = rng.integers(a, b, size=shape, dtype=numpy.int64)
        host = torch.from_numpy(values)
    else:
        values = rng.uniform(-300.0 if lo is None else lo, 300.0 if hi is None else hi, size=shape)
        host = torch.from_numpy(values)
    return host.to(getattr(torch, dtype)).cuda()


def poisoned(torch, shape, dtype: str):
    """An output filled with 0x5A bytes: a value no test expects (a large or NaN-free odd value in every dtype)."""
    t = torch.empty(shape, dtype=getattr(torch, dtype), device="cuda")
    t.view(-1).view(torch.uint8).fill_(0x5A)
    return t


def host(t) -> numpy.ndarray:
    """A host numpy copy (bfloat16 as float32, exactly)."""
    import torch

    if t.dtype == torch.bfloat16:
        t = t.float()
    return t.detach().cpu().numpy()


def reversed_view(t, dim: int, layout: str):
    """A CAI producer viewing torch tensor `t` backwards along `dim` (a negative stride), and the torch tensor it
    equals (t.flip(dim)). The producer declares the data ready (stream None): callers synchronise first."""
    import torch

    interface = dict(t.__cuda_array_interface__)
    itemsize = t.element_size()
    strides = list(interface.get("strides") or [s * itemsize for s in t.stride()])
    data = interface["data"][0] + (t.shape[dim] - 1) * strides[dim]
    strides[dim] = -strides[dim]
    interface.update(data=(data, False), strides=tuple(strides), version=3, stream=None)
    holder = CaiObject(interface)
    holder.owner = t
    torch.cuda.synchronize()
    return holder, t.flip(dim)
