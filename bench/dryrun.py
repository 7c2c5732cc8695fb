"""`bench/run.py --dry-run`: everything the GPU run depends on that a machine without a GPU (and without torch) can
check, so that the one device run is right the first time:
  - every case of bench/ops/*.py is well formed (tensor specs, bytes, buffer sets, memory) and keys are unique;
  - every Python-API call (`bind`) binds to the reference library's signatures (an excerpt of its .pyi, `--pyi`):
    argument names, order, keyword-only arguments, and the kinds of values (tensor, stream, enum member, RectI,
    tuple, sequence of floats, number); and, where our package is importable, to ours (missing names: listed, as the
    GPU run will skip them);
  - every C-API call (`bind_c`) names a function of tests/abi/cvcuda_ctypes.py with the right argument count;
  - the report (docs/perf.md section, replaced in place on a second write) and the plots, from synthetic numbers.
Exits 1 when a check fails. torch/torchvision calls (`bind_torch`) need torch: they are first run on the GPU machine.
"""
import ast
import inspect
import json
import math
import os
import pathlib
import random
import shutil
import sys
import tempfile
import types

from ops import all_cases
from ops.common import DTYPES
from timing import HOST_CALLS, HOST_ROUNDS, HOST_WARMUP

ROOT = pathlib.Path(__file__).resolve().parent.parent
MAX_CASE_BYTES = 24 << 30  # buffer sets of one case, with the copy's


class FakeTensor:
    def __init__(self, shape, layout):
        self.shape, self.layout = shape, layout

    def cuda(self):
        return object()


class FakeStream:
    pass


class FakeMember:
    def __init__(self, owner, name):
        self.owner, self.name = owner, name

    def __repr__(self):
        return f"{self.owner}.{self.name}"


def _params(fn: ast.FunctionDef, drop_self=False):
    """An inspect.Signature (defaults are placeholders) and each parameter's annotation text."""
    a = fn.args
    params, notes = [], {}
    positional = a.posonlyargs + a.args
    first_default = len(positional) - len(a.defaults)
    for i, arg in enumerate(positional):
        if drop_self and i == 0:
            continue
        kind = (inspect.Parameter.POSITIONAL_ONLY if arg in a.posonlyargs else inspect.Parameter.POSITIONAL_OR_KEYWORD)
        params.append(inspect.Parameter(arg.arg, kind, default=None if i >= first_default else inspect.Parameter.empty))
        notes[arg.arg] = ast.unparse(arg.annotation) if arg.annotation else ""
    if a.vararg:
        params.append(inspect.Parameter(a.vararg.arg, inspect.Parameter.VAR_POSITIONAL))
    for arg, default in zip(a.kwonlyargs, a.kw_defaults):
        params.append(inspect.Parameter(arg.arg, inspect.Parameter.KEYWORD_ONLY,
                                        default=inspect.Parameter.empty if default is None else None))
        notes[arg.arg] = ast.unparse(arg.annotation) if arg.annotation else ""
    if a.kwarg:
        params.append(inspect.Parameter(a.kwarg.arg, inspect.Parameter.VAR_KEYWORD))
    return inspect.Signature(params), notes


