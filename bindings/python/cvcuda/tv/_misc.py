"""normalize and to_dtype (torchvision v2 names, arguments and results, on torch tensors, on torch's current
stream)."""

import struct
from typing import Any, List

from .._errors import NotSupportedError
from .._ops_convert import convertto_into
from .._ops_normalize import normalize_into
from .._types import Round
from ._image import Image, check_cuda_tensor, current_stream, torch_module, wrap

__all__ = ["normalize", "to_dtype"]

_NORMALIZE_DTYPES = ("float16", "float32")


def _constants(function: str, name: str, value: Any) -> List[float]:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return [float(value)]
    torch = torch_module()
    if torch is not None and isinstance(value, torch.Tensor):
        if value.is_cuda:
            raise TypeError(f"{function}: {name} is a CUDA tensor; reading it would block the host: pass a list of "
                            f"floats (or a CPU tensor)")
        value = value.reshape(-1).tolist()
    if isinstance(value, (tuple, list)) and value and all(
            isinstance(v, (int, float)) and not isinstance(v, bool) for v in value):
        return [float(v) for v in value]
    raise TypeError(f"{function}: {name} must be a number or a sequence of numbers, got {value!r}")


def _round_to(values: List[float], dtype: str) -> List[float]:
    """The values as torch.as_tensor(values, dtype) holds them (torchvision builds mean and std in the image's dtype)."""
    code = "e" if dtype == "float16" else "f"
    return [struct.unpack(code, struct.pack(code, v))[0] for v in values]


def normalize(inpt: Any, mean: List[float], std: List[float], inplace: bool = False) -> Any:
    """torchvision's ``normalize``: ``(inpt - mean[c]) / std[c]`` per channel of every image (..., C, H, W), by
    cvcuda.normalize on torch's current stream, without a host sync (mean and std travel by value: torchvision
    copies them to the device, a blocking copy).

    ``mean``, ``std``: a number or one per channel (or 1). ``inplace`` writes into ``inpt`` and returns it.
    dtypes float16 and float32 (mean and std first rounded to the dtype, as torchvision); any memory format (planar
    images run as NCHW, channels_last as NHWC; the result keeps it).
    Differs: computed as ``(x - mean) * (1 / std)`` in float32 and rounded once (torchvision divides, in the dtype):
    within 1 ulp of torchvision's float32 result and 1 ulp of float16; float64 and bfloat16 raise
    :class:`cvcuda.NotSupportedError`.
    :raises TypeError: ``inpt`` not a floating CUDA torch tensor (torchvision's message), mean/std not numbers.
    :raises ValueError: fewer than 3 dimensions; a zero std; counts that are neither 1 nor C.
    """
    function = "cvcuda.tv.normalize"
    means, stds = _constants(function, "mean", mean), _constants(function, "std", std)
    if not all(stds):
        raise ValueError(f"{function}: std evaluated to zero, leading to division by zero.")
    if not isinstance(inplace, bool):
        raise TypeError(f"{function}: inplace must be a bool, got {type(inplace).__name__}")
    t = check_cuda_tensor(function, "inpt", inpt)
    if not t.is_floating_point():
        raise TypeError(f"{function}: Input tensor should be a float tensor. Got {t.dtype}.")
    if t.ndim < 3:
        raise ValueError(f"{function}: Expected tensor to be a tensor image of size (..., C, H, W). Got {tuple(t.shape)}.")
    img = Image(function, inpt, dtypes=_NORMALIZE_DTYPES, inplace=inplace)
    for name, values in (("mean", means), ("std", stds)):
        if len(values) not in (1, img.c):
            raise ValueError(f"{function}: {name} has {len(values)} values for an image of {img.c} channels")
    dtype = str(img.x.dtype).replace("torch.", "")
    means, stds = _round_to(means, dtype), _round_to(stds, dtype)
    scales = [1.0 / s for s in stds]
    out = img.x if inplace else img.empty(img.c, img.h, img.w)
    if out.numel():
        src = img.wrap(img.x)
        normalize_into(src if inplace else img.wrap(out), src, means, scales, stream=img.stream)
    return inpt if inplace else img.finish(out)


