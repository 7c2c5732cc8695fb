"""resize: 32x1080x1920x3 uint8 batches to 224x224 and 720x1280 (the resize issue's rows); bytes: the source read
once and the output written once (the least any resize moves)."""
from .common import Case, Spec

OP = "resize"
# (interp, out H, out W, torchvision interpolation, antialias): AREA's nearest torchvision analogue is antialiased
# bilinear.
ROWS = (("NEAREST", 720, 1280, "NEAREST_EXACT", False), ("LINEAR", 224, 224, "BILINEAR", False),
        ("LINEAR", 720, 1280, "BILINEAR", False), ("CUBIC", 720, 1280, "BICUBIC", False),
        ("AREA", 224, 224, "BILINEAR", True))


def case(n, h, w, interp, oh, ow, tv_interp, antialias):
    def bind(cv, t, s):
        dst, src, mode = t["dst"], t["src"], getattr(cv.Interp, interp)
        return lambda: cv.resize_into(dst, src, mode, stream=s)

    def bind_torch(T, t):
        if T.F is None:
            return None
        src, mode = t["src_nchw"], getattr(T.InterpolationMode, tv_interp)
        return lambda: T.F.resize(src, [oh, ow], interpolation=mode, antialias=antialias)

    src = Spec("in", (n, h, w, 3), "u8", "NHWC")
    dst = Spec("out", (n, oh, ow, 3), "u8", "NHWC")
    aa = ", antialias" if antialias else ""
    return Case(op=OP, name=f"{n}x{h}x{w}x3 u8 {interp} -> {oh}x{ow}",
                tensors={"src": src, "dst": dst,
                         "src_nchw": Spec("in", (n, h, w, 3), "u8", None, permute=(0, 3, 1, 2), view_of="src")},
                requires=("resize_into", "Interp"), bind=bind, bind_torch=bind_torch,
                torch_name=f"torchvision v2 resize {tv_interp.lower()}{aa}", traffic=src.nbytes + dst.nbytes)


def cases():
    return [case(32, 1080, 1920, *row) for row in ROWS]