def _kind_error(value, ann, classes):
    """Why `value` does not fit the annotation text `ann` (None if it fits or the annotation is not checked)."""
    alternatives = [t.strip() for t in ann.split("|")] if ann else []
    if not alternatives:
        return None
    for t in alternatives:
        if t == "None" and value is None:
            return None
        if t == "Tensor" and isinstance(value, FakeTensor):
            return None
        if t == "Stream" and isinstance(value, FakeStream):
            return None
        if t in classes and isinstance(value, FakeMember) and value.owner == t:
            return None
        if t in classes and isinstance(value, FakeObject) and value.cls == t:
            return None
        if t in ("SupportsInt", "SupportsIndex", "int") and isinstance(value, int) and not isinstance(value, bool):
            return None
        if t == "float" and isinstance(value, (int, float)) and not isinstance(value, bool):
            return None
        if t == "bool" and isinstance(value, bool):
            return None
        if t == "str" and isinstance(value, str):
            return None
        if t.startswith("Sequence[float]") and isinstance(value, (list, tuple)) and all(
                isinstance(v, (int, float)) for v in value):
            return None
        if t.startswith("tuple[") and isinstance(value, tuple) and len(value) == t.count("SupportsInt"):
            return None
        if t not in ("None", "Tensor", "Stream", "SupportsInt", "SupportsIndex", "int", "float", "bool", "str") \
                and t not in classes and not t.startswith(("Sequence[float]", "tuple[")):
            return None  # a kind this check does not model (e.g. ImageBatchVarShape overloads): not judged
    return f"{value!r} is not {ann}"


class FakeObject:
    def __init__(self, cls, args):
        self.cls, self.args = cls, args

    def __repr__(self):
        return f"{self.cls}{self.args}"


class FakeApi(types.SimpleNamespace):
    """A module whose functions check their arguments against a .pyi's overloads and do nothing."""

    def __init__(self, pyi_text, label):
        super().__init__()
        tree = ast.parse(pyi_text)
        overloads, classes = {}, {}
        for node in tree.body:
            if isinstance(node, ast.FunctionDef):
                overloads.setdefault(node.name, []).append(_params(node))
            elif isinstance(node, ast.ClassDef):
                classes[node.name] = node
        self._label = label
        self._classes = set(classes)
        for name, sigs in overloads.items():
            setattr(self, name, self._checker(name, sigs))
        for name, node in classes.items():
            setattr(self, name, self._class(name, node))
        self.as_tensor = lambda buffer, layout=None: FakeTensor(getattr(buffer, "shape", None), layout)
        self.as_stream = lambda arg: FakeStream()
        self.Stream = FakeStream

    def _checker(self, name, sigs):
        classes, label = self._classes, self._label

        def call(*args, **kwargs):
            reasons = []
            for sig, notes in sigs:
                try:
                    bound = sig.bind(*args, **kwargs)
                except TypeError as exc:
                    reasons.append(str(exc))
                    continue
                bad = [e for p, v in bound.arguments.items() if (e := _kind_error(v, notes.get(p, ""), classes))]
                if not bad:
                    return FakeTensor(None, None)
                reasons.append("; ".join(bad))
            raise TypeError(f"{label}: {name}(...) matches no overload: " + " | ".join(reasons))
        return call

    def _class(self, name, node):
        members = [b.target.id for b in node.body if isinstance(b, ast.AnnAssign) and isinstance(b.target, ast.Name)
                   and not b.target.id.startswith("__")]
        inits = [_params(b, drop_self=True) for b in node.body if isinstance(b, ast.FunctionDef) and b.name == "__init__"]
        label, classes = self._label, self._classes

        def construct(*args, **kwargs):
            for sig, notes in inits or [(inspect.Signature(), {})]:
                try:
                    bound = sig.bind(*args, **kwargs)
                except TypeError:
                    continue
                if not any(_kind_error(v, notes.get(p, ""), classes) for p, v in bound.arguments.items()):
                    return FakeObject(name, args)
            raise TypeError(f"{label}: {name}{args} matches no constructor")

        cls = types.SimpleNamespace(**{m: FakeMember(name, m) for m in members})
        cls.__call__ = construct
        return _Callable(cls, construct)


class _Callable:
    def __init__(self, ns, construct):
        self._ns, self._construct = ns, construct

    def __getattr__(self, item):
        return getattr(self._ns, item)

    def __call__(self, *a, **k):
        return self._construct(*a, **k)