# convertto's dtypes (include/cvcuda/convert_to.h).
_CONVERT_DTYPES = ("uint8", "int8", "uint16", "int16", "int32", "float16", "bfloat16", "float32", "float64")
# torchvision's _max_value and _num_value_bits of the integer dtypes convertto takes.
_MAX = {"uint8": 255, "int8": 127, "uint16": 65535, "int16": 32767, "int32": 2**31 - 1}
_BITS = {"uint8": 8, "int8": 7, "uint16": 16, "int16": 15, "int32": 31}


class _DefaultDtype:
    """The default ``dtype=torch.float32`` without importing torch: it stands for torch.float32 and prints so."""

    def __repr__(self) -> str:
        return "torch.float32"

    def resolve(self):
        return torch_module().float32


_FLOAT32 = _DefaultDtype()


def _conversion(function: str, src: str, dst: str, scale: bool):
    """(factor, round) of convertto for torchvision's to_dtype rules."""
    src_float, dst_float = src not in _MAX, dst not in _MAX
    if not scale:
        return 1.0, (Round.TRUNCATE if src_float else Round.TRUNCATE_WRAP)
    if src_float and dst_float:
        return 1.0, Round.NEAREST
    if src_float:
        if src == "float32" and dst == "int32":  # (float64 to int64, torchvision's other case: int64 is not taken)
            raise RuntimeError(f"{function}: The conversion from torch.{src} to torch.{dst} cannot be performed safely.")
        return _MAX[dst] + 1.0 - 1e-3, Round.TRUNCATE
    if dst_float:
        return 1.0 / _MAX[src], Round.NEAREST
    return 2.0 ** (_BITS[dst] - _BITS[src]), Round.TRUNCATE


def to_dtype(inpt: Any, dtype: Any = _FLOAT32, scale: bool = False) -> Any:
    """torchvision's ``to_dtype``: ``inpt`` converted to ``dtype`` (a torch dtype; default torch.float32), with
    ``scale`` mapping value ranges as torchvision (integers: [0, max]; floats: [0, 1]): int to float multiplies by
    1 / max, float to int by (max + 1 - 0.001) and truncates, int to int shifts by the difference in value bits;
    ``scale=False`` converts values as ``Tensor.to`` (floats to integers truncate). By cvcuda.convertto on torch's
    current stream, without a host sync; the same dtype returns ``inpt`` itself, as torchvision. Any shape and memory
    format (the result keeps the input's strides when they are dense, as ``Tensor.to``).
    dtypes (both sides): uint8, int8, uint16, int16, int32, float16, bfloat16, float32, float64.
    Differs: out-of-range values saturate (torch wraps integers and leaves float-to-int undefined); negative values
    of signed inputs shift toward zero (torch: toward minus infinity); int64, bool and complex raise
    :class:`cvcuda.NotSupportedError`; float16 inputs scaled to integers are multiplied in float32 (torch rounds the
    product to float16 first, which can reach max + 1).
    :raises TypeError: ``inpt`` not a CUDA torch tensor, ``dtype`` not a torch dtype, ``scale`` not a bool.
    :raises RuntimeError: float32 to int32 or float64 to int64 with ``scale`` (torchvision's rule).
    """
    function = "cvcuda.tv.to_dtype"
    if not isinstance(scale, bool):
        raise TypeError(f"{function}: scale must be a bool, got {type(scale).__name__}")
    if isinstance(dtype, _DefaultDtype):
        t = check_cuda_tensor(function, "inpt", inpt)
        dtype = dtype.resolve()
    else:
        torch = torch_module()
        if torch is None or not isinstance(dtype, torch.dtype):
            raise TypeError(f"{function}: dtype must be a torch.dtype, got {dtype!r}")
        t = check_cuda_tensor(function, "inpt", inpt)
    if t.dtype == dtype:
        return inpt
    src, dst = str(t.dtype).replace("torch.", ""), str(dtype).replace("torch.", "")
    for name in (src, dst):
        if name not in _CONVERT_DTYPES:
            raise NotSupportedError(f"{function}: dtype torch.{name} is not supported (cvcuda.tv converts "
                                    f"{', '.join(_CONVERT_DTYPES)})")
    factor, rounding = _conversion(function, src, dst, scale)
    torch = torch_module()
    out = torch.empty_like(t, dtype=dtype)
    if out.numel():
        convertto_into(wrap(out, None), wrap(t, None), factor, 0.0, round=rounding,
                       stream=current_stream(t))
    return out if type(inpt) is torch.Tensor else out.as_subclass(type(inpt))
