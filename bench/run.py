#!/usr/bin/env python3
"""The benchmark: every operator's rows (bench/ops/*.py), in one session on one GPU, side by side:
  ours (C API)   our libcvcuda_c through tests/abi/cvcuda_ctypes.py (rows that define bind_c)
  ours           our Python package `cvcuda`
  reference      CV-CUDA 0.19 (`--reference DIR`: DIR holds its `cvcuda` package), in its own process
  torch          torch / torchvision v2, where they have the operation
  copy           a device-to-device copy of the same number of bytes (read + written): the limit
GPU rows: GPU time per call with CUDA events, calls queued behind a spin kernel (no host gaps), median of 9 batches,
inputs rotated over enough buffer sets to leave L2 (bench/timing.py). Host rows: host time per call, GPU idle, median
of 12 batches of 2000 calls, after every GPU row, the sides taking turns batch by batch (the reference's worker process
stays alive for them and runs its batches when asked, HostPeer). Writes docs/perf.md's generated section and the plots
in docs/img/ (bench/report.py), and the raw results as JSON.

  python3 bench/run.py [--reference /tmp/cvref] [--only TEXT] [--lib build/libcvcuda_c.so.1]
  python3 bench/run.py --dry-run [--pyi PATH] [--out DIR]   # no GPU, no torch: checks rows, calls, report, plots
  python3 bench/run.py --report-only RESULTS.json           # rewrites docs/perf.md and the plots from a results file
bench/run.sh unpacks the reference library's tarball and runs this; scripts/gpu-check.sh runs bench/run.sh.
"""
import argparse
import datetime
import gc
import json
import math
import os
import pathlib
import select
import subprocess
import sys
import time
import types

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT / "tests" / "abi"))

import placement  # noqa: E402
from commit import commit_name  # noqa: E402
from reference_env import reference_env  # noqa: E402
from ops import all_cases  # noqa: E402
from ops.common import DTYPES  # noqa: E402

GPU_SIDES = ("ours_c", "ours", "reference", "torch", "copy")
HOST_SIDES = ("ours", "reference", "torch")
L2_FALLBACK = 50 << 20  # H200


def log(*a):
    print(*a, flush=True)


# ------------------------------------------------------------------------------------------------- tensors

def torch_dtype(torch, key):
    return {"u8": torch.uint8, "s16": torch.int16, "u16": torch.uint16, "f16": torch.float16, "s32": torch.int32,
            "f32": torch.float32, "f64": torch.float64}[key]