class OursApi:
    """Our package, with its functions replaced by signature checks (nothing runs: no GPU here); tensors and streams
    are fakes. Enum classes and RectI are our real ones."""

    def __init__(self, cv):
        self._cv = cv

    def __getattr__(self, name):
        real = getattr(self._cv, name)
        if name in ("as_tensor",):
            return lambda buffer, layout=None: FakeTensor(None, layout)
        if name in ("Stream", "as_stream"):
            return lambda *a: FakeStream()
        if inspect.isfunction(real):
            sig = inspect.signature(real)

            def check(*args, **kwargs):
                try:
                    sig.bind(*args, **kwargs)
                except TypeError as exc:
                    raise TypeError(f"ours: {name}{sig}: {exc}") from None
                return FakeTensor(None, None)
            return check
        return real


class FakeC:
    """bind_c's `c`: lib functions check their argument count against tests/abi/cvcuda_ctypes.py's SIGNATURES."""

    def __init__(self):
        sys.path.insert(0, str(ROOT / "tests" / "abi"))
        import cvcuda_ctypes
        sigs = cvcuda_ctypes.SIGNATURES

        class Lib:
            def __getattr__(self, name):
                if name not in sigs:
                    raise AttributeError(f"{name} is not in tests/abi/cvcuda_ctypes.py's SIGNATURES")
                count = len(sigs[name][1])

                def fn(*args):
                    if len(args) != count:
                        raise TypeError(f"{name} takes {count} arguments, got {len(args)}")
                    return 0
                return fn
        self.lib = Lib()

    def check(self, status, what):
        if status:
            raise RuntimeError(what)


def check_case(case, l2=50 << 20):
    errors = []
    if case.kind not in ("gpu", "host"):
        errors.append(f"kind {case.kind!r}")
    if not case.tensors:
        errors.append("no tensors")
    for name, s in case.tensors.items():
        if s.role not in ("in", "out") or s.dtype not in DTYPES or not s.shape or min(s.shape) <= 0:
            errors.append(f"tensor {name}: bad spec {s}")
        if s.view_of is not None and (s.view_of not in case.tensors or s.permute is None
                                      or sorted(s.permute) != list(range(len(s.shape)))):
            errors.append(f"tensor {name}: view of {s.view_of!r} needs an existing tensor and a permutation")
        if s.row_pitch is not None and (len(s.shape) != 4 or s.row_pitch < s.shape[2] * s.shape[3] * DTYPES[s.dtype]
                                        or s.row_pitch % DTYPES[s.dtype]):
            errors.append(f"tensor {name}: row pitch {s.row_pitch} shorter than a row or not a multiple of the element")
    if case.bytes_moved <= 0:
        errors.append("no bytes moved")
    if case.kind == "gpu" and case.bind is None and case.bind_torch is None:
        errors.append("nothing to time")
    per_set = sum(s.nbytes for s in case.tensors.values() if s.view_of is None)
    sets = 1 if case.kind == "host" else max(2, min(2048, math.ceil(3 * l2 / per_set)))
    if sets * (per_set + case.bytes_moved) > MAX_CASE_BYTES:
        errors.append(f"{sets} buffer sets of {per_set / 1e6:.0f} MB: over {MAX_CASE_BYTES >> 30} GiB")
    if case.kind == "gpu" and sets * per_set < 2 * l2:
        errors.append(f"{sets} sets of {per_set} bytes do not leave L2")
    return errors, sets


def fake_tensors(case):
    return {n: (FakeTensor(s.shape, s.layout) if s.layout else types.SimpleNamespace(shape=s.shape))
            for n, s in case.tensors.items()}


