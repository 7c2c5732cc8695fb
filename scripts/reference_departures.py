"""Why a resize departs from OpenCV where scripts/reference_agreement.py found it so: reads the outputs that script kept
(--keep) and tests the departures a formula can explain against that formula (nearest, LINEAR) and shows the AREA
enlargement's outputs. Runs on the CPU (numpy, cv2, and this library's package for the case tables of
tests/python/resize_cases.py); docs/resize-agreement.md quotes what it prints.

  python3 scripts/reference_agreement.py --reference /tmp/cvref --keep-dir DIR \\
      --keep "C1 (960x1280->225x300|534x800->224x224|1x1->7x5|8x6->64x48)"      # on the GPU machine
  PYTHONPATH=bindings/python CVCUDA_C_LIBRARY=build/libcvcuda_c.so.1 \\
      python3 scripts/reference_departures.py [--label TEXT] DIR/outputs-this-library-*.npz DIR/outputs-CV-CUDA-*.npz

- nearest: the source index each output takes, as OpenCV computes it (cv2.resize of an index ramp: INTER_NEAREST_EXACT
  in 16.16 fixed point, INTER_NEAREST as floor(x * (1 / (dst / src))) in double) and as the exact formulas give it
  (floor((x + 1/2) * src / dst) and floor(x * src / dst) in integers); which of them each library's output equals,
  and where the two differ (the exact source position there);
- LINEAR on 16-bit and float inputs: OpenCV's bilinear with its source coordinates (x + 1/2) * src / dst - 1/2 in
  double and the same in float32, each library's largest difference to both;
- AREA enlarging: each library's output of a 1x1 image (every interpolation gives the pixel itself) and how many
  values of the 8x6 -> 64x48 case equal cv2's.
"""

import importlib.util
import pathlib
import sys

import numpy as np

HERE = pathlib.Path(__file__).resolve().parent
_spec = importlib.util.spec_from_file_location("reference_agreement", HERE / "reference_agreement.py")
ra = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(ra)  # its case table, inputs and .npz format (and tests/python on sys.path)
import resize_cases as rc  # noqa: E402


def case_input(cid):
    """(input batch, dst HW) of reference_agreement's case `cid` (the same seeded numbers the GPU run used)."""
    for c, _, dtype, channels, src, dst, seed in ra.resize_cases(rc):
        if c == cid:
            return ra.image(rc, seed, (ra.BATCH, *src, channels), dtype), dst
    raise KeyError(cid)


