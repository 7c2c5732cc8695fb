"""cvcuda.tvresize_into of the benchmark's tv row (64x3x1080x1920 uint8 NCHW -> 256x455, antialiased bilinear), run a
few times and synchronised: the launch Nsight Compute profiles (the tiled path's kernel, resize_tv.cu).

  ncu -k regex:tv --launch-skip 1 --launch-count 1 python3 bench/probes/tv_resize_once.py
"""
import torch

import cvcuda

x = torch.randint(0, 256, (64, 3, 1080, 1920), dtype=torch.uint8, device="cuda")
y = torch.empty((64, 3, 256, 455), dtype=torch.uint8, device="cuda")
src, dst = cvcuda.as_tensor(x, "NCHW"), cvcuda.as_tensor(y, "NCHW")
s = cvcuda.Stream()
for _ in range(3):
    cvcuda.tvresize_into(dst, src, cvcuda.Interp.LINEAR, True, stream=s)
s.sync()
