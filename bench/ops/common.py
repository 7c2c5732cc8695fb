"""What an operator's benchmark file declares: its cases (rows), and the helpers they share.

A case is one row of the benchmark: a set of tensors (declared, so that sizes and bytes are known without a GPU), and
up to four ways to run it, each a `bind_*` function called once per rotated buffer set that returns a zero-argument
callable doing one call:
  bind(cv, t, stream)      the Python API, for both our package and the reference library (CV-CUDA 0.19): the two are
                           imported as `cvcuda` and ours mirrors the reference's names and signatures, so one function
                           serves both; `t` maps each tensor's name to the object the library takes (cv.as_tensor of
                           the torch tensor, or the torch tensor itself where the spec's layout is None)
  bind_c(c, t, stream)     our C API through tests/abi/cvcuda_ctypes.py: `c` has the loaded library (`c.lib`) and
                           `c.check(status, what)`; `t` maps names to cvTensor handles; `stream` is a cvStream
  bind_torch(torch, t)     torch / torchvision v2 on the same torch tensors (`torch` is a namespace with `torch`, `F`
                           = torchvision.transforms.v2.functional, `v2` = torchvision.transforms.v2, `InterpolationMode`
                           = torchvision.transforms.InterpolationMode; those three are None without torchvision)
Host-time cases (kind "host") use the same functions; there the callable is timed on the host with the GPU idle.
A case whose function is None has no entry in that column. A library that lacks a name in `requires` (e.g. our package
before the operator exists) gets a skip note instead of a number, and so does a bind or first call that raises.
"""
import dataclasses
from typing import Callable, Dict, List, Optional, Sequence, Tuple

DTYPES = {"u8": 1, "s16": 2, "u16": 2, "f16": 2, "s32": 4, "f32": 4, "f64": 8}


@dataclasses.dataclass(frozen=True)
class Spec:
    """A tensor of a case: `role` "in" (filled with random data) or "out" (poisoned), shape, dtype key of DTYPES,
    layout for cv.as_tensor (None: the libraries get the torch tensor itself), and `permute`, a torch dimension
    order applied after creation (e.g. an NCHW view of NHWC memory for torchvision)."""
    role: str  # "in" or "out"
    shape: Tuple[int, ...]
    dtype: str
    layout: Optional[str]
    permute: Optional[Tuple[int, ...]] = None
    row_pitch: Optional[int] = None  # bytes between rows of an NHWC tensor (None: packed)
    view_of: Optional[str] = None    # a view (`permute`) of that tensor of the case, sharing its memory and data

    @property
    def nbytes(self) -> int:
        n = DTYPES[self.dtype]
        for s in self.shape:
            n *= s
        return n


@dataclasses.dataclass
class Case:
    op: str                       # operator (one panel of the plots, one table of docs/perf.md)
    name: str                     # the row's label, unique within op
    tensors: Dict[str, Spec]
    kind: str = "gpu"             # "gpu": GPU time per call; "host": host time per call
    table: bool = True            # a row of docs/perf.md's tables (False: only a point of the size sweep in the plots)
    headline: bool = True         # in the summary table (False: in "More rows")
    requires: Sequence[str] = ()  # names the Python API must have (checked on ours and on the reference)
    bind: Optional[Callable] = None
    bind_c: Optional[Callable] = None
    bind_torch: Optional[Callable] = None
    torch_name: str = ""          # what the torch column runs (e.g. "torchvision v2 resize"), for the tables
    traffic: Optional[int] = None  # bytes read + written per call; default: every tensor once
    note: str = ""                # said beside the row in docs/perf.md
    skip: Dict[str, str] = dataclasses.field(default_factory=dict)  # side -> why it has no entry (e.g. "reference")
    exact_torch: bool = False     # torch's result is bit-exact: the benchmark checks each library's output against it
    plot: Optional[str] = None    # the line of the op's plot panel this case is a point of (None: not plotted)

    @property
    def key(self) -> str:
        return f"{self.op}: {self.name}"

    @property
    def bytes_moved(self) -> int:
        if self.traffic is not None:
            return self.traffic
        return sum(s.nbytes for s in self.tensors.values() if s.view_of is None)


def nhwc(n: int, h: int, w: int, c: int) -> Tuple[int, int, int, int]:
    return (n, h, w, c)


# The sizes every memory-bound operator is swept over for the bandwidth-against-size plot: (N, H, W); the last is the
# table row the issues quote (32x1080x1920 batches).
SWEEP = ((1, 224, 224), (1, 1080, 1920), (8, 1080, 1920), (32, 1080, 1920))


def sweep_label(n: int, h: int, w: int, c: int, dtype: str) -> str:
    return f"{n}x{h}x{w}x{c} {dtype}"


def sweep(make: Callable[[int, int, int], Case], plot: str,
          sizes: Sequence[Tuple[int, int, int]] = SWEEP) -> List[Case]:
    """One case per size, all points of the plot line `plot`; only the largest is a table row."""
    cases = [make(n, h, w) for n, h, w in sizes]
    for c in cases:
        c.plot = plot
    for c in cases[:-1]:
        c.table = False
    return cases
