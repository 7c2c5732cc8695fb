"""The torch side of cvcuda.tv: what every function does with its torch tensors.

A torchvision image is a tensor of shape (..., C, H, W) in any memory format. Here it becomes a 4-dimensional
(B, C, H, W) view (leading dimensions merged into B), wrapped for the library in its physical layout: "NCHW" when the
channels are planes (torch's contiguous format), "NHWC" when they are interleaved (torch.channels_last, whose NCHW
tensor is an NHWC array in memory). Outputs are allocated by torch (torch.empty on the input's device) in the same
physical layout, so torch's caching allocator owns them, and every operator is enqueued on torch's current stream,
the stream on which torch itself would run torchvision's kernels.

The zero-sync rules: inputs and outputs are wrapped with CAI stream -1 ("no ordering needed": the work is queued on
the stream that produced them, behind their producers) and without a keep-alive (torch's allocator reuses memory in
the order of that same stream, as for its own kernels); nothing reads device memory on the host, nothing copies host
memory to the device (constants travel by value), and no call synchronises. The same calls are legal while torch
captures the stream into a CUDA graph (torch.cuda.graph).
"""

import sys
from typing import Any, Optional, Sequence, Tuple

from .. import _tensor
from .._errors import NotSupportedError
from .._stream import as_stream

__all__ = ["Image", "check_cuda_tensor", "current_stream", "hw_pair", "interleaved", "torch_module", "wrap"]


def torch_module():
    """The imported torch module (a caller holding a torch tensor has imported it), or None."""
    return sys.modules.get("torch")


def check_cuda_tensor(function: str, name: str, value: Any):
    """`value` as a plain torch.Tensor on a CUDA device; tv_tensors.Image and tv_tensors.Video are unwrapped (the
    result type is restored by Image.finish). TypeError for anything else."""
    torch = torch_module()
    if torch is None or not isinstance(value, torch.Tensor):
        raise TypeError(f"{function}: {name} must be a torch.Tensor image (..., C, H, W) on a CUDA device, got "
                        f"{type(value).__name__}")
    if type(value) is not torch.Tensor:
        tv_tensors = sys.modules.get("torchvision.tv_tensors")
        if tv_tensors is None or not isinstance(value, (tv_tensors.Image, tv_tensors.Video)):
            raise TypeError(f"{function}: {type(value).__name__} is not supported: cvcuda.tv transforms images "
                            f"(torch.Tensor, tv_tensors.Image, tv_tensors.Video)")
        value = value.as_subclass(torch.Tensor)
    if not value.is_cuda:
        raise TypeError(f"{function}: {name} is on device '{value.device}'; cvcuda.tv works on CUDA tensors (move it "
                        f"with .cuda(); torchvision's own functions take CPU tensors)")
    return value


def current_stream(t: Any):
    """torch's current stream on `t`'s device, as a cvcuda.Stream (as_stream caches torch's streams)."""
    return as_stream(torch_module().cuda.current_stream(t.device))


def wrap(t: Any, layout: Optional[str]):
    """A cvcuda.Tensor over torch tensor `t`'s memory, ready on torch's current stream (CAI stream -1)."""
    if _tensor._torch_table is None:
        _tensor._find_torch()
    return _tensor._wrap_torch(t, layout, ready=True)


class Image:
    """One image argument: the (B, C, H, W) view `x` of the input, its physical layout, and the stream."""

    __slots__ = ("torch", "kind", "shape", "x", "nhwc", "stream")

    def __init__(self, function: str, inpt: Any, min_ndim: int = 3, dtypes: Optional[Sequence[str]] = None,
                 inplace: bool = False) -> None:
        kind = type(inpt)
        t = check_cuda_tensor(function, "inpt", inpt)
        if t.ndim < min_ndim:
            raise ValueError(f"{function}: inpt has shape {tuple(t.shape)}; expected an image tensor of shape "
                             f"(..., C, H, W)")
        if dtypes is not None and str(t.dtype).replace("torch.", "") not in dtypes:
            raise NotSupportedError(f"{function}: dtype {t.dtype} is not supported (cvcuda.tv takes "
                                    f"{', '.join(dtypes)} here)")
        torch = torch_module()
        self.torch = torch
        self.kind = kind
        self.shape = tuple(t.shape)
        if t.ndim == 2:
            x = t.unsqueeze(0).unsqueeze(0)
        elif t.ndim == 3:
            x = t.unsqueeze(0)
        elif t.ndim == 4:
            x = t
        else:
            c, h, w = t.shape[-3:]
            x = t.view(-1, c, h, w) if inplace else t.reshape(-1, c, h, w)
        self.x = x
        self.nhwc = interleaved(x)
        self.stream = current_stream(x)

    @property
    def c(self) -> int:
        return self.x.shape[1]

    @property
    def h(self) -> int:
        return self.x.shape[2]

    @property
    def w(self) -> int:
        return self.x.shape[3]

    def wrap(self, x4: Any):
        """A (B, C, H, W) tensor of this image's physical layout, wrapped as NHWC or NCHW."""
        return wrap(x4.permute(0, 2, 3, 1), "NHWC") if self.nhwc else wrap(x4, "NCHW")

    def empty(self, c: int, h: int, w: int, dtype: Any = None):
        """A new (B, c, h, w) torch tensor of the input's physical layout, dtype (default: the input's) and device."""
        torch = self.torch
        dtype = self.x.dtype if dtype is None else dtype
        b = self.x.shape[0]
        if self.nhwc:
            return torch.empty((b, h, w, c), dtype=dtype, device=self.x.device).permute(0, 3, 1, 2)
        return torch.empty((b, c, h, w), dtype=dtype, device=self.x.device)

    def finish(self, out4: Any):
        """`out4` (B, C', H', W') in the input's shape (..., C', H', W') and tensor type."""
        lead = self.shape[:-3] if len(self.shape) >= 3 else ()
        if len(self.shape) == 2:
            out = out4[0, 0]
        elif len(self.shape) == 3:
            out = out4[0]
        elif len(self.shape) == 4:
            out = out4
        else:
            out = out4.reshape(lead + tuple(out4.shape[1:]))
        return out if self.kind is self.torch.Tensor else out.as_subclass(self.kind)


def interleaved(x4: Any) -> bool:
    """True when the channels of a (B, C, H, W) tensor are interleaved in memory (torch.channels_last, or a view of
    such a tensor): the library then sees it as NHWC."""
    if x4.shape[1] == 1 or x4.is_contiguous():
        return False
    return x4.stride(1) < x4.stride(3)


def hw_pair(function: str, name: str, value: Any) -> Tuple[int, int]:
    """torchvision's (height, width) from an int or a 1- or 2-sequence of ints."""
    if isinstance(value, bool):
        raise TypeError(f"{function}: {name} must be an int or a sequence of 1 or 2 ints, got {value!r}")
    if isinstance(value, int):
        return value, value
    if isinstance(value, (tuple, list)) and len(value) in (1, 2) and all(
            isinstance(v, int) and not isinstance(v, bool) for v in value):
        return (value[0], value[0]) if len(value) == 1 else (value[0], value[1])
    raise TypeError(f"{function}: {name} must be an int or a sequence of 1 or 2 ints, got {value!r}")
