"""normalize: float32 NHWC, per-channel base and scale given as sequences of floats (ImageNet mean, 1/std)."""
from .common import Case, Spec, sweep

OP = "normalize"
MEAN = (0.485, 0.456, 0.406)
STD = (0.229, 0.224, 0.225)


def case(n, h, w):
    shape = (n, h, w, 3)
    scale = [1.0 / v for v in STD]

    def bind(cv, t, s):
        dst, src = t["dst"], t["src"]
        return lambda: cv.normalize_into(dst, src, list(MEAN), scale, stream=s)

    def bind_torch(T, t):
        src = t["src_nchw"]
        if T.F is not None:
            return lambda: T.F.normalize(src, list(MEAN), list(STD))
        mean = T.torch.tensor(MEAN, device="cuda").view(1, 3, 1, 1)
        std = T.torch.tensor(STD, device="cuda").view(1, 3, 1, 1)
        return lambda: (src - mean) / std

    return Case(op=OP, name=f"{n}x{h}x{w}x3 f32, per-channel base/scale",
                tensors={"src": Spec("in", shape, "f32", "NHWC"), "dst": Spec("out", shape, "f32", "NHWC"),
                         "src_nchw": Spec("in", shape, "f32", None, permute=(0, 3, 1, 2), view_of="src")},
                requires=("normalize_into",), bind=bind, bind_torch=bind_torch,
                torch_name="torchvision v2 normalize", traffic=2 * n * h * w * 3 * 4)


def cases():
    return sweep(case, plot="f32x3")
