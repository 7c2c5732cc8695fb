"""What a CAI export (Tensor.cuda()) costs its consumers in host memory and time (CPU: nothing is dereferenced).

PyTorch's torch.as_tensor(obj) keeps a reference to every value it reads from the dict and never drops it; the soak
(scripts/soak.py) grew by ~330 bytes per as_tensor -> flip -> .cuda() -> torch.as_tensor cycle because each new
tensor exported new value objects. Here that consumer is emulated exactly (Py_IncRef on each value it reads), and the
host memory of many such cycles must stay flat. An export nobody read orders nothing at its release."""

import ctypes
import gc
import tracemalloc

import pytest

import cvcuda
from cvcuda import _dlpack
from cai_objects import BASE, CaiObject

_incref = ctypes.pythonapi.Py_IncRef
_incref.argtypes = (ctypes.py_object,)
_incref.restype = None
_decref = ctypes.pythonapi.Py_DecRef
_decref.argtypes = (ctypes.py_object,)
_decref.restype = None

# The keys torch 2.x reads from the dict (and pins).
PINNED_KEYS = ("shape", "typestr", "data", "strides")


def wrapped(address: int, shape=(2, 64, 64, 3)):
    return cvcuda.as_tensor(CaiObject({"shape": shape, "typestr": "|u1", "data": (address, False), "version": 3,
                                       "stream": None}), "NHWC")


def leaky_consumer(export, pinned):
    """torch.as_tensor's treatment of the dict: one reference taken on each value it reads, never given back (the
    test gives them back at its end, `pinned` remembers which)."""
    interface = export.__cuda_array_interface__
    for key in PINNED_KEYS:
        value = interface[key]
        _incref(value)
        pinned.append(value)


def traced_growth(cycles: int, addresses) -> int:
    """Bytes of Python memory still allocated after `cycles` export cycles (after a warm-up of the same cycles)."""
    pinned = []

    def cycle(i):
        t = wrapped(addresses[i % len(addresses)])
        leaky_consumer(t.cuda(), pinned)

    for i in range(200):
        cycle(i)
    pinned_before = len(pinned)
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for i in range(cycles):
            cycle(i)
        gc.collect()
        # The list of pinned values is the test's own bookkeeping, not the leak under test.
        grown = tracemalloc.get_traced_memory()[0] - before - 8 * (len(pinned) - pinned_before)
    finally:
        tracemalloc.stop()
        for value in pinned:
            _decref(value)
    return grown


@pytest.mark.parametrize("addresses", [(BASE,), (BASE, BASE + 2**20, BASE + 2**21)],
                         ids=["one address", "three addresses in turn"])
def test_values_pinned_by_a_leaky_consumer_cost_no_memory_per_export(addresses):
    cycles = 3000
    grown = traced_growth(cycles, addresses)
    # Fresh value objects per export: ~330 bytes a cycle (about 1 MB here); shared ones: nothing per cycle.
    assert grown < 16 * cycles, f"{grown} bytes over {cycles} exports ({grown / cycles:.0f} per export)"


def test_exports_of_equal_descriptions_share_their_value_objects():
    a, b = wrapped(BASE), wrapped(BASE + 2**20)
    da, db = a.cuda().__cuda_array_interface__, b.cuda().__cuda_array_interface__
    assert da["shape"] is db["shape"] and da["strides"] is db["strides"] and da["typestr"] is db["typestr"]
    assert da["data"] == (BASE, False) and db["data"] == (BASE + 2**20, False)
    assert wrapped(BASE).cuda().__cuda_array_interface__["data"] is da["data"]
    # Shapes and data tuples never share an object across kinds, even when equal as tuples: (1, 1) vs (1, True).
    one = cvcuda.as_tensor(CaiObject({"shape": (1, 1), "typestr": "|u1", "data": (1, True), "version": 3,
                                      "stream": None}), "HW").cuda().__cuda_array_interface__
    assert one["shape"] == (1, 1) and all(type(v) is int for v in one["shape"])
    assert one["data"] == (1, True) and type(one["data"][1]) is bool


@pytest.mark.parametrize("read,ordered", [(False, False), (True, True)], ids=["dict never read", "dict read"])
def test_a_dropped_export_orders_its_release_only_when_its_dict_was_read(monkeypatch, read, ordered):
    calls = []
    monkeypatch.setattr(_dlpack, "order_release_after_consumers", calls.append)
    t = wrapped(BASE)
    export = t.cuda()
    if read:
        assert export.__cuda_array_interface__["version"] == 3
    del export
    gc.collect()
    assert calls == ([t] if ordered else [])