def exact_index(src, dst, centre):
    """Exact source index of each output: floor((x + 1/2) * src / dst) or floor(x * src / dst), clamped."""
    x = np.arange(dst)
    return np.minimum(((2 * x + 1) * src) // (2 * dst) if centre else (x * src) // dst, src - 1)


def opencv_index(cv2, src, dst, flag):
    """The source index cv2.resize takes for each output (a float32 ramp of the indices resized)."""
    ramp = np.repeat(np.arange(src, dtype=np.float32)[None, :], 2, 0)
    return cv2.resize(ramp, (dst, 2), interpolation=flag)[0].astype(np.int64)


def gather(x, rows, cols):
    return x[:, rows[:, None], cols[None, :]]


def nearest(cv2, sides, cid, centre):
    x, (dh, dw) = case_input(cid)
    flag = cv2.INTER_NEAREST_EXACT if centre else cv2.INTER_NEAREST
    opencv = [opencv_index(cv2, s, d, flag) for s, d in ((x.shape[1], dh), (x.shape[2], dw))]
    exact = [exact_index(s, d, centre) for s, d in ((x.shape[1], dh), (x.shape[2], dw))]
    print(f"{cid} (OpenCV {'INTER_NEAREST_EXACT' if centre else 'INTER_NEAREST'}):")
    for side, out in sides.items():
        print(f"  {side}: equals OpenCV's indices {np.array_equal(out[cid], gather(x, *opencv))}, "
              f"the exact formula's {np.array_equal(out[cid], gather(x, *exact))}")
    for axis, (a, b, d, s) in enumerate(zip(opencv, exact, (dh, dw), x.shape[1:3])):
        where = np.nonzero(a != b)[0]
        pos = [f"{(2 * i + 1) * s / (2 * d) if centre else i * s / d:g}" for i in where[:4]]
        print(f"  {'rows' if axis == 0 else 'columns'}: {len(where)} of {d} differ, e.g. output {where[:4].tolist()}: "
              f"OpenCV {a[where[:4]].tolist()}, exact {b[where[:4]].tolist()} (exact source position {pos})")


def bilinear(x, dst, coord):
    """OpenCV's bilinear (edge clamped) in float64 with the source coordinates computed in `coord` (float64/32)."""
    def axis(s, d):
        i = np.arange(d)
        if coord == np.float32:
            t = ((i.astype(np.float32) + np.float32(0.5)) * np.float32(s / d) - np.float32(0.5)).astype(np.float64)
        else:
            t = (i + 0.5) * (s / d) - 0.5
        f = np.floor(t)
        w = np.where(f < 0, 0.0, t - f)
        return np.clip(f, 0, s - 1).astype(int), np.clip(f + 1, 0, s - 1).astype(int), w
    (r0, r1, wy), (c0, c1, wx) = axis(x.shape[1], dst[0]), axis(x.shape[2], dst[1])
    xf = x.astype(np.float64)
    wx, wy = wx[None, None, :, None], wy[None, :, None, None]
    top = gather(xf, r0, c0) * (1 - wx) + gather(xf, r0, c1) * wx
    bottom = gather(xf, r1, c0) * (1 - wx) + gather(xf, r1, c1) * wx
    out = top * (1 - wy) + bottom * wy
    return np.rint(out) if x.dtype.kind in "ui" else out


def linear(sides, cid):
    x, dst = case_input(cid)
    models = {name: bilinear(x, dst, coord) for name, coord in (("double", np.float64), ("float32", np.float32))}
    print(f"{cid}: largest |output - bilinear model| by how the model computes source coordinates")
    for side, out in sides.items():
        o = out[cid].astype(np.float64)
        print(f"  {side}: " + ", ".join(f"{name} {np.abs(o - m).max():g}" for name, m in models.items()))


def area_enlarging(cv2, sides):
    cid = "resize AREA uint8 C1 1x1->7x5"
    x, _ = case_input(cid)
    print(f"{cid}: the input pixels {x[:, 0, 0, 0].tolist()}; every output should be its image's pixel")
    for side, out in sides.items():
        values = [sorted(set(out[cid][n].ravel().tolist())) for n in range(len(x))]
        print(f"  {side}: values per image {values}; the first image's output:")
        print("\n".join("    " + " ".join(f"{v:3d}" for v in row) for row in out[cid][0, :, :, 0].tolist()))
    cid = "resize AREA uint8 C1 8x6->64x48"
    x, (dh, dw) = case_input(cid)
    want = np.stack([cv2.resize(img, (dw, dh), interpolation=cv2.INTER_AREA)[:, :, None] for img in x])
    for side, out in sides.items():
        o = out[cid]
        print(f"  {cid}, {side}: {int((np.abs(o.astype(int) - want) <= 1).sum())} of {o.size} values within 1 of "
              f"cv2's, {int((o == 255).sum())} equal 255 (cv2's: {int((want == 255).sum())})")


def main(args):
    import cv2
    label = ""
    if args[:1] == ["--label"]:
        label, args = f"{args[1]}; ", args[2:]
    sides = {pathlib.Path(p).stem.removeprefix("outputs-"): ra.load(p) for p in args}
    print(f"{label}OpenCV {cv2.__version__}; outputs from {', '.join(pathlib.Path(p).name for p in args)}\n")
    nearest(cv2, sides, "resize NEAREST uint8 C1 960x1280->225x300", centre=True)
    nearest(cv2, sides, "resize NEAREST_FLOOR uint8 C1 534x800->224x224", centre=False)
    for cid in ("resize LINEAR uint16 C1 534x800->224x224", "resize LINEAR uint16 C1 960x1280->225x300",
                "resize LINEAR float32 C1 960x1280->225x300"):
        linear(sides, cid)
    area_enlarging(cv2, sides)
    return 0


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1:]))
