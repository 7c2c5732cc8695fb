"""reformat: NHWC -> NCHW, uint8 and float32, 3 channels."""
from .common import Case, Spec, sweep

OP = "reformat"


def case(n, h, w, dtype):
    def bind(cv, t, s):
        dst, src = t["dst"], t["src"]
        return lambda: cv.reformat_into(dst, src, stream=s)

    def bind_torch(T, t):
        src, d = t["src"], t["dst"]
        return lambda: d.copy_(src.permute(0, 3, 1, 2))

    src = Spec("in", (n, h, w, 3), dtype, "NHWC")
    return Case(op=OP, name=f"{n}x{h}x{w}x3 {dtype} NHWC -> NCHW",
                tensors={"src": src, "dst": Spec("out", (n, 3, h, w), dtype, "NCHW")},
                requires=("reformat_into",), bind=bind, bind_torch=bind_torch,
                torch_name="copy_ of a permuted view", exact_torch=True, traffic=2 * src.nbytes)


def cases():
    return (sweep(lambda n, h, w: case(n, h, w, "u8"), plot="u8") +
            sweep(lambda n, h, w: case(n, h, w, "f32"), plot="f32"))
