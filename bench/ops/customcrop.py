"""customcrop: a 1280x720 rectangle of every 1080x1920 image (uint8, 3 channels); bytes: the crop read + written."""
from .common import Case, Spec, sweep

OP = "customcrop"


def case(n, h, w):
    ch, cw = h * 2 // 3, w * 2 // 3
    y, x = (h - ch) // 2, (w - cw) // 2
    dst = Spec("out", (n, ch, cw, 3), "u8", "NHWC")

    def bind(cv, t, s):
        rect, dst_, src = cv.RectI(x, y, cw, ch), t["dst"], t["src"]
        return lambda: cv.customcrop_into(dst_, src, rect, stream=s)

    def bind_torch(T, t):
        src, d = t["src"], t["dst"]
        return lambda: d.copy_(src[:, y:y + ch, x:x + cw, :])

    return Case(op=OP, name=f"{n}x{h}x{w}x3 u8 -> {ch}x{cw} at ({x}, {y})",
                tensors={"src": Spec("in", (n, h, w, 3), "u8", "NHWC"), "dst": dst},
                requires=("customcrop_into", "RectI"), bind=bind, bind_torch=bind_torch,
                torch_name="copy_ of a slice", exact_torch=True, traffic=2 * dst.nbytes)


def cases():
    return sweep(case, plot="u8x3, 2/3 of each side")
