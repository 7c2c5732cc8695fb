#!/usr/bin/env python3
"""ImageNet preprocessing on the GPU with one fused cvcuda call per image, feeding a torchvision ResNet-50.

    python3 samples/classification/preprocess.py                       # photographs bundled with scikit-image
    python3 samples/classification/preprocess.py a.jpg b.png --batch 64
    python3 samples/classification/preprocess.py --reference /path/to/site-packages-with-reference-cvcuda

Photographs (of different sizes) are decoded once and uploaded to the GPU as uint8 HWC tensors. A batch is --batch
of them (cycling through the photos). Each image is resized so that its shorter side is 256 (bilinear, aspect kept,
torchvision's size rule), centre-cropped to 224 x 224, converted to float32, scaled by 1/255 and normalised with
ImageNet's mean and std, written straight into its slice of an NCHW float32 batch: one
cvcuda.resize_crop_convert_reformat_into call per image, all on the torch stream that then runs a ResNet-50 (random
weights: nothing is downloaded). Tensors are wrapped once, before the timed batches, so a batch costs no host sync:
the sample counts cvcuda.stats()["deviceSyncs"] over the timed batches and fails if it is not 0.

It prints images/s of preprocessing alone and end to end (preprocessing + ResNet-50 forward, fp32) for ours and for
torchvision v2 (resize(256, bilinear, antialias=False) -> center_crop -> to_dtype -> normalize, per image, then
stack), and the largest difference between the two preprocessed batches (OpenCV's uint8 bilinear rounding against
PyTorch's float interpolation: within a uint8 step, 1/255/std). With --reference DIR it runs the same preprocessing
with the reference library (CV-CUDA, importable from DIR) in a child process and prints its figures.

Exit status: 0 on success, 1 when the two batches disagree by more than a uint8 step or a batch needed a host sync,
2 when it cannot run (no GPU, a missing package, an unreadable image), with one line on stderr saying why.
"""

import argparse
import json
import os
import subprocess
import sys

BUNDLED_PHOTOS = ("astronaut.png", "coffee.png", "chelsea.png", "rocket.jpg")
MEAN, STD = (0.485, 0.456, 0.406), (0.229, 0.224, 0.225)
RESIZE_SHORT, CROP = 256, 224


class CannotRun(Exception):
    """The sample cannot run here; the message is the one line printed."""


