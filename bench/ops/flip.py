"""flip: the rows of the flip issue's table (ours vs the reference vs torch.flip vs a copy), every fast path of
kernels/flip.cu on 32x1080x1920 batches, a size sweep, and the host-time rows of the Python layer."""
from .common import Case, Spec, sweep

OP = "flip"
TORCH_DIMS = {0: (1,), 1: (2,), -1: (1, 2)}  # NHWC dims a flipCode mirrors


def _bind(code):
    def bind(cv, t, s):
        dst, src = t["dst"], t["src"]
        return lambda: cv.flip_into(dst, src, code, stream=s)
    return bind


def _bind_c(code):
    def bind_c(c, t, s):
        src, dst, flip = t["src"], t["dst"], c.lib.cvFlip
        def call():
            status = flip(s, src, dst, code)
            if status:
                c.check(status, "cvFlip")
        return call
    return bind_c


def _bind_torch(code):
    def bind_torch(T, t):
        src, dims = t["src"], TORCH_DIMS[code]
        return lambda: T.torch.flip(src, dims)
    return bind_torch


def gpu_case(n, h, w, c, dtype, code, name=None, pitch=None, note="", headline=False):
    shape = (n, h, w, c)
    return Case(op=OP, name=name or f"{n}x{h}x{w}x{c} {dtype}, flipCode {code}",
                tensors={"src": Spec("in", shape, dtype, "NHWC", row_pitch=pitch),
                         "dst": Spec("out", shape, dtype, "NHWC")},
                requires=("flip_into",), bind=_bind(code), bind_c=_bind_c(code), bind_torch=_bind_torch(code),
                torch_name="torch.flip", note=note, exact_torch=True, headline=headline,
                # a pitched source is read row by row: its padding is not read
                traffic=2 * n * h * w * c * (4 if dtype == "f32" else 1))


def cases():
    out = [
        # The flip issue's rows, in its order.
        gpu_case(32, 1080, 1920, 3, "u8", 1, headline=True),
        gpu_case(256, 224, 224, 3, "u8", 1, headline=True),
        gpu_case(1, 1080, 1920, 3, "u8", 0, headline=True),
        gpu_case(1, 1080, 1920, 3, "u8", 1, headline=True),
        gpu_case(1, 1080, 1920, 3, "u8", -1, headline=True),
        gpu_case(1, 224, 224, 3, "u8", 1, headline=True, note="per-call GPU time, calls queued back to back"),
    ]
    # Every fast path on large batches (each must stay >= 0.95 x copy) and on 256x224x224 (wave tails).
    for code in (0, 1, -1):
        for n, h, w, c, dtype in ((32, 1080, 1920, 1, "u8"), (32, 1080, 1920, 3, "u8"), (32, 1080, 1920, 4, "u8"),
                                  (32, 1080, 1920, 3, "f32"), (256, 224, 224, 3, "u8")):
            if not (code == 1 and dtype == "u8" and c == 3):  # already above
                out.append(gpu_case(n, h, w, c, dtype, code))
        out.append(gpu_case(32, 1080, 1920, 3, "u8", code, pitch=6144,
                            name=f"32x1080x1920x3 u8 pitched 6144, flipCode {code}",
                            note="rows of 5760 bytes read at a 6144-byte pitch, written packed"))
    for code in (0, 1):
        out += sweep(lambda n, h, w, code=code: gpu_case(n, h, w, 3, "u8", code, name=f"{n}x{h}x{w}x3 u8, flipCode {code} (sweep)"),
                     plot=f"u8x3, flipCode {code}")
    for c in out:  # the sweep's table-size point duplicates a row above
        if c.name.endswith("(sweep)") and c.name.startswith("32x1080x1920x3"):
            c.table = False
    return out + host_cases()


# Host time per call of the Python layer, GPU idle: 1x224x224x3 uint8 NHWC, on one cv.Stream() made beforehand.
HOST_SHAPE = (1, 224, 224, 3)


def _host(name, bind, bind_torch=None, torch_name="", requires=("flip",)):
    return Case(op="host", name=name, kind="host",
                tensors={"src": Spec("in", HOST_SHAPE, "u8", "NHWC"), "dst": Spec("out", HOST_SHAPE, "u8", "NHWC"),
                         "raw": Spec("in", HOST_SHAPE, "u8", None)},
                requires=requires, bind=bind, bind_torch=bind_torch, torch_name=torch_name)


def host_cases():
    return [
        _host("flip_into(dst, src, 1, stream=s)",
              lambda cv, t, s: (lambda: cv.flip_into(t["dst"], t["src"], 1, stream=s)), requires=("flip_into",)),
        _host("flip(src, 1, stream=s)", lambda cv, t, s: (lambda: cv.flip(t["src"], 1, stream=s)),
              bind_torch=lambda T, t: (lambda: T.torch.flip(t["raw"], (2,))), torch_name="torch.flip(x, [2])"),
        _host("as_tensor(torch tensor, 'NHWC')", lambda cv, t, s: (lambda: cv.as_tensor(t["raw"], "NHWC")),
              requires=("as_tensor",)),
        _host("as_tensor(torch tensor, 'NHWC') then flip",
              lambda cv, t, s: (lambda: cv.flip(cv.as_tensor(t["raw"], "NHWC"), 1, stream=s)),
              requires=("flip", "as_tensor")),
        _host("Stream()", lambda cv, t, s: (lambda: cv.Stream()), requires=("Stream",),
              bind_torch=lambda T, t: (lambda: T.torch.cuda.Stream()), torch_name="torch.cuda.Stream()"),
        _host("Tensor.cuda()", lambda cv, t, s: (lambda: t["src"].cuda()), requires=("as_tensor",)),
    ]
