"""cvcuda.tv: torchvision.transforms.v2.functional's image functions on CUDA torch tensors, run by cvcuda's operators.

    import torch, cvcuda.tv as tv                      # instead of: import torchvision.transforms.v2.functional as tv
    x = torch.randint(0, 256, (64, 3, 1080, 1920), dtype=torch.uint8, device="cuda")
    y = tv.normalize(tv.to_dtype(tv.center_crop(tv.resize(x, [256]), [224]), torch.float32, scale=True),
                     [0.485, 0.456, 0.406], [0.229, 0.224, 0.225])

Signatures, defaults, argument rules and results are torchvision's (each docstring says where they differ):
images are torch tensors of shape (..., C, H, W) in any memory format (contiguous or channels_last; the result keeps
it), tv_tensors.Image and tv_tensors.Video included. Each function enqueues its work on **torch's current stream**
(``torch.cuda.current_stream()``, where torchvision's own kernels would run) and returns at once: no host sync, no
defensive device sync (``cvcuda.stats()["deviceSyncs"]`` stays 0), outputs allocated by torch (its caching
allocator owns them, stream-ordered as its own tensors), constants passed by value. The functions are therefore
legal inside ``torch.cuda.graph`` capture. As with torch's own kernels, a tensor produced on another stream must be
ordered first (``torch.cuda.current_stream().wait_stream(s)``), and one dropped while another stream still uses it
needs ``Tensor.record_stream``.

Functions: horizontal_flip, vertical_flip, resize, crop, center_crop, resized_crop, pad, normalize, to_dtype,
rgb_to_grayscale; :class:`Compose`; :class:`InterpolationMode` (torchvision's members and values; torchvision's
own enum is accepted too). Importing this module needs neither torch nor torchvision; calling a function needs a
CUDA torch tensor.
"""

from ._color import rgb_to_grayscale
from ._compose import Compose
from ._geometry import center_crop, crop, horizontal_flip, pad, resize, resized_crop, vertical_flip
from ._interpolation import InterpolationMode
from ._misc import normalize, to_dtype

__all__ = [
    "Compose",
    "InterpolationMode",
    "center_crop",
    "crop",
    "horizontal_flip",
    "normalize",
    "pad",
    "resize",
    "resized_crop",
    "rgb_to_grayscale",
    "to_dtype",
    "vertical_flip",
]