def synthetic(cases, with_reference=True):
    """Plausible numbers for every case and side (copy at ~4 TB/s), one skip and one gap, to exercise the report."""
    rng = random.Random(1)
    results = {}
    for i, c in enumerate(cases):
        r = results[c.key] = {}
        if c.kind == "host":
            for side in ("ours", "reference", "torch"):
                if side == "torch" and c.bind_torch is None:
                    continue
                r[side] = {"us": rng.uniform(1, 20), "min_us": 1, "max_us": 20, "calls_per_batch": 2000, "batches": 7}
            if not with_reference:
                del r["reference"]
            continue
        copy_us = c.bytes_moved / 4.0e12 * 1e6 + 2.0
        for side, f in (("ours_c", 0.95), ("ours", 0.95), ("reference", 0.8), ("torch", 0.3), ("copy", 1.0)):
            if side == "ours_c" and c.bind_c is None or side == "torch" and c.bind_torch is None:
                continue
            t = copy_us / (f * rng.uniform(0.9, 1.1))
            r[side] = {"us": t, "gbs": c.bytes_moved / (t * 1e-6) / 1e9, "min_us": t, "max_us": t, "gaps": 0,
                       "calls_per_batch": 10, "batches": 9, "sets": 2, "syncs_per_call": 0.0}
        if not with_reference:
            r.pop("reference")
        elif i == 1:
            r["reference"] = {"skip": "LookupError: no example_into in this cvcuda (synthetic)"}
        if i == 2:
            r["ours"]["gaps"] = 3
    env = {"gpu": "NVIDIA H200 (synthetic)", "sms": 132, "memory_gib": 140, "l2_mib": 50, "driver": "580",
           "cuda": "13.0", "torch": "2.11", "torchvision": "0.26", "ours": "0.1.0 (dry run)",
           "reference": "0.19.0" if with_reference else None, "python": "3.12", "date": "dry run"}
    return {"env": env, "results": results, "reference_given": with_reference, "reference_ok": with_reference,
            "seconds": 0}


def estimate_seconds(cases):
    """Rough device time of the run on an H200 (4 TB/s, ~4 µs per small call, 5 sides), for the 4-minute budget."""
    total = 0.0
    for c in cases:
        if c.kind == "host":
            total += 3 * (HOST_ROUNDS * HOST_CALLS + HOST_WARMUP) * 10e-6
            continue
        t = max(c.bytes_moved / 3.5e12, 4e-6)
        n = max(3, min(256, math.ceil(1.5e-3 / t)))
        _, sets = check_case(c)
        per_side = sets * t + 9 * (n * t + 1.5 * n * 10e-6 + 0.2e-3) + sets * 15e-6
        make = sum(s.nbytes for s in c.tensors.values()) * sets / 200e9  # random fill
        total += 5 * per_side + make + 0.05
    return total


