"""Helpers for the GPU tests: busy streams (torch.cuda._sleep) and a CAI object with a chosen producer stream."""

from cai_objects import CaiObject

_CYCLES_PER_MS = {}


def cycles_per_ms(torch) -> float:
    """GPU clock cycles per millisecond, measured once with CUDA events (torch.cuda._sleep counts cycles of the SM
    clock, whose rate follows the GPU's clock state): the most of three measurements after a warm-up sleep. A
    measurement that runs slow (a GPU still clocked down from idle, the first launch loading its module) gives too few
    cycles per millisecond and so makes every later spin shorter than asked; one made at the highest clock makes a spin
    at a lower clock last longer than asked, which no test minds."""
    if "value" not in _CYCLES_PER_MS:
        rates = []
        torch.cuda.synchronize()
        torch.cuda._sleep(10_000_000)  # warm-up: lets the clock rise before the measurements
        for _ in range(3):
            start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            start.record()
            torch.cuda._sleep(10_000_000)
            end.record()
            end.synchronize()
            rates.append(10_000_000 / max(start.elapsed_time(end), 1e-3))
        _CYCLES_PER_MS["value"] = max(rates)
    return _CYCLES_PER_MS["value"]


def make_busy(torch, stream, ms: float) -> None:
    """Enqueues `ms` milliseconds of GPU sleep on `stream` (a torch stream)."""
    cycles = int(cycles_per_ms(torch) * ms)
    with torch.cuda.stream(stream):
        torch.cuda._sleep(cycles)


def with_stream(torch_tensor, stream):
    """The tensor as a CAI v3 producer that declares `stream` (an int, None, or -1) as its producer stream."""
    interface = dict(torch_tensor.__cuda_array_interface__, version=3, stream=stream)
    holder = CaiObject(interface)
    holder.tensor = torch_tensor  # the memory's owner lives as long as the dict's holder
    return holder
