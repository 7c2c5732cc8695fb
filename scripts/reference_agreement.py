"""Where this library and the reference library (CV-CUDA 0.19) agree with OpenCV's and torchvision's resize, case by
case, on the GPU; the results are in docs/resize-agreement.md.

  PYTHONPATH=bindings/python CVCUDA_C_LIBRARY=build/libcvcuda_c.so.1 \
      python3 scripts/reference_agreement.py [--reference DIR] [--json FILE] [--keep REGEX [--keep-dir DIR]]

DIR holds the reference's `cvcuda` package (bench/run.sh unpacks the tarball to /tmp/cvref). Both libraries run the
same cases on the same inputs: ours in this process, the reference in a child process whose `import cvcuda` is the
reference (the two packages share the name), each input made from its case's seed by numpy's PCG64 in both.
- `resize` against `cv2.resize`, one image at a time: every interpolation of tests/python/resize_cases.py's CV2_INTERP
  (NEAREST is OpenCV's INTER_NEAREST_EXACT, NEAREST_FLOOR its INTER_NEAREST) x its DTYPES x 1, 3 and 4 channels x its
  SIZES, NHWC batches of 2 (inputs and outputs held by CuPy, which has every dtype); the nearest rows are also compared
  with the other nearest convention.
- `tvresize` against `torchvision.transforms.v2.functional.resize`: resize_cases' TV_MODES x antialias (not for nearest)
  x uint8 and float32 x TV_SIZES, NCHW batches of 2, 3 channels.
The rule is resize_cases.outside_rule, the one the GPU tests hold this library to (integers within 1, float32 1e-4
relative plus the float rounding of the sum). A call that raises is recorded with its message. Prints one markdown
table per operator (a row per interpolation and dtype: cases within the rule, worst difference, the cases outside) and
with --json writes every case's figures. Exit status 0 when it ran (whatever it found), 2 when it could not start or
the reference's worker failed (this library's table is still printed and written).
"""

import argparse
import functools
import itertools
import json
import os
import pathlib
import re
import subprocess
import sys
import tempfile

import numpy as np

HERE = pathlib.Path(__file__).resolve().parent
TESTS = HERE.parent / "tests" / "python"
sys.path.insert(0, str(TESTS))  # resize_cases: the tables and the rule the GPU tests use
sys.path.insert(0, str(HERE.parent / "bench"))  # the reference worker's environment and the commit, as bench/run.py's

from commit import commit_name  # noqa: E402
from reference_env import reference_env  # noqa: E402

BATCH = 2
CHANNELS = (1, 3, 4)
NEAREST_OTHER = {"NEAREST": "NEAREST_FLOOR", "NEAREST_FLOOR": "NEAREST"}  # the other nearest convention
MISSING = "error: no output (the worker did not write this case)"


def resize_cases(rc):
    """(case id, interp name, dtype, channels, src HW, dst HW, seed) of every resize case, inputs shared across interps."""
    for (si, (src, dst)), (di, dtype), channels in itertools.product(enumerate(rc.SIZES), enumerate(rc.DTYPES), CHANNELS):
        for interp in rc.CV2_INTERP:
            name = interp.name
            yield (f"resize {name} {np.dtype(dtype).name} C{channels} {src[0]}x{src[1]}->{dst[0]}x{dst[1]}", name,
                   np.dtype(dtype), channels, src, dst, (si, di, channels))


def tv_cases(rc):
    """(case id, torchvision mode, antialias, dtype, src HW, dst HW, seed) of every tvresize case."""
    for (si, (src, dst)), (di, dtype), mode, aa in itertools.product(enumerate(rc.TV_SIZES),
                                                                      enumerate((np.uint8, np.float32)),
                                                                      rc.TV_MODES, (True, False)):
        if mode.startswith("NEAREST") and not aa:
            continue  # antialias does not apply to nearest
        yield (f"tvresize {mode} aa{int(aa)} {np.dtype(dtype).name} {src[0]}x{src[1]}->{dst[0]}x{dst[1]}", mode, aa,
               np.dtype(dtype), src, dst, (100 + si, di))


@functools.lru_cache(maxsize=2)  # the cases of one input come in a row (the interpolations innermost)
def image(rc, seed, shape, dtype):
    """The case's input: resize_cases.random_image from numpy's PCG64 seeded with `seed` (the same in both processes)."""
    return rc.random_image(np.random.default_rng(seed), shape, dtype)