def parse_args(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("images", nargs="*", help="image files (default: photographs bundled with scikit-image)")
    parser.add_argument("--batch", type=int, default=32, help="images per batch (default 32)")
    parser.add_argument("--batches", type=int, default=20, help="timed batches (default 20)")
    parser.add_argument("--reference", metavar="DIR", help="directory from which the reference CV-CUDA imports")
    parser.add_argument("--reference-child", action="store_true", help=argparse.SUPPRESS)
    return parser.parse_args(argv)


def import_torch():
    try:
        import torch
        import torchvision  # noqa: F401
    except ImportError:
        raise CannotRun("this sample needs PyTorch and torchvision with CUDA")
    if not torch.cuda.is_available():
        raise CannotRun("no GPU: torch.cuda.is_available() is False")
    return torch


def photo_paths(paths):
    if paths:
        return list(paths)
    try:
        from skimage import data
    except ImportError:
        raise CannotRun("scikit-image is not installed: pip install scikit-image, or pass image paths")
    return [os.path.join(data.data_dir, name) for name in BUNDLED_PHOTOS]


def load_photos(torch, paths):
    """Each photo as a uint8 HWC tensor on the GPU (decoded with torchvision.io)."""
    from torchvision.io import ImageReadMode, read_image

    photos = []
    for path in paths:
        try:
            chw = read_image(path, ImageReadMode.RGB)
        except (RuntimeError, OSError) as exc:
            raise CannotRun(f"cannot read image {path}: {exc}")
        photos.append(chw.permute(1, 2, 0).contiguous().cuda())
    torch.cuda.synchronize()
    return photos


def geometry(h, w):
    """torchvision's Resize(256) size (shorter side 256, longer truncated) and the centre crop's corner."""
    if w <= h:
        rw, rh = RESIZE_SHORT, int(RESIZE_SHORT * h / w)
    else:
        rh, rw = RESIZE_SHORT, int(RESIZE_SHORT * w / h)
    # torchvision's center_crop: top = int(round((h - crop) / 2.0))
    return (rw, rh), (int(round((rw - CROP) / 2.0)), int(round((rh - CROP) / 2.0)))


def timed(torch, stream, fn, batches):
    """GPU seconds per batch over `batches` calls of fn on `stream` (CUDA events)."""
    fn()
    torch.cuda.synchronize()
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    with torch.cuda.stream(stream):
        start.record(stream)
        for _ in range(batches):
            fn()
        end.record(stream)
    end.synchronize()
    return start.elapsed_time(end) / 1e3 / batches


def ours(torch, cvcuda, images, out, stream):
    """The per-batch function of cvcuda's fused pass, with every tensor wrapped once up front."""
    cv_stream = cvcuda.as_stream(stream)
    if hasattr(cvcuda, "from_dlpack"):
        # DLPack carries our stream to PyTorch, which orders its pending work before it: no host sync at all.
        def wrap(t, layout):
            return cvcuda.from_dlpack(t, layout, stream=cv_stream)
    else:
        # This cvcuda has no DLPack import: a torch tensor's CAI names no stream, so each wrapper costs one device
        # sync at its first use (here, in the warm-up batch); later batches are ordered by the shared stream alone.
        wrap = cvcuda.as_tensor
    srcs = [wrap(img, "HWC") for img in images]
    dsts = [wrap(out[i], "CHW") for i in range(len(images))]
    plans = [geometry(img.shape[0], img.shape[1]) for img in images]

    def run():
        for src, dst, (size, corner) in zip(srcs, dsts, plans):
            cvcuda.resize_crop_convert_reformat_into(dst, src, size, cvcuda.Interp.LINEAR, corner, scale=1 / 255,
                                                     mean=MEAN, std=STD, stream=cv_stream)
    return run


def torchvision_chain(torch, images, out):
    from torchvision.transforms.v2 import functional as tvf

    chws = [img.permute(2, 0, 1) for img in images]

    def run():
        for i, chw in enumerate(chws):
            r = tvf.resize(chw, [RESIZE_SHORT], antialias=False)
            r = tvf.center_crop(r, [CROP, CROP])
            out[i] = tvf.normalize(tvf.to_dtype(r, torch.float32, scale=True), MEAN, STD)
    return run


def reference_chain(torch, images, out, stream):
    """The reference library's fused call (no per-channel normalisation: torch does it after)."""
    import cvcuda as ref

    ref_stream = ref.as_stream(stream) if hasattr(ref, "as_stream") else ref.Stream.current
    srcs = [ref.as_tensor(img, "HWC") for img in images]
    plans = [geometry(img.shape[0], img.shape[1]) for img in images]
    mean = torch.tensor(MEAN, device="cuda").view(3, 1, 1)
    std = torch.tensor(STD, device="cuda").view(3, 1, 1)

    def run():
        for i, (src, ((rw, rh), (x, y))) in enumerate(zip(srcs, plans)):
            t = ref.resize_crop_convert_reformat(src, (rw, rh), ref.Interp.LINEAR, ref.RectI(x, y, CROP, CROP),
                                                 layout="CHW", data_type=ref.Type.F32, scale=1 / 255, stream=ref_stream)
            out[i] = (torch.as_tensor(t.cuda(), device="cuda") - mean) / std
    return run


def run_reference_child(args, torch):
    """In the child process: time the reference's preprocessing and print one JSON line."""
    images = batch_images(torch, load_photos(torch, photo_paths(args.images)), args.batch)
    out = torch.empty((args.batch, 3, CROP, CROP), device="cuda")
    stream = torch.cuda.Stream()
    t = timed(torch, stream, reference_chain(torch, images, out, stream), args.batches)
    print(json.dumps({"preprocess_s": t}))


def batch_images(torch, photos, n):
    return [photos[i % len(photos)] for i in range(n)]


def main(argv):
    args = parse_args(argv)
    torch = import_torch()
    if args.reference_child:
        run_reference_child(args, torch)
        return 0
    try:
        import cvcuda
    except ImportError as exc:
        raise CannotRun(f"cannot import cvcuda: {exc}")
    import torchvision

    photos = load_photos(torch, photo_paths(args.images))
    images = batch_images(torch, photos, args.batch)
    stream = torch.cuda.Stream()
    model = torchvision.models.resnet50(weights=None).cuda().eval()
    out_ours = torch.empty((args.batch, 3, CROP, CROP), device="cuda")
    out_tv = torch.empty_like(out_ours)
    pre_ours, pre_tv = ours(torch, cvcuda, images, out_ours, stream), torchvision_chain(torch, images, out_tv)

    def end_to_end(pre, out):
        def run():
            pre()
            with torch.no_grad():
                model(out)
        return run

    with torch.cuda.stream(stream):
        pre_ours()  # warm-up: the wrappers' first use (their one defensive sync each)
    torch.cuda.synchronize()
    before = cvcuda.stats()["deviceSyncs"]
    t_ours = timed(torch, stream, pre_ours, args.batches)
    t_ours_e2e = timed(torch, stream, end_to_end(pre_ours, out_ours), args.batches)
    syncs = cvcuda.stats()["deviceSyncs"] - before
    t_tv = timed(torch, stream, pre_tv, args.batches)
    t_tv_e2e = timed(torch, stream, end_to_end(pre_tv, out_tv), args.batches)
    torch.cuda.synchronize()
    diff = (out_ours - out_tv).abs().max().item()
    step = 1 / 255 / min(STD)

    b = args.batch
    print(f"{len(photos)} photographs, batches of {b}, {args.batches} timed batches, {torch.cuda.get_device_name()}")
    print(f"| pipeline | preprocess images/s | end-to-end images/s (ResNet-50 fp32) |")
    print(f"|---|---|---|")
    print(f"| cvcuda (fused, one call per image) | {b / t_ours:,.0f} | {b / t_ours_e2e:,.0f} |")
    print(f"| torchvision v2 (GPU) | {b / t_tv:,.0f} | {b / t_tv_e2e:,.0f} |")
    if args.reference:
        env = dict(os.environ, PYTHONPATH=os.pathsep.join([args.reference, os.environ.get("PYTHONPATH", "")]))
        child = subprocess.run([sys.executable, __file__, "--reference-child", "--batch", str(b), "--batches",
                                str(args.batches), *args.images], env=env, capture_output=True, text=True)
        if child.returncode == 0:
            t_ref = json.loads(child.stdout.strip().splitlines()[-1])["preprocess_s"]
            print(f"| reference CV-CUDA (fused + torch normalize) | {b / t_ref:,.0f} | - |")
        else:
            print(f"reference run failed: {child.stderr.strip().splitlines()[-1] if child.stderr else child.returncode}")
    print(f"host syncs during the timed cvcuda batches: {syncs} (cvcuda.stats()['deviceSyncs'])")
    print(f"max |ours - torchvision| over the batch: {diff:.5f} (a uint8 step after normalisation: {step:.5f})")
    if syncs != 0 or diff > step + 1e-5:
        return 1
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except CannotRun as exc:
        print(f"preprocess.py: {exc}", file=sys.stderr)
        sys.exit(2)