def dry_run(args):
    failures, info = [], []
    cases = all_cases()
    gpu = [c for c in cases if c.kind == "gpu"]
    print(f"dry run: {len(cases)} cases ({len(gpu)} GPU, {len(cases) - len(gpu)} host) from "
          f"{len({c.op for c in cases})} operators: {', '.join(dict.fromkeys(c.op for c in cases))}")
    for c in cases:
        errors, _ = check_case(c)
        failures += [f"{c.key}: {e}" for e in errors]

    pyi = pathlib.Path(args.pyi)
    ref = FakeApi(pyi.read_text(), "reference")
    ours = None
    try:
        os.environ.setdefault("CVCUDA_C_LIBRARY", str(pathlib.Path(args.lib)))
        sys.path.insert(0, str(ROOT / "bindings" / "python"))
        import cvcuda
        ours = OursApi(cvcuda)
    except Exception as exc:  # e.g. no built library: the check against ours is then left out, and said
        info.append(f"our package not importable here ({type(exc).__name__}: {exc}): calls checked against the "
                    "reference's signatures only")
    c_api = FakeC()
    checked = {"reference": 0, "ours": 0, "C API": 0}
    for c in cases:
        if c.bind is None:
            continue
        if c.op == "tv":  # builds torchvision transforms and imports the library's cvcuda.tv: the GPU run's to check
            info.append(f"{c.key}: calls not checked here (they need torch, torchvision and the libraries)")
            continue
        for label, api in (("reference", ref), ("ours", ours)):
            if api is None or label in c.skip:
                continue
            absent = [n for n in c.requires if not _has(api, n)]
            if absent:
                (failures if label == "reference" and c.op != "tv" else info).append(
                    f"{c.key}: {label} has no {', '.join(absent)}" + ("" if label == "reference" else
                                                                       " (the GPU run skips it with this note)"))
                continue
            try:
                fn = c.bind(api, fake_tensors(c), FakeStream())
                fn()
                checked[label] += 1
            except ImportError as exc:
                info.append(f"{c.key}: {label} call not checkable here ({exc})")
            except Exception as exc:
                # ours may still lack an operator's keyword (e.g. a fused pass's extras): a note, as the GPU run's
                (failures if label == "reference" else info).append(f"{c.key}: {label}: {type(exc).__name__}: {exc}")
        if c.bind_c is not None:
            try:
                c.bind_c(c_api, {n: object() for n, s in c.tensors.items() if s.layout}, object())()
                checked["C API"] += 1
            except Exception as exc:
                failures.append(f"{c.key}: C API: {type(exc).__name__}: {exc}")
    print("calls checked: " + ", ".join(f"{k} {v}" for k, v in checked.items()))

    out = pathlib.Path(args.out) if args.out else pathlib.Path(tempfile.mkdtemp(prefix="bench-dry-"))
    out.mkdir(parents=True, exist_ok=True)
    import report
    perf = out / "perf.md"
    shutil.copy(ROOT / "docs" / "perf.md", perf)
    before = perf.read_text()
    for with_reference in (False, True):  # twice: the second write must replace the section, not add one
        files = report.write(synthetic(cases, with_reference), cases, perf, out / "img")
        section = perf.read_text()
        if ("CV-CUDA 0.19 µs" in section) != with_reference:
            failures.append(f"report: the reference column is {'missing' if with_reference else 'there'} "
                            f"in a run {'with' if with_reference else 'without'} the reference")
    text = perf.read_text()
    if text.count(report.BEGIN) != 1 or text.count(report.END) != 1:
        failures.append("report: the generated section is not exactly once in perf.md")
    rest = text[:text.index(report.BEGIN)] + text[text.index(report.END) + len(report.END):]
    if rest.replace("\n", "") != before.replace("\n", "") and report.BEGIN not in before:
        if any(line not in text for line in before.splitlines() if line.strip()):
            failures.append("report: text outside the generated section changed")
    failures += _check_tables(text[text.index(report.BEGIN):text.index(report.END)])
    plots = [f for f in files if f.suffix == ".png"]
    if not plots:
        info.append("plots not drawn here (no matplotlib); the GPU machine has it")
    for f in plots:
        if f.stat().st_size < 10_000:
            failures.append(f"plot {f} is suspiciously small")
    print(f"report written to {out} ({', '.join(f.name for f in files)})")
    failures += loop_smoke(args, cases, ref, out / "smoke")
    failures += peer_smoke(args, cases, ref)
    print(f"estimated device time of the full run on an H200: {estimate_seconds(cases):.0f} s (budget 240 s)")
    if estimate_seconds(cases) > 200:
        failures.append("estimated run time over 200 s: fewer rows or repetitions")
    for line in info:
        print(f"note: {line}")
    for line in failures:
        print(f"FAIL: {line}")
    print(f"dry run: {'FAILED' if failures else 'ok'} ({len(failures)} failures, {len(info)} notes)")
    return 1 if failures else 0


def stand_in_torch():
    """tests/bench/fake_torch.py as `torch` (and no torchvision) for run.py's Session in this process: (the module,
    a function that puts back what was there)."""
    sys.path.insert(0, str(ROOT / "tests" / "bench"))
    import fake_torch
    saved = {name: sys.modules.get(name) for name in ("torch", "torchvision")}
    sys.modules["torch"] = fake_torch
    sys.modules["torchvision"] = None  # import fails: never a real torchvision on the stand-in

    def restore():
        for name, module in saved.items():
            if module is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = module
    return fake_torch, restore


