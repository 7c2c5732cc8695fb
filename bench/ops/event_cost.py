"""Diagnostic rows: what one CUDA event recorded after each kernel adds to the per-call GPU time of back-to-back
small kernels. Our hazard engine records one after every operator call (core/hazards.cpp); the reference library and
torch do not. torch.flip with and without an event record (cudaEventDisableTiming, as ours) after each call; the
difference, against the flip rows' ours-vs-CV-CUDA gap, says how much of that gap the event is."""
from .common import Case, Spec

OP = "event cost"


def case(n, h, w, record):
    shape = (n, h, w, 3)

    def bind_torch(T, t):
        src, torch = t["src"], T.torch
        if not record:
            return lambda: torch.flip(src, (2,))
        event = torch.cuda.Event()

        def call():
            torch.flip(src, (2,))
            event.record()
        return call

    return Case(op=OP, name=f"torch.flip {n}x{h}x{w}x3 u8" + (", then an event record" if record else ""),
                tensors={"src": Spec("in", shape, "u8", None)}, bind_torch=bind_torch, headline=False,
                torch_name="torch.flip (+ torch.cuda.Event().record())", traffic=2 * n * h * w * 3)


def cases():
    return [case(n, h, w, record) for n, h, w in ((1, 224, 224), (1, 1080, 1920)) for record in (False, True)]
