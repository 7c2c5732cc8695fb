"""cvcuda.tv: resize(256) -> center_crop(224) -> to_dtype(float32, scale) -> normalize on a 64x3x1080x1920 uint8 torch
tensor, through each library's cvcuda.tv.Compose of the torchvision v2 transforms (ours translates them into its functions;
a Compose that does not take v2 transforms gets the functions chained), against torchvision v2's Compose. Work runs on
torch's current stream; the harness counts our device syncs per call (0 expected). A second row times the resize alone
(cvcuda.tv.resize 256, antialiased bilinear) against torchvision v2's resize."""
from .common import Case, Spec
from .normalize import MEAN, STD

OP = "tv"
SHAPE = (64, 3, 1080, 1920)


def _transforms():
    import torch
    from torchvision.transforms import v2
    return [v2.Resize(256, antialias=True), v2.CenterCrop(224), v2.ToDtype(torch.float32, scale=True),
            v2.Normalize(list(MEAN), list(STD))]


def bind(cv, t, s):
    import importlib

    import torch
    tv, x = importlib.import_module(cv.__name__ + ".tv"), t["src"]  # a submodule: `import cvcuda` may not load it
    try:
        pipeline = tv.Compose(_transforms())
    except TypeError:
        return lambda: tv.normalize(tv.to_dtype(tv.center_crop(tv.resize(x, [256], antialias=True), [224]),
                                                torch.float32, scale=True), list(MEAN), list(STD))
    return lambda: pipeline(x)


def bind_torch(T, t):
    if T.v2 is None:
        return None
    pipeline, x = T.v2.Compose(_transforms()), t["src"]
    return lambda: pipeline(x)


def bind_resize(cv, t, s):
    import importlib
    tv, x = importlib.import_module(cv.__name__ + ".tv"), t["src"]
    return lambda: tv.resize(x, [256], antialias=True)


def bind_torch_resize(T, t):
    if T.F is None:
        return None
    x = t["src"]
    return lambda: T.F.resize(x, [256], antialias=True)


def cases():
    out_bytes = SHAPE[0] * 3 * 224 * 224 * 4
    resized_bytes = SHAPE[0] * 3 * 256 * 455
    return [Case(op=OP, name="64x3x1080x1920 u8 -> resize 256 (antialiased bilinear) only",
                 tensors={"src": Spec("in", SHAPE, "u8", None)}, bind=bind_resize, bind_torch=bind_torch_resize,
                 torch_name="torchvision v2 resize bilinear, antialias", headline=False,
                 traffic=Spec("in", SHAPE, "u8", None).nbytes + resized_bytes),
            Case(op=OP, name="64x3x1080x1920 u8 -> resize 256, center_crop 224, to_dtype f32, normalize",
                 tensors={"src": Spec("in", SHAPE, "u8", None)}, bind=bind, bind_torch=bind_torch,
                 torch_name="torchvision v2 Compose", traffic=Spec("in", SHAPE, "u8", None).nbytes + out_bytes,
                 note="batches/s = 1e6 / µs")]
