#!/usr/bin/env python3
"""PyTorch <-> cvcuda interop, end to end: photographs go from a PyTorch batch through cvcuda.flip on a cvcuda.Stream
and back to PyTorch, and the results are checked against torch.flip.

    python3 samples/interoperability/pytorch_interop.py                 # photographs bundled with scikit-image
    python3 samples/interoperability/pytorch_interop.py a.jpg b.png     # your own images
    python3 samples/interoperability/pytorch_interop.py --out sheet.png

Without arguments it uses four photographs shipped inside the installed scikit-image package (nothing is
downloaded). The images are centre-cropped to a common size and batched on the GPU as a uint8 NHWC tensor. Each
flipCode (OpenCV's convention: 0 flips rows, 1 columns, -1 both) runs on a cvcuda.Stream; each result comes back to
PyTorch and must equal torch.flip exactly. It writes a PNG contact sheet (one row of originals, one row per flipCode)
and prints a summary with cvcuda's counters.

Exit status: 0 when all three checks pass, 1 on a mismatch, 2 when it cannot run (no GPU, a missing package, an
unreadable image), with one line on stderr saying why.
"""

import argparse
import os
import sys

# flipCode -> the dims torch.flip must reverse in an NHWC batch (1 = H, 2 = W).
FLIP_DIMS = {0: [1], 1: [2], -1: [1, 2]}
FLIP_NAMES = {0: "rows (around the x-axis)", 1: "columns (around the y-axis)", -1: "both"}
# Photographs inside scikit-image's package directory (skimage.data.data_dir), read from there directly.
BUNDLED_PHOTOS = ("astronaut.png", "coffee.png", "chelsea.png", "rocket.jpg")
DEFAULT_OUT = "pytorch_interop_contact_sheet.png"


class CannotRun(Exception):
    """The sample cannot run here; the message is the one line printed."""


def parse_args(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("images", nargs="*", help="image files (default: photographs bundled with scikit-image)")
    parser.add_argument("--out", default=DEFAULT_OUT, help=f"contact sheet PNG to write (default: ./{DEFAULT_OUT})")
    return parser.parse_args(argv)


def import_gpu_stack():
    """torch with a usable GPU, and cvcuda."""
    try:
        import torch
    except ImportError:
        raise CannotRun("no GPU stack: PyTorch is not installed (this sample needs PyTorch with CUDA and an NVIDIA GPU)")
    if not torch.cuda.is_available():
        raise CannotRun("no GPU: torch.cuda.is_available() is False (this sample needs an NVIDIA GPU and its driver)")
    try:
        import cvcuda
    except ImportError as exc:
        raise CannotRun(f"cannot import cvcuda: {exc}")
    return torch, cvcuda


def photo_paths(paths):
    if paths:
        return list(paths)
    try:
        from skimage import data
    except ImportError:
        raise CannotRun("scikit-image is not installed: pip install scikit-image, or pass image paths")
    found = [os.path.join(data.data_dir, name) for name in BUNDLED_PHOTOS]
    missing = [p for p in found if not os.path.isfile(p)]
    if missing:
        raise CannotRun(f"photographs missing from the installed scikit-image: {', '.join(missing)}; pass image paths")
    return found


def load_batch(torch, paths):
    """The images as one uint8 NHWC tensor on the CPU, centre-cropped to the smallest height and width."""
    try:
        from PIL import Image
    except ImportError:
        raise CannotRun("Pillow is not installed: pip install Pillow")
    images = []
    for path in paths:
        try:
            with Image.open(path) as img:
                rgb = img.convert("RGB")
        except OSError as exc:
            raise CannotRun(f"cannot read image {path}: {exc}")
        hwc = torch.frombuffer(bytearray(rgb.tobytes()), dtype=torch.uint8)
        images.append(hwc.reshape(rgb.height, rgb.width, 3))
    h = min(img.shape[0] for img in images)
    w = min(img.shape[1] for img in images)

    def centre(img):
        top, left = (img.shape[0] - h) // 2, (img.shape[1] - w) // 2
        return img[top : top + h, left : left + w]

    return torch.stack([centre(img) for img in images])


def flip_on_cvcuda(torch, cvcuda, batch):
    """Each flipCode through cvcuda on its own stream; returns {flipCode: torch tensor}."""
    src = cvcuda.as_tensor(batch, "NHWC")  # zero-copy; PyTorch's CAI v2 names no stream: one device sync at first use
    stream = cvcuda.Stream()  # non-blocking: cvcuda orders it after PyTorch's work itself
    with stream:
        outs = {code: cvcuda.flip(src, code, stream=stream) for code in FLIP_DIMS}
    stream.sync()  # torch.as_tensor ignores the CAI stream: results must be complete before PyTorch reads them
    # torch.as_tensor shares cvcuda's memory; .clone() gives PyTorch its own buffer (one device-to-device copy).
    return {code: torch.as_tensor(out.cuda(), device="cuda").clone() for code, out in outs.items()}


def contact_sheet(batch, flipped, path):
    """Rows: the originals, then one row per flipCode; one column per image."""
    from PIL import Image, ImageDraw

    label_width, gap = 100, 4
    n, h, w, _ = batch.shape
    rows = [("original", batch)] + [(f"flipCode {code}", flipped[code]) for code in FLIP_DIMS]
    sheet = Image.new("RGB", (label_width + n * (w + gap), len(rows) * (h + gap)), "white")
    draw = ImageDraw.Draw(sheet)
    for r, (label, images) in enumerate(rows):
        y = r * (h + gap)
        draw.text((8, y + h // 2), label, fill="black")
        host = images.cpu().contiguous()
        for i in range(n):
            tile = Image.frombytes("RGB", (w, h), host[i].numpy().tobytes())
            sheet.paste(tile, (label_width + i * (w + gap), y))
    sheet.save(path, format="PNG")


def run(args):
    torch, cvcuda = import_gpu_stack()
    paths = photo_paths(args.images)
    batch = load_batch(torch, paths).cuda()
    try:
        cvcuda.reset_stats()
        flipped = flip_on_cvcuda(torch, cvcuda, batch)
        counters = cvcuda.stats()
    except cvcuda.NoDeviceError as exc:
        raise CannotRun(f"no GPU for cvcuda: {exc}")
    ok = {code: torch.equal(flipped[code], torch.flip(batch, dims)) for code, dims in FLIP_DIMS.items()}
    try:
        contact_sheet(batch, flipped, args.out)
    except OSError as exc:
        raise CannotRun(f"cannot write the contact sheet {args.out}: {exc}")

    print(f"images: {len(paths)} ({', '.join(os.path.basename(p) for p in paths)})")
    print(f"batch: uint8 NHWC {tuple(batch.shape)} on {torch.cuda.get_device_name(batch.device)}")
    for code, dims in FLIP_DIMS.items():
        verdict = "OK" if ok[code] else "MISMATCH"
        print(f"flipCode {code:>2} {FLIP_NAMES[code]:<27} vs torch.flip(dims={dims}): {verdict}")
    print("cvcuda.stats(): " + ", ".join(f"{name}={value}" for name, value in counters.items()))
    print(f"contact sheet: {os.path.abspath(args.out)}")
    return 0 if all(ok.values()) else 1


def main(argv=None):
    args = parse_args(argv)
    try:
        return run(args)
    except CannotRun as exc:
        print(f"pytorch_interop: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