def run_library(rc, cvcuda):
    """Every case's output from the `cvcuda` imported here (ours, or the reference in the child): {id: array or
    'error: ...'}."""
    import cupy
    import torch

    def call(fn):
        try:
            return fn()
        except Exception as e:  # the reference refuses some dtype or interpolation: recorded, not fatal
            return f"error: {type(e).__name__}: {e}"

    out = {}
    for cid, interp, dtype, channels, src, dst, seed in resize_cases(rc):
        x = cupy.asarray(image(rc, seed, (BATCH, *src, channels), dtype))
        cupy.cuda.get_current_stream().synchronize()

        def resize():
            y = cvcuda.resize(cvcuda.as_tensor(x, "NHWC"), (BATCH, *dst, channels), getattr(cvcuda.Interp, interp))
            cupy.cuda.runtime.deviceSynchronize()
            return cupy.asnumpy(cupy.asarray(y.cuda()))
        out[cid] = call(resize)
    for cid, mode, aa, dtype, src, dst, seed in tv_cases(rc):
        x = torch.from_numpy(image(rc, seed, (BATCH, 3, *src), dtype)).cuda()
        torch.cuda.synchronize()

        def tvresize():
            y = cvcuda.tvresize(cvcuda.as_tensor(x, "NCHW"), tuple(dst), getattr(cvcuda.Interp, rc.TV_INTERP[mode].name),
                                antialias=aa)
            torch.cuda.synchronize()
            return torch.as_tensor(y.cuda(), device="cuda").cpu().numpy()
        out[cid] = call(tvresize)
    return out


def expected_outputs(rc):
    """cv2.resize's and torchvision's outputs of every case: {id: array}, and for nearest resize cases also
    {id + ' (other nearest)': the other convention's}."""
    import cv2
    import torch
    from torchvision.transforms import InterpolationMode
    from torchvision.transforms.v2 import functional as tvf

    by_name = {interp.name: interp for interp in rc.CV2_INTERP}
    want = {}
    for cid, interp, dtype, channels, src, dst, seed in resize_cases(rc):
        x = image(rc, seed, (BATCH, *src, channels), dtype)
        for key, name in ((cid, interp), (cid + " (other nearest)", NEAREST_OTHER.get(interp))):
            if name:
                want[key] = np.stack([rc.cv2_resize(cv2, img, dst, by_name[name]) for img in x])
    for cid, mode, aa, dtype, src, dst, seed in tv_cases(rc):
        x = torch.from_numpy(image(rc, seed, (BATCH, 3, *src), dtype)).cuda()
        want[cid] = tvf.resize(x, list(dst), interpolation=getattr(InterpolationMode, mode), antialias=aa).cpu().numpy()
    return want


def compare(rc, got, want, scale, taps):
    """{'ok': bool, 'outside': count, 'of': count, 'max_diff': float} of one output, or the error it raised."""
    if isinstance(got, str):
        return {"error": got}
    if got.shape != want.shape or got.dtype != want.dtype:
        return {"ok": False, "error": f"{got.dtype} {got.shape}, expected {want.dtype} {want.shape}"}
    bad, diff = rc.outside_rule(got, want, scale, taps)
    return {"ok": not bad.any(), "outside": int(bad.sum()), "of": int(bad.size),
            "max_diff": float(np.max(diff, initial=0.0, where=~np.isnan(diff))), "nan": bool(np.isnan(diff).any())}


def reference_outputs(reference):
    """The reference's outputs, from a child process running this script with --worker in reference_env; raises
    RuntimeError when the worker fails."""
    env = reference_env(reference, os.environ)
    with tempfile.TemporaryDirectory() as tmp:
        path = pathlib.Path(tmp) / "reference.npz"
        proc = subprocess.run([sys.executable, __file__, "--worker", str(path), "--reference", reference], env=env)
        if proc.returncode != 0 or not path.exists():
            raise RuntimeError(f"the reference's worker failed (exit {proc.returncode})")
        return load(path)


def save(path, outputs):
    """Writes {id: array or text} to an .npz: the arrays under their own names, the ids and texts in an index."""
    index = {k: ({"text": v} if isinstance(v, str) else {"array": f"a{i}"}) for i, (k, v) in enumerate(outputs.items())}
    arrays = {entry["array"]: outputs[k] for k, entry in index.items() if "array" in entry}
    np.savez(path, index=np.array(json.dumps(index)), **arrays)


def load(path):
    """What save wrote, in its order."""
    with np.load(path) as z:
        index = json.loads(str(z["index"]))
        return {k: (z[entry["array"]] if "array" in entry else entry["text"]) for k, entry in index.items()}


def case_figures(rc, outputs, want):
    """{id: comparison} of one library's outputs, with the nearest cases' comparison with the other convention."""
    figures = {}
    for cid, interp, dtype, channels, src, dst, seed in resize_cases(rc):
        # the source's magnitude enters the float rule only (integers: within 1 whatever the scale)
        x_scale = rc.magnitude(image(rc, seed, (BATCH, *src, channels), dtype)) if dtype.kind == "f" else 1.0
        got = outputs.get(cid, MISSING)
        figures[cid] = compare(rc, got, want[cid], x_scale, 0)
        if interp in NEAREST_OTHER:
            figures[cid]["other_nearest"] = compare(rc, got, want[cid + " (other nearest)"], x_scale, 0)
    for cid, mode, aa, dtype, src, dst, seed in tv_cases(rc):
        x_scale = rc.magnitude(image(rc, seed, (BATCH, 3, *src), dtype))
        figures[cid] = compare(rc, outputs.get(cid, MISSING), want[cid], x_scale, rc.window_taps(mode, aa, src, dst))
    return figures