def make_tensor(torch, spec):
    """Random data for inputs (never zeros), a poison value for outputs."""
    dt = torch_dtype(torch, spec.dtype)
    shape = spec.shape
    if spec.row_pitch is not None:  # NHWC rows at a pitch: a strided view of a wider buffer
        n, h, w, c = shape
        es = DTYPES[spec.dtype]
        base = make_tensor(torch, type(spec)(spec.role, (n, h, spec.row_pitch // es), spec.dtype, None))
        return base.as_strided(shape, (h * spec.row_pitch // es, spec.row_pitch // es, c, 1))
    if spec.role == "in":
        if dt.is_floating_point:
            return torch.rand(shape, device="cuda", dtype=torch.float32).mul_(255).to(dt)
        return torch.randint(0, 256, shape, device="cuda", dtype=torch.int32).to(dt)
    t = torch.empty(shape, device="cuda", dtype=dt)
    return t.fill_(float("nan") if dt.is_floating_point else 0xAB)


def make_set(torch, case):
    out = {}
    for name, spec in case.tensors.items():
        if spec.view_of is None:
            out[name] = make_tensor(torch, spec)
    for name, spec in case.tensors.items():
        if spec.view_of is not None:
            out[name] = out[spec.view_of].permute(*spec.permute)
    return out


def set_count(case, l2):
    """Buffer sets to rotate over: together > 3 x L2, so a set is evicted before its next turn."""
    if case.kind == "host":
        return 1
    per_set = sum(s.nbytes for s in case.tensors.values() if s.view_of is None)
    return max(2, min(2048, math.ceil(3 * l2 / per_set)))


def wrap_for(cv, case, tensors):
    return {name: (t if case.tensors[name].layout is None else cv.as_tensor(t, case.tensors[name].layout))
            for name, t in tensors.items()}


class CLibrary:
    """libcvcuda_c through the ABI-checked ctypes binding (tests/abi/cvcuda_ctypes.py)."""

    TYPESTR = {"uint8": b"|u1", "int16": b"<i2", "uint16": b"<u2", "float16": b"<f2", "int32": b"<i4",
               "float32": b"<f4", "float64": b"<f8"}

    def __init__(self, path):
        import ctypes
        import cvcuda_ctypes
        self.ctypes, self.abi, self.lib = ctypes, cvcuda_ctypes, cvcuda_ctypes.load(path)

    def check(self, status, what):
        if status != 0:
            raise RuntimeError(f"{what}: status {status}: {self.lib.cvGetLastErrorMessage().decode()}")

    def wrap(self, t, layout):
        """Zero-copy wrap of a torch tensor; stream -1: the benchmark orders its one stream itself."""
        cai = self.abi.cvArrayInterface.init()
        cai.data = t.data_ptr()
        cai.ndim = t.dim()
        for i, (n, s) in enumerate(zip(t.shape, t.stride())):
            cai.shape[i] = n
            cai.strides[i] = s * t.element_size()
        cai.hasStrides = 1
        cai.streamKind = self.abi.CV_CAI_STREAM_INTEGER
        cai.stream = -1
        cai.typestr = self.TYPESTR[str(t.dtype).replace("torch.", "")]
        out = self.ctypes.c_void_p()
        self.check(self.lib.cvTensorWrap(self.ctypes.byref(cai), layout.encode(), self.ctypes.byref(out)), "cvTensorWrap")
        return out

    def stream(self, cuda_stream):
        out = self.ctypes.c_void_p()
        self.check(self.lib.cvStreamWrap(self.ctypes.c_void_p(cuda_stream), self.ctypes.byref(out)), "cvStreamWrap")
        return out


# -------------------------------------------------------------------------------------------- measurement

def short(exc):
    text = f"{type(exc).__name__}: {exc}".replace("\n", " ")
    return text if len(text) <= 160 else text[:157] + "..."


def missing(cv, case):
    absent = [n for n in case.requires if not hasattr(cv, n)]
    return f"no {', '.join(absent)} in this cvcuda" if absent else None


class Session:
    """One process's measurements: the sides it owns, on one torch stream that every library's calls go to."""

    def __init__(self, args, sides, cv=None):
        import torch
        from timing import GpuClock
        self.torch, self.sides, self.cv = torch, sides, cv
        self.profile = getattr(args, "profile", False)
        self.stream = torch.cuda.Stream()
        torch.cuda.set_stream(self.stream)
        self.clock = GpuClock(torch)
        props = torch.cuda.get_device_properties(0)
        self.l2 = getattr(props, "L2_cache_size", 0) or L2_FALLBACK
        self.cv_stream = cv.as_stream(self.stream) if cv is not None else None
        self.host_stream = None
        self.c = self.c_stream = None
        self.c_error = None
        if "ours_c" in sides:
            try:
                self.c = CLibrary(args.lib)
                self.c_stream = self.c.stream(self.stream.cuda_stream)
            except Exception as exc:  # the column then says why, row by row
                self.c_error = f"C API unavailable: {short(exc)}"
        try:
            import torchvision.transforms.v2 as v2
            import torchvision.transforms.v2.functional as F
            from torchvision.transforms import InterpolationMode
        except ImportError:
            v2 = F = InterpolationMode = None
        self.T = types.SimpleNamespace(torch=torch, F=F, v2=v2, InterpolationMode=InterpolationMode)
        # Our package counts its device synchronisations (cvcuda.stats()); the reference has no such counter.
        self.counter = (lambda: cv.stats()["deviceSyncs"]) if "ours" in sides and hasattr(cv, "stats") else None

    def run(self, cases, only, peer=None):
        """Results by case key; `peer`: the reference's HostPeer, whose host-row batches take turns with ours."""
        results = {}
        # The host rows last, after every GPU row, as in the reference's worker (its GPU rows, then serve_host), so
        # that both processes time their host rows in the same state.
        cases = [c for c in cases if c.kind != "host"] + [c for c in cases if c.kind == "host"]
        collected = False
        for case in cases:
            if only and only not in case.key or self.profile and case.kind == "host":
                continue
            if case.kind == "host" and not collected:
                self.settle()
                collected = True
            t0 = time.perf_counter()
            res = results[case.key] = {}
            try:
                if case.kind == "gpu":
                    self.gpu_case(case, res)
                else:
                    self.host_case(case, res, peer)
            except Exception as exc:  # a row that cannot even be set up (e.g. out of memory) skips whole
                res["error"] = short(exc)
            self.torch.cuda.synchronize()
            self.torch.cuda.empty_cache()
            cells = "  ".join(f"{s}={v['us']:.2f}us" if "us" in v else f"{s}=skip" for s, v in res.items()
                              if isinstance(v, dict))
            log(f"  {case.key}: {cells}  ({time.perf_counter() - t0:.1f} s)")
        return results

    def settle(self):
        """Before the host rows, in both processes: the GPU rows' garbage collected and cached memory returned (the
        reference's cache too, where it has clear_cache)."""
        gc.collect()
        self.torch.cuda.synchronize()
        self.torch.cuda.empty_cache()
        clear = getattr(self.cv, "clear_cache", None)
        if callable(clear):
            clear()

    def fns_for(self, side, case, sets):
        """The callables of `side` for each buffer set, and what to release after; None when the side has none."""
        if side == "torch":
            fns = [case.bind_torch(self.T, s) for s in sets] if case.bind_torch else None
            return (None if fns is None or fns[0] is None else fns), []
        if side == "ours_c":
            if case.bind_c is None:
                return None, []
            if self.c_error:
                raise RuntimeError(self.c_error)
            handles, fns = [], []
            for s in sets:
                h = {n: self.c.wrap(t, case.tensors[n].layout) for n, t in s.items() if case.tensors[n].layout}
                handles += h.values()
                fns.append(case.bind_c(self.c, h, self.c_stream))
            return fns, handles
        if case.bind is None:
            return None, []
        why = missing(self.cv, case)
        if why:
            raise LookupError(why)
        return [case.bind(self.cv, wrap_for(self.cv, case, s), self.cv_stream) for s in sets], []

    def gpu_case(self, case, res):
        torch = self.torch
        count = set_count(case, self.l2)
        sets = [make_set(torch, case) for _ in range(count)]
        for side in self.sides:
            if side in case.skip:
                res[side] = {"skip": case.skip[side]}
            elif side == "copy" and self.profile:
                continue
            elif side == "copy":
                half = case.bytes_moved // 2
                pairs = [(torch.empty(half, dtype=torch.uint8, device="cuda"),
                          torch.randint(0, 256, (half,), dtype=torch.uint8, device="cuda")) for _ in range(count)]
                res[side] = self.clock.measure([lambda d=d, s=s: d.copy_(s) for d, s in pairs])
                del pairs
            else:
                handles = []
                try:
                    fns, handles = self.fns_for(side, case, sets)
                    if fns is None:
                        continue
                    if self.profile:
                        fns[0]()
                        torch.cuda.synchronize()
                        fns[-1]()
                        torch.cuda.synchronize()
                        res[side] = {"skip": "profiled, not timed"}
                        continue
                    res[side] = self.clock.measure(fns, self.counter if side == "ours" else None)
                    if side in ("ours", "reference", "ours_c") and case.exact_torch and case.bind_torch:
                        res[side]["equals_torch"] = self.equals_torch(case, sets[-1])
                except Exception as exc:
                    res[side] = {"skip": short(exc)}
                finally:
                    for h in handles:
                        self.c.lib.cvTensorRelease(h)
            if "us" in res.get(side, {}):
                res[side]["gbs"] = case.bytes_moved / (res[side]["us"] * 1e-6) / 1e9

    def equals_torch(self, case, s):
        """Whether the last call's output (in `dst` of the last set) equals torch's result on the same input."""
        self.torch.cuda.synchronize()
        ours = s["dst"].clone()
        theirs = case.bind_torch(self.T, s)()
        self.torch.cuda.synchronize()
        return bool(self.torch.equal(theirs.reshape(ours.shape), ours))

    def host_fn(self, case, side, s):
        """The callable of `side` for a host row on the tensors `s`, run once; None when the side has none."""
        if side == "torch":
            if case.bind_torch is None:
                return None
            fn = case.bind_torch(self.T, s)
        else:
            why = missing(self.cv, case)
            if why:
                raise LookupError(why)
            if self.host_stream is None:
                self.host_stream = self.cv.Stream()
            fn = case.bind(self.cv, wrap_for(self.cv, case, s), self.host_stream)
        fn()
        return fn

    def host_case(self, case, res, peer=None):
        from timing import host_batch, host_rounds, host_warm
        s = make_set(self.torch, case)
        sync = self.torch.cuda.synchronize
        batches = {}
        for side in self.sides + (("reference",) if peer else ()):
            if side not in HOST_SIDES:
                continue
            if side in case.skip:
                res[side] = {"skip": case.skip[side]}
                continue
            try:
                if side == "reference" and peer:
                    reply = peer.ask(op="setup", key=case.key)
                    if "skip" in reply:
                        res[side] = {"skip": reply["skip"]}
                        continue
                    batches[side] = peer.batch
                    continue
                fn = self.host_fn(case, side, s)
                if fn is None:
                    continue
                host_warm(fn)
                batches[side] = lambda fn=fn: host_batch(fn, sync)
            except Exception as exc:
                res[side] = {"skip": short(exc)}
        res.update(host_rounds(batches))

    def serve_host(self, cases, inp, out):
        """The reference worker's side of HostPeer: one JSON command a line on `inp` (host_command), one JSON reply a
        line on `out` (its --reply-fd) for each, until quit or the end of `inp`."""
        self.host_cases = {c.key: c for c in cases if c.kind == "host"}
        for line in inp:
            msg = json.loads(line)
            if msg["op"] == "quit":
                break
            out.write(json.dumps(self.host_command(msg)) + "\n")
            out.flush()

    def host_command(self, msg):
        """setup {key}: that host row's callable made, run and warmed up ({"ok": true}, or {"skip": why}); batch: one
        batch of it timed ({"us": µs per call})."""
        from timing import host_batch, host_warm
        try:
            if msg["op"] == "setup":
                case = self.host_cases[msg["key"]]
                self.served = None
                if "reference" in case.skip:
                    return {"skip": case.skip["reference"]}
                fn = self.host_fn(case, "reference", make_set(self.torch, case))
                host_warm(fn)
                self.served = fn
                return {"ok": True}
            return {"us": host_batch(self.served, self.torch.cuda.synchronize)}
        except Exception as exc:
            return {"skip": short(exc)}


READY_TIMEOUT_S = 900  # the reference's GPU rows (about 40 s on an H200)
REPLY_TIMEOUT_S = 120  # a setup (one buffer set, a warm-up) or one batch of 2000 calls


class HostPeer:
    """The reference's worker process, alive after its GPU rows, running host-row batches when asked (serve_host), so
    that its batches and ours alternate in time. Commands go to its stdin; its replies come back on a pipe of their
    own (--reply-fd), so nothing else it prints (its log, a C library's output) can be read as a reply. Once it has
    ended or stopped answering, every question gets {"skip": why}."""

    def __init__(self, proc=None, replies=None, local=None):
        # local: a Session of this process answering host_command itself (the dry run)
        self.proc, self.replies, self.local = proc, replies, local
        self.ended = None
        self.timeout_s = REPLY_TIMEOUT_S

    @classmethod
    def start(cls, cmd, env):
        r, w = os.pipe()
        try:
            proc = subprocess.Popen(cmd + ["--reply-fd", str(w)], env=env, stdin=subprocess.PIPE, text=True,
                                    pass_fds=(w,))
        finally:
            os.close(w)
        return cls(proc, os.fdopen(r, "r"))

    def reply(self, timeout_s=None):
        timeout_s = timeout_s or self.timeout_s
        if self.local:
            raise RuntimeError("HostPeer.reply: a local peer answers in ask()")
        if self.ended:
            return {"skip": self.ended}
        ready, _, _ = select.select([self.replies], [], [], timeout_s)
        line = self.replies.readline() if ready else None
        if not line:
            if line is None:  # no answer in time: it will not answer the next question either
                self.proc.kill()
                self.ended = f"reference worker gave no reply in {timeout_s} s (killed)"
            else:
                self.ended = f"reference worker ended (exit {self.proc.wait()})"
            log(self.ended)
            return {"skip": self.ended}
        return json.loads(line)

    def ask(self, **msg):
        if self.local:
            return self.local.host_command(msg)
        if self.ended:
            return {"skip": self.ended}
        try:
            self.proc.stdin.write(json.dumps(msg) + "\n")
            self.proc.stdin.flush()
        except OSError:
            self.ended = f"reference worker ended (exit {self.proc.wait()})"
            log(self.ended)
            return {"skip": self.ended}
        return self.reply()

    def batch(self):
        reply = self.ask(op="batch")
        if "us" not in reply:
            raise RuntimeError(f"reference worker: {reply.get('skip', reply)}")
        return reply["us"]

    def close(self):
        """Ends the worker (quit, then killed after 60 s); its exit status."""
        if self.local:
            return 0
        try:
            self.proc.stdin.write(json.dumps({"op": "quit"}) + "\n")
            self.proc.stdin.close()
        except OSError:
            pass
        try:
            rc = self.proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            rc = self.proc.wait()
        self.replies.close()
        return rc


def environment(torch, cv, ref_env):
    props = torch.cuda.get_device_properties(0)
    try:
        driver = subprocess.run(["nvidia-smi", "--query-gpu=driver_version", "--format=csv,noheader"],
                                capture_output=True, text=True, check=True).stdout.strip().splitlines()[0]
    except (OSError, subprocess.CalledProcessError, IndexError):
        driver = "unknown"
    try:
        import torchvision
        tv = torchvision.__version__
    except ImportError:
        tv = None
    commit = commit_name(ROOT)
    return {"gpu": props.name, "sms": props.multi_processor_count, "memory_gib": round(props.total_memory / 2**30),
            "l2_mib": round((getattr(props, "L2_cache_size", 0) or L2_FALLBACK) / 2**20), "driver": driver,
            "cuda": torch.version.cuda, "torch": torch.__version__, "torchvision": tv,
            "ours": f"{cv.__version__} (C library {getattr(cv, '__c_version__', '?')}, commit {commit})",
            "reference": ref_env.get("version") if ref_env else None,
            "reference_host": ref_env.get("host") if ref_env else None,
            "python": sys.version.split()[0], "host": placement.placement(),
            "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")}


def reference_process(args, json_path):
    """Starts this script as the reference's worker: PYTHONPATH is DIR plus the inherited entries that hold no package
    named cvcuda (ours), so `import cvcuda` is the reference. Returns its GPU rows' results once it has run them, and
    the HostPeer that runs its host rows' batches from then on; (None, None) when it failed."""
    env = reference_env(args.reference, os.environ)
    cmd = [sys.executable, str(HERE / "run.py"), "--worker", "reference", "--reference", args.reference,
           "--json", str(json_path)]
    if args.only:
        cmd += ["--only", args.only]
    if args.profile:
        cmd.append("--profile")
    log(f"reference library: {' '.join(cmd)} (PYTHONPATH={env['PYTHONPATH']})")
    json_path.unlink(missing_ok=True)  # never an earlier run's numbers
    peer = HostPeer.start(cmd, env)
    ready = peer.reply(READY_TIMEOUT_S)  # its GPU rows are done and written
    if "skip" in ready or not json_path.exists():
        log(f"reference worker failed ({ready.get('skip', 'no results written')}): its column is left out")
        peer.close()
        return None, None
    ref = json.loads(json_path.read_text())
    ref["host"] = ready.get("host")
    log(f"reference worker ready for the host rows; its placement: {ref['host']}")
    return ref, peer


def worker(args):
    import cvcuda
    where = pathlib.Path(cvcuda.__file__).resolve()
    if pathlib.Path(args.reference).resolve() not in where.parents:
        log(f"reference worker: `import cvcuda` found {where}, not the reference in {args.reference}")
        return 1
    session = Session(args, ("reference",), cvcuda)
    log(f"reference cvcuda {getattr(cvcuda, '__version__', '?')} from {cvcuda.__file__}")
    cases = all_cases()
    results = session.run([c for c in cases if c.kind != "host"], args.only)
    pathlib.Path(args.json).write_text(json.dumps({"version": getattr(cvcuda, "__version__", "?"),
                                                   "file": cvcuda.__file__, "results": results}))
    session.settle()  # before it says it is ready: then it only waits while the main process runs its GPU rows
    with os.fdopen(args.reply_fd, "w") as replies:
        replies.write(json.dumps({"ready": True, "host": placement.placement()}) + "\n")
        replies.flush()
        session.serve_host(cases, sys.stdin, replies)  # the host rows, batch by batch, as the main process asks
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--reference", help="folder holding the reference library's cvcuda package (e.g. /tmp/cvref)")
    ap.add_argument("--lib", default=os.environ.get("CVCUDA_C_LIBRARY", str(ROOT / "build" / "libcvcuda_c.so.1")))
    ap.add_argument("--only", default="", help="only cases whose 'op: name' contains this text")
    ap.add_argument("--perf", default=str(ROOT / "docs" / "perf.md"))
    ap.add_argument("--img", default=str(ROOT / "docs" / "img"))
    ap.add_argument("--json", default=str(ROOT / "docs" / "verification" / "logs" / "bench-results.json"))
    ap.add_argument("--no-write", action="store_true", help="measure and print; leave docs/ alone")
    ap.add_argument("--profile", action="store_true",
                    help="no timing: each selected GPU row's calls run twice per side (warm-up, then the one to "
                         "look at), for `ncu`/`nsys profile python3 bench/run.py --profile --only TEXT`; writes nothing")
    ap.add_argument("--dry-run", action="store_true", help="no GPU: check the rows, their calls and the report")
    ap.add_argument("--pyi", default=str(ROOT / "tests" / "bench" / "cvcuda_reference_api.pyi"),
                    help="--dry-run: the reference API the calls are checked against")
    ap.add_argument("--out", help="--dry-run: where the synthetic report goes (default: a temporary folder)")
    ap.add_argument("--report-only", metavar="RESULTS_JSON", help="rewrite the report from a results file")
    ap.add_argument("--worker", choices=["reference"], help=argparse.SUPPRESS)
    ap.add_argument("--reply-fd", type=int, help=argparse.SUPPRESS)  # the worker's replies to HostPeer
    args = ap.parse_args()

    if args.dry_run:
        from dryrun import dry_run
        full = pathlib.Path(args.reference or "/nonexistent") / "cvcuda" / "__init__.pyi"
        if full.exists():  # the reference's own, complete .pyi rather than the excerpt
            args.pyi = str(full)
        return dry_run(args)
    if args.report_only:
        import report
        data = json.loads(pathlib.Path(args.report_only).read_text())
        report.write(data, all_cases(), pathlib.Path(args.perf), pathlib.Path(args.img))
        return 0
    if args.worker:
        return worker(args)

    t_start = time.perf_counter()
    try:
        import torch
    except ImportError:
        log("bench/run.py: torch is not installed (use --dry-run to check the benchmark without it)")
        return 1
    if not torch.cuda.is_available():
        log("bench/run.py: no CUDA GPU (use --dry-run to check the benchmark without one)")
        return 1
    cases = all_cases()
    json_path = pathlib.Path(args.json)
    json_path.parent.mkdir(parents=True, exist_ok=True)
    ref = peer = None
    if args.reference:  # its GPU rows first, while this process holds no GPU memory
        ref, peer = reference_process(args, json_path.with_name(json_path.stem + "-reference.json"))
    sys.path.insert(0, str(ROOT / "bindings" / "python"))  # ours (this process only; the reference's has its own path)
    os.environ.setdefault("CVCUDA_C_LIBRARY", args.lib)
    import cvcuda
    log(f"ours: cvcuda {cvcuda.__version__} from {cvcuda.__file__}, C library {os.environ['CVCUDA_C_LIBRARY']}")
    sides = ("ours_c", "ours", "torch", "copy") if pathlib.Path(args.lib).exists() else ("ours", "torch", "copy")
    session = Session(args, sides, cvcuda)
    try:
        results = session.run(cases, args.only, peer)
    finally:
        if peer:
            log(f"reference worker exit status: {peer.close()}")
    if ref:
        for key, res in ref["results"].items():
            if key in results and "reference" in res:
                results[key]["reference"] = res["reference"]
    data = {"env": environment(torch, cvcuda, ref), "results": results,
            "reference_given": bool(args.reference), "reference_ok": ref is not None,
            "seconds": round(time.perf_counter() - t_start, 1)}
    if args.profile:
        return 0
    json_path.write_text(json.dumps(data, indent=1))
    log(f"results: {json_path} ({data['seconds']} s)")
    import report
    if not args.no_write:
        report.write(data, cases, pathlib.Path(args.perf), pathlib.Path(args.img))
    log("\n".join(report.summary(data, cases)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