def loop_smoke(args, cases, api, out):
    """Runs run.py's measurement loop (Session) for the small cases on tests/bench/fake_torch.py, with the fake
    reference API as the library and our real C library through ctypes (which fails there without a GPU: the column's
    skip notes are then exercised), and writes a report from its results. Returns failures."""
    failures = []
    fake_torch, restore = stand_in_torch()
    try:
        import report
        import run
        small = [c for c in cases if sum(s.nbytes for s in c.tensors.values()) <= 16 << 20 and c.op != "tv"]
        # No C library: a real one on a GPU machine would be handed host memory. Its column's skip path runs instead.
        session = run.Session(types.SimpleNamespace(**{**vars(args), "lib": "/nonexistent/libcvcuda_c.so.1"}),
                              ("ours_c", "ours", "torch", "copy"), api)
        results = session.run(small, "")
        for c in small:
            r = results.get(c.key, {})
            if "error" in r:
                failures.append(f"loop: {c.key}: {r['error']}")
            for side, cell in r.items():
                if isinstance(cell, dict) and "us" not in cell and "skip" not in cell:
                    failures.append(f"loop: {c.key}: {side}: neither a time nor a skip: {cell}")
                if side in ("ours", "torch", "copy") and isinstance(cell, dict) and "skip" in cell:
                    failures.append(f"loop: {c.key}: {side} skipped: {cell['skip']}")
            if c.kind == "gpu" and "us" not in r.get("copy", {}):
                failures.append(f"loop: {c.key}: no copy time")
        # The host rows with the reference's batches taking turns with ours (run.HostPeer), its side a second Session
        # of this process on the same fake API answering host_command as the worker process would.
        hosts = [c for c in cases if c.kind == "host"]
        ref_session = run.Session(types.SimpleNamespace(**vars(args)), ("reference",), api)
        ref_session.host_cases = {c.key: c for c in hosts}
        paired = run.Session(types.SimpleNamespace(**{**vars(args), "lib": "/nonexistent"}), ("ours", "torch"), api).run(
            hosts, "", run.HostPeer(local=ref_session))
        for c in hosts:
            cells = paired.get(c.key, {})
            for side in ("ours", "reference"):
                cell = cells.get(side, {})
                if "us" not in cell and "skip" not in cell:
                    failures.append(f"paired host rows: {c.key}: {side}: neither a time nor a skip: {cell}")
                if "us" in cell and cell.get("batches") != HOST_ROUNDS:
                    failures.append(f"paired host rows: {c.key}: {side}: {cell.get('batches')} batches")
        if not any("us" in paired.get(c.key, {}).get("reference", {}) for c in hosts):
            failures.append("paired host rows: no reference batch was timed")
        profiled = run.Session(types.SimpleNamespace(**{**vars(args), "lib": "/nonexistent", "profile": True}),
                               ("ours", "torch", "copy"), api).run(small[:2], "")
        if any("us" in cell for r in profiled.values() for cell in r.values() if isinstance(cell, dict)):
            failures.append("loop: --profile timed a call")
        data = {"env": run.environment(fake_torch, types.SimpleNamespace(__version__="dry run"), None),
                "results": results, "reference_given": False, "reference_ok": False, "seconds": 0}
        out.mkdir(parents=True, exist_ok=True)
        (out / "perf.md").write_text("# Performance\n")
        report.write(data, small, out / "perf.md", out / "img")
        print(f"measurement loop: {len(small)} small cases run on the numpy stand-in for torch; report in {out}")
    except Exception as exc:
        import traceback
        traceback.print_exc()
        failures.append(f"loop: {type(exc).__name__}: {exc}")
    finally:
        restore()
    return failures


