#!/usr/bin/env python3
"""Distributed preprocessing with torchrun: one process per GPU, each preprocessing its shard of photographs with
cvcuda on its own GPU; the ranks all-gather one checksum per photograph and rank 0 checks them against a single-GPU
run of the same photographs (and against torch.flip).

    torchrun --standalone --nproc_per_node=2 samples/distributed/preprocess_ddp.py          # 2 GPUs of one host
    torchrun --standalone --nproc_per_node=1 samples/distributed/preprocess_ddp.py a.jpg    # 1 GPU, your images
    torchrun --nnodes=2 --nproc_per_node=8 --rdzv_backend=c10d --rdzv_endpoint=HOST:29400 \
        samples/distributed/preprocess_ddp.py                                               # see docs/distributed.md

Each rank selects its GPU from LOCAL_RANK (torch.cuda.set_device), wraps its photographs zero-copy
(cvcuda.as_tensor), and on a cvcuda.Stream of that GPU flips them (all three flipCodes, OpenCV's convention, checked
against torch.flip) and runs the fused preprocessing pass of a classifier (resize to 256 x 256, centre crop 224 x 224,
float32 CHW normalised with ImageNet's mean and std: cvcuda.resize_crop_convert_reformat); it hands the results back
to torch zero-copy and reduces each to an int64 checksum of its bytes. The checksums travel with NCCL (gloo when
CVCUDA_DDP_BACKEND=gloo). Without arguments it uses photographs bundled with scikit-image (nothing is downloaded).

Exit status: 0 when every rank's checksums equal the single-GPU run, 1 on a mismatch, 2 when it cannot run.
"""

import argparse
import os
import sys

BUNDLED_PHOTOS = ("astronaut.png", "coffee.png", "chelsea.png", "rocket.jpg", "motorcycle_left.png", "hubble_deep_field.jpg")
FLIP_DIMS = {0: [0], 1: [1], -1: [0, 1]}  # flipCode -> the HWC dims torch.flip reverses
RESIZE, CROP = 256, 224
MEAN, STD = (0.485, 0.456, 0.406), (0.229, 0.224, 0.225)  # ImageNet's, for RGB values in [0, 1]
CHECKSUMS = len(FLIP_DIMS) + 1  # per photograph: the three flips and the fused pass


def load_photos(paths):
    from skimage import io

    if not paths:
        import skimage.data

        paths = [os.path.join(skimage.data.data_dir, name) for name in BUNDLED_PHOTOS
                 if os.path.exists(os.path.join(skimage.data.data_dir, name))]
    photos = []
    for path in paths:
        image = io.imread(path)
        if image.ndim == 2:
            image = image[:, :, None].repeat(3, axis=2)
        photos.append(image[:, :, :3].copy())
    return paths, photos


def checksum(torch, image):
    """An int64 checksum that changes when any byte moves or changes: sum of value * (position mod 65521 + 1)."""
    flat = image.reshape(-1).to(torch.int64)
    weights = torch.arange(flat.numel(), device=flat.device, dtype=torch.int64) % 65521 + 1
    return int((flat * weights).sum())


def preprocess(torch, cvcuda, photo, device):
    """The checksums of the three flips and of the fused preprocessing of one photograph, computed with cvcuda on
    `device` (a stream of that device: the work runs there whatever the current device)."""
    import numpy

    src = torch.from_numpy(photo).to(device)
    stream = cvcuda.Stream(device=device)
    wrapped = cvcuda.as_tensor(src, "HWC")
    outs = [cvcuda.flip(wrapped, code, stream=stream) for code in FLIP_DIMS]
    corner = (RESIZE - CROP) // 2
    fused = cvcuda.resize_crop_convert_reformat(
        wrapped, (RESIZE, RESIZE), cvcuda.Interp.LINEAR, cvcuda.RectI(corner, corner, CROP, CROP), layout="CHW",
        data_type=numpy.float32, scale=1 / 255, mean=MEAN, std=STD, stream=stream)
    stream.sync()  # torch ignores the CAI stream: the results must be complete before torch reads them
    sums = []
    for code, out in zip(FLIP_DIMS, outs):
        back = torch.as_tensor(out.cuda(), device=device)
        if not torch.equal(back, torch.flip(src, FLIP_DIMS[code])):
            raise AssertionError(f"cvcuda.flip(flipCode={code}) differs from torch.flip on {device}")
        sums.append(checksum(torch, back))
    back = torch.as_tensor(fused.cuda(), device=device)
    if tuple(back.shape) != (3, CROP, CROP) or not bool(torch.isfinite(back).all()):
        raise AssertionError(f"cvcuda.resize_crop_convert_reformat gave shape {tuple(back.shape)} or non-finite values")
    sums.append(checksum(torch, back.view(torch.uint8)))  # its exact bytes: the same GPU code gives the same bits
    return sums


def main(argv) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("images", nargs="*", help="image files (default: photographs bundled with scikit-image)")
    args = parser.parse_args(argv)
    try:
        import torch
        import torch.distributed as dist
        import cvcuda
    except ImportError as exc:
        print(f"preprocess_ddp: cannot run: {exc}", file=sys.stderr)
        return 2
    if "LOCAL_RANK" not in os.environ or not torch.cuda.is_available():
        print("preprocess_ddp: cannot run: start it with torchrun on a machine with NVIDIA GPUs", file=sys.stderr)
        return 2
    local_rank = int(os.environ["LOCAL_RANK"])
    torch.cuda.set_device(local_rank)
    device = torch.device("cuda", local_rank)
    dist.init_process_group(os.environ.get("CVCUDA_DDP_BACKEND", "nccl"), device_id=device)
    rank, world = dist.get_rank(), dist.get_world_size()
    paths, photos = load_photos(args.images)

    mine = torch.zeros(len(photos), CHECKSUMS, dtype=torch.int64, device=device)
    for index in range(rank, len(photos), world):
        mine[index] = torch.tensor(preprocess(torch, cvcuda, photos[index], device))
    gathered = [torch.zeros_like(mine) for _ in range(world)]
    dist.all_gather(gathered, mine)
    status = 0
    if rank == 0:
        combined = sum(gathered)
        single = torch.tensor([preprocess(torch, cvcuda, p, device) for p in photos], device=device)
        equal = torch.equal(combined, single)
        print(f"preprocess_ddp: {len(photos)} photographs over {world} rank(s) on "
              f"{torch.cuda.device_count()} visible GPU(s); checksums "
              f"{'equal' if equal else 'DIFFER from'} the single-GPU run: {'PASS' if equal else 'FAIL'}")
        for path, row in zip(paths, combined.tolist()):
            print(f"  {os.path.basename(path)}: {row}")
        status = 0 if equal else 1
    flag = torch.tensor([status], device=device)
    dist.broadcast(flag, 0)
    dist.destroy_process_group()
    return int(flag.item())


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
