"""copymakeborder: a constant border of 16 pixels on every side (value 114 per channel, a letterbox grey)."""
from .common import Case, Spec, sweep

OP = "copymakeborder"
PAD = 16
VALUE = [114.0, 114.0, 114.0]


def case(n, h, w):
    def bind(cv, t, s):
        dst, src, mode = t["dst"], t["src"], cv.Border.CONSTANT
        return lambda: cv.copymakeborder_into(dst, src, mode, VALUE, top=PAD, left=PAD, stream=s)

    def bind_torch(T, t):
        if T.F is None:
            return None
        src = t["src_nchw"]
        return lambda: T.F.pad(src, [PAD, PAD, PAD, PAD], fill=114)

    src = Spec("in", (n, h, w, 3), "u8", "NHWC")
    dst = Spec("out", (n, h + 2 * PAD, w + 2 * PAD, 3), "u8", "NHWC")
    return Case(op=OP, name=f"{n}x{h}x{w}x3 u8, constant, {PAD} px each side",
                tensors={"src": src, "dst": dst, "src_nchw": Spec("in", (n, h, w, 3), "u8", None, permute=(0, 3, 1, 2), view_of="src")},
                requires=("copymakeborder_into", "Border"), bind=bind, bind_torch=bind_torch,
                torch_name="torchvision v2 pad", traffic=src.nbytes + dst.nbytes)


def cases():
    return sweep(case, plot="u8x3, constant")
