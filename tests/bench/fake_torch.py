"""A numpy stand-in for the parts of torch that bench/run.py's measurement loop uses, so that `bench/run.py --dry-run`
can run that loop (buffer sets, wrapping, timing batches, host timing, output checks, results, report) on a machine
without torch or a GPU. Times are host clock readings; nothing here says anything about performance."""
import time
import types

import numpy as np


class _DType:
    def __init__(self, name, np_type):
        self.name, self.np, self.is_floating_point = name, np.dtype(np_type), np.dtype(np_type).kind == "f"

    def __str__(self):
        return f"torch.{self.name}"


uint8, int16, uint16, int32 = (_DType(n, n) for n in ("uint8", "int16", "uint16", "int32"))
float16, float32, float64 = (_DType(n, n) for n in ("float16", "float32", "float64"))
_BY_NP = {d.np: d for d in (uint8, int16, uint16, int32, float16, float32, float64)}
__version__ = "0.0 (numpy stand-in)"
version = types.SimpleNamespace(cuda="none")


class Tensor:
    def __init__(self, a):
        self.a = a

    shape = property(lambda self: self.a.shape)
    dtype = property(lambda self: _BY_NP[self.a.dtype])

    def dim(self):
        return self.a.ndim

    def stride(self):
        return tuple(s // self.a.itemsize for s in self.a.strides)

    def element_size(self):
        return self.a.itemsize

    def data_ptr(self):
        return self.a.ctypes.data

    def to(self, dt):
        return Tensor(self.a.astype(dt.np))

    def fill_(self, v):
        self.a[...] = v
        return self

    def mul_(self, v):
        self.a *= v
        return self

    def permute(self, *dims):
        return Tensor(self.a.transpose(dims))

    def as_strided(self, shape, strides):
        return Tensor(np.lib.stride_tricks.as_strided(self.a, shape, [s * self.a.itemsize for s in strides]))

    def copy_(self, src):
        self.a[...] = src.a
        return self

    def clone(self):
        return Tensor(self.a.copy())

    def reshape(self, shape):
        return Tensor(self.a.reshape(shape))

    def view(self, *shape):
        return Tensor(self.a.reshape(shape))

    def __getitem__(self, index):
        return Tensor(self.a[index])

    def __sub__(self, other):
        return Tensor(self.a - other.a)

    def __truediv__(self, other):
        return Tensor(self.a / other.a)


def _shape(shape):
    return (shape,) if isinstance(shape, int) else tuple(shape)


def randint(lo, hi, shape, device=None, dtype=int32):
    return Tensor(np.random.randint(lo, hi, _shape(shape)).astype(dtype.np))


def rand(shape, device=None, dtype=float32):
    return Tensor(np.random.rand(*_shape(shape)).astype(dtype.np))


def empty(shape, device=None, dtype=float32):
    return Tensor(np.empty(_shape(shape), dtype.np))


def tensor(values, device=None, dtype=float32):
    return Tensor(np.asarray(values, dtype.np))


def mul(t, v, out):
    out.a[...] = t.a * v
    return out


def flip(t, dims):
    return Tensor(np.flip(t.a, dims).copy())


def equal(a, b):
    return a.shape == b.shape and bool(np.array_equal(a.a, b.a))


class _Event:
    def __init__(self, enable_timing=False):
        self.t = None

    def record(self):
        self.t = time.perf_counter()

    def query(self):
        return False  # never caught up: the batch loop's normal path

    def synchronize(self):
        pass

    def elapsed_time(self, end):
        return max((end.t - self.t) * 1e3, 1e-6)


class _Stream:
    cuda_stream = 0


cuda = types.SimpleNamespace(
    is_available=lambda: True, Stream=_Stream, set_stream=lambda s: None, Event=_Event, synchronize=lambda: None,
    empty_cache=lambda: None, _sleep=lambda cycles: None,
    get_device_properties=lambda i: types.SimpleNamespace(name="numpy stand-in", multi_processor_count=1,
                                                          total_memory=1 << 30, L2_cache_size=1 << 20))