def table_rows(rc):
    """{(operator, interpolation, dtype): [case ids]}: the rows of summary's table."""
    rows = {}
    for cid, interp, dtype, *_ in resize_cases(rc):
        rows.setdefault(("resize", interp, dtype.name), []).append(cid)
    for cid, mode, aa, dtype, *_ in tv_cases(rc):
        name = mode if mode.startswith("NEAREST") else f"{mode}, antialias {aa}"
        rows.setdefault(("tvresize", name, dtype.name), []).append(cid)
    return rows


def sizes_of(cid):
    """What a row's cell names of a case: its channels and sizes (resize) or its sizes (tvresize)."""
    return cid.split(" ", 3 if cid.startswith("resize ") else 4)[-1]


def summary(rows_of, sides, figures):
    """Markdown: a row per (operator, interpolation, dtype), a cell per side: within / cases, worst difference, and
    the cases outside (their sizes and channels) or the errors."""
    lines = ["| operator | interpolation | dtype | " + " | ".join(sides) + " |", "|---|---|---|" + "---|" * len(sides)]
    for key, ids in rows_of.items():
        cells = []
        for side in sides:
            f = [figures[side][i] for i in ids]
            within = sum(1 for r in f if r.get("ok"))
            errors = sorted({r["error"] for r in f if "error" in r and "ok" not in r})
            wrong = sorted({r["error"] for r in f if "error" in r and "ok" in r})
            worst = max((r["max_diff"] for r in f if "max_diff" in r), default=None)
            outside = [sizes_of(i) for i, r in zip(ids, f) if r.get("ok") is False]
            cell = f"{within}/{len(ids)}" + (f", worst {worst:g}" if worst is not None else "")
            if outside:
                cell += "; outside: " + ", ".join(outside[:6]) + (f" (+{len(outside) - 6})" if len(outside) > 6 else "")
            if errors:
                cell += "; raised: " + "; ".join(e[:120] for e in errors[:2])
            if wrong:
                cell += "; wrong output: " + "; ".join(wrong[:2])
            other = [r["other_nearest"] for r in f if "other_nearest" in r]
            if other:
                cell += f"; within the other nearest convention: {sum(1 for r in other if r.get('ok'))}/{len(other)}"
            cells.append(cell)
        lines.append("| " + " | ".join(key) + " | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--reference", help="folder holding the reference library's cvcuda package")
    ap.add_argument("--json", help="write every case's figures here")
    ap.add_argument("--keep", metavar="REGEX", help="also write the outputs of the cases whose id matches (re.search) to "
                    "--keep-dir, an .npz a side (read them with this script's load)")
    ap.add_argument("--keep-dir", default=".", help="folder for --keep (default: the current one)")
    ap.add_argument("--worker", help=argparse.SUPPRESS)  # the reference's child: writes its outputs to this .npz
    args = ap.parse_args()
    import cvcuda
    import resize_cases as rc
    if args.worker:
        where = pathlib.Path(cvcuda.__file__).resolve()
        if pathlib.Path(args.reference).resolve() not in where.parents:
            print(f"reference_agreement: `import cvcuda` found {where}, not the reference", file=sys.stderr)
            return 2
        save(args.worker, {"__version__": getattr(cvcuda, "__version__", "?"), **run_library(rc, cvcuda)})
        return 0
    if args.reference and not (pathlib.Path(args.reference) / "cvcuda" / "__init__.py").exists():
        print(f"reference_agreement: {args.reference} holds no cvcuda package", file=sys.stderr)
        return 2
    if args.keep:
        pathlib.Path(args.keep_dir).mkdir(parents=True, exist_ok=True)  # before the GPU work, not after it
    import cv2
    import torch
    import torchvision
    want = expected_outputs(rc)
    outputs = {f"this library ({cvcuda.__version__})": run_library(rc, cvcuda)}
    status, note = 0, ""
    if args.reference:
        try:
            theirs = reference_outputs(args.reference)
            outputs[f"CV-CUDA {theirs.pop('__version__')}"] = theirs
        except RuntimeError as e:
            status, note = 2, f"; the reference's column is missing: {e}"
            print(f"reference_agreement: {e}", file=sys.stderr)
    figures = {side: case_figures(rc, out, want) for side, out in outputs.items()}
    print(f"{torch.cuda.get_device_name()}; commit {commit_name(HERE.parent)[:7]}; OpenCV {cv2.__version__}, "
          f"torch {torch.__version__}, torchvision {torchvision.__version__}; batches of {BATCH}; cells: cases within "
          f"the rule / cases, the largest difference{note}\n")
    print(summary(table_rows(rc), list(outputs), figures))
    if args.json:
        pathlib.Path(args.json).write_text(json.dumps(figures, indent=1))
    if args.keep:
        for side, out in outputs.items():
            name = re.sub(r"[^A-Za-z0-9.]+", "-", side).strip("-")
            save(pathlib.Path(args.keep_dir) / f"outputs-{name}.npz", {k: v for k, v in out.items() if re.search(args.keep, k)})
    return status


if __name__ == "__main__":
    sys.exit(main())
