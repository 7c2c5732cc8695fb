"""convertto: uint8 -> float32 with scale 1/255 (the usual first step of a network's input chain)."""
from .common import Case, Spec, sweep

OP = "convertto"


def case(n, h, w):
    shape = (n, h, w, 3)

    def bind(cv, t, s):
        dst, src = t["dst"], t["src"]
        return lambda: cv.convertto_into(dst, src, 1.0 / 255.0, 0.0, stream=s)

    def bind_torch(T, t):
        src = t["src_nchw"]
        if T.F is not None:
            return lambda: T.F.to_dtype(src, T.torch.float32, scale=True)
        d = t["dst"]
        return lambda: T.torch.mul(t["src"], 1.0 / 255.0, out=d)

    return Case(op=OP, name=f"{n}x{h}x{w}x3 u8 -> f32, scale 1/255",
                tensors={"src": Spec("in", shape, "u8", "NHWC"), "dst": Spec("out", shape, "f32", "NHWC"),
                         "src_nchw": Spec("in", shape, "u8", None, permute=(0, 3, 1, 2), view_of="src")},
                requires=("convertto_into",), bind=bind, bind_torch=bind_torch,
                torch_name="torchvision v2 to_dtype(float32, scale=True)",
                traffic=n * h * w * 3 * (1 + 4))


def cases():
    return sweep(case, plot="u8x3 -> f32")
