"""cvtcolor: RGB -> BGR and RGB -> GRAY on uint8 NHWC."""
from .common import Case, Spec, sweep

OP = "cvtcolor"


def case(n, h, w, code):
    out_c = 1 if code == "RGB2GRAY" else 3

    def bind(cv, t, s):
        dst, src, c = t["dst"], t["src"], getattr(cv.ColorConversion, code)
        return lambda: cv.cvtcolor_into(dst, src, c, stream=s)

    def bind_torch(T, t):
        if code == "RGB2BGR":
            src = t["src"]
            return lambda: T.torch.flip(src, (3,))
        src = t["src_nchw"]
        if T.F is None:
            return None
        return lambda: T.F.rgb_to_grayscale(src)

    src = Spec("in", (n, h, w, 3), "u8", "NHWC")
    dst = Spec("out", (n, h, w, out_c), "u8", "NHWC")
    return Case(op=OP, name=f"{n}x{h}x{w}x3 u8 {code}",
                tensors={"src": src, "dst": dst, "src_nchw": Spec("in", (n, h, w, 3), "u8", None, permute=(0, 3, 1, 2), view_of="src")},
                requires=("cvtcolor_into", "ColorConversion"), bind=bind, bind_torch=bind_torch,
                torch_name="torch.flip(x, [3])" if code == "RGB2BGR" else "torchvision v2 rgb_to_grayscale",
                traffic=src.nbytes + dst.nbytes, exact_torch=code == "RGB2BGR")


def cases():
    return (sweep(lambda n, h, w: case(n, h, w, "RGB2BGR"), plot="RGB2BGR") +
            sweep(lambda n, h, w: case(n, h, w, "RGB2GRAY"), plot="RGB2GRAY"))