def peer_child():
    """A reference worker for peer_smoke, on the numpy stand-in for torch and the fake reference API: `python -c
    "import dryrun; dryrun.peer_child()" MODE PYI --reply-fd N`. MODE: ok; noise (a line without its newline on stdout
    before it is ready, as a C library's output may be); crash (exits with status 7 at its third batch); early (exits
    with status 3 before it is ready)."""
    mode, pyi = sys.argv[1], sys.argv[2]
    reply_fd = int(sys.argv[sys.argv.index("--reply-fd") + 1])
    stand_in_torch()
    import run
    if mode == "early":
        sys.exit(3)
    session = run.Session(types.SimpleNamespace(lib="/nonexistent", profile=False, only=""), ("reference",),
                          FakeApi(pathlib.Path(pyi).read_text(), "reference"))
    if mode == "noise":
        os.write(1, b"a C library's message without its newline")
    if mode == "crash":
        command, batches = session.host_command, [0]

        def crashing(msg):
            if msg["op"] == "batch":
                batches[0] += 1
                if batches[0] == 3:
                    os._exit(7)
            return command(msg)
        session.host_command = crashing
    with os.fdopen(reply_fd, "w") as replies:
        replies.write(json.dumps({"ready": True}) + "\n")
        replies.flush()
        session.serve_host(all_cases(), sys.stdin, replies)


def peer_smoke(args, cases, api):
    """The host rows against real worker processes (peer_child) over run.HostPeer's pipes: every row gets a time or a
    skip for every side whatever the worker does, ours keep their times when it dies, and nothing hangs. Failures."""
    _, restore = stand_in_torch()
    try:
        return _peer_smoke(args, cases, api)
    finally:
        restore()


def _peer_smoke(args, cases, api):
    import run
    failures = []
    hosts = [c for c in cases if c.kind == "host"]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT / "bench"), os.environ.get("PYTHONPATH", "")]))
    for mode in ("ok", "noise", "crash", "early"):
        cmd = [sys.executable, "-c", "import dryrun; dryrun.peer_child()", mode, str(args.pyi)]
        peer = run.HostPeer.start(cmd, env)
        peer.timeout_s = 60
        ready = peer.reply()
        if mode == "early":
            if "skip" not in ready or "exit 3" not in ready["skip"]:
                failures.append(f"peer ({mode}): a worker that ended before it was ready answered {ready}")
            peer.close()
            continue
        if "ready" not in ready:
            failures.append(f"peer ({mode}): no ready reply: {ready}")
            peer.close()
            continue
        session = run.Session(types.SimpleNamespace(**{**vars(args), "lib": "/nonexistent"}), ("ours", "torch"), api)
        results = session.run(hosts, "", peer)
        rc = peer.close()
        for c in hosts:
            cells = results.get(c.key, {})
            if "error" in cells:
                failures.append(f"peer ({mode}): {c.key}: {cells['error']}")
            for side in ("ours", "reference"):
                cell = cells.get(side, {})
                if "us" not in cell and "skip" not in cell:
                    failures.append(f"peer ({mode}): {c.key}: {side}: neither a time nor a skip: {cell}")
                if side == "ours" and "us" not in cell:
                    failures.append(f"peer ({mode}): {c.key}: ours lost its time: {cell}")
        timed = [c for c in hosts if "us" in results.get(c.key, {}).get("reference", {})]
        if mode != "crash" and len(timed) != len(hosts):
            failures.append(f"peer ({mode}): the reference timed {len(timed)} of {len(hosts)} host rows")
        if mode == "crash" and (len(timed) != 0 or rc != 7):
            failures.append(f"peer ({mode}): {len(timed)} rows timed after the worker died at its third batch, exit {rc}")
    print(f"host rows against worker processes: {len(hosts)} rows, 4 worker behaviours")
    return failures


def _has(api, name):
    try:
        getattr(api, name)
        return True
    except AttributeError:
        return False


def _check_tables(md):
    """Every markdown table row has as many cells as its header."""
    errors, width = [], None
    for line in md.splitlines():
        if not line.startswith("|"):
            width = None
            continue
        cells = line.count("|") - 1
        if width is None:
            width = cells
        elif cells != width:
            errors.append(f"report: table row with {cells} cells under a {width}-cell header: {line[:80]}")
    return errors
