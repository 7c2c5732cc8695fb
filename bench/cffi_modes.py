#!/usr/bin/env python3
"""Host time of Python's C calls in cffi's two modes (cvcuda._library.ffi_mode: the compiled API-mode module
cvcuda._capi, or the committed ABI-mode module through libffi). Needs no GPU.

Rows over a stub library: a libcvcuda_c.so.1 (same soname, same version script) whose every function does nothing (cvStreamCreate stores a
constant handle, cvGetVersion returns the headers' version, cvStreamPeekReusable answers CV_NOT_READY for handle 32), with the build's cvcuda._capi and cvcuda._streambase (Stream()'s C base) beside it, so that
cvcuda.Stream() runs its real Python path while the C side costs nothing. ffi.dlopen of the stub through the selected
ffi is timed too, and swapped into Stream() (_stream._create and __del__'s release default): on the API-mode ffi,
ffi.dlopen gives the compiled module's functions, which call the library the module is LINKED to, whatever file was
dlopened (the notes show it over the real library: a copy of the stub, dlopened, answers with the real library's
status). So a stub swapped in that way measures the real library in API mode; here the stub IS the linked library.
Variants of Stream()'s out-parameter (the thread-local _scratch.out it uses, a per-call ffi.new) are timed in both
modes with the same behaviour. Rows over the real library: calls that need no device; and `import cvcuda` itself.

Each row: min over 5 repeats of 200000 calls (timeit), microseconds per call; each mode in its own interpreter.

  python3 bench/cffi_modes.py [--build build] [--log FILE] [--host TEXT]   (FILE: the table, this script's text above it as comments)
"""
import argparse
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import time
import timeit

ROOT = pathlib.Path(__file__).resolve().parent.parent
NUMBER, REPEAT = 200000, 5


def per_call(fn):
    fn()
    return min(timeit.repeat(fn, number=NUMBER, repeat=REPEAT)) / NUMBER * 1e6


def child_rows(stub):
    """The rows of one mode (CVCUDA_C_FFI and CVCUDA_C_LIBRARY set by the parent)."""
    import cvcuda
    from cvcuda import _library, _stream
    from cvcuda._errors import error_from_status
    from cvcuda._ffi import ffi

    lib, Stream = _library.lib, cvcuda.Stream
    rows = []
    notes = []
    if not stub:
        rows.append(("lib.cvGetVersion()", per_call(lambda f=lib.cvGetVersion: f())))
        rows.append(("lib.cvResetStats()", per_call(lambda f=lib.cvResetStats: f())))
        rows.append(("cvcuda.stats()", per_call(cvcuda.stats)))
        out = ffi.new("cvStream *")
        copy = ffi.dlopen(os.environ["CVCUDA_STUB_COPY"])
        notes.append(f"{_library.ffi_mode}: ffi.dlopen(a copy of the stub).cvStreamCreate -> status "
                     f"{copy.cvStreamCreate(out)} ({type(copy.cvStreamCreate).__name__}); the stub returns 0, "
                     f"the real library without a device {lib.cvStreamCreate(out)}")
        return _library.ffi_mode, rows, notes

    out = ffi.new("cvStream *")

    def pair(c=lib.cvStreamCreate, r=lib.cvStreamRelease, o=out):
        c(o)
        r(o[0])

    rows.append(("cvStreamCreate + cvStreamRelease, bound C calls", per_call(pair)))
    rows.append(("cvcuda.Stream() (create, then release at its end)", per_call(lambda S=Stream: S())))
    handle = out[0]
    # Two calls of one signature whose stubs both do nothing: in API mode the first keeps the GIL (gen_ffi.GIL_KEPT),
    # the second releases and retakes it, as cffi does around every call; in ABI mode libffi releases it for both.
    rows.append(("cvStreamPeekReusable (API mode: GIL kept)", per_call(lambda f=lib.cvStreamPeekReusable, h=handle: f(h))))
    rows.append(("cvStreamQueryReusable (GIL released)", per_call(lambda f=lib.cvStreamQueryReusable, h=handle: f(h))))
    # Stream()'s kept path over the stub: one kept handle, taken back (cvStreamPeekReusable answers 0) and kept again.
    notes.append(f"{_library.ffi_mode}: Stream()'s base is the "
                 f"{'C one (cvcuda._streambase)' if _stream._native is not None else 'Python one (_stream._KeptBase)'}")
    allowed = _stream.kept_allowed()
    _stream.release_kept()
    _stream.keep(handle)
    _stream.allow_kept(True)
    try:
        rows.append(("cvcuda.Stream() through the kept path", per_call(lambda S=Stream: S())))
        # The same for a kept stream that ran work: the peek answers CV_NOT_READY, the query (GIL released) 0.
        _stream.release_kept()
        _stream.keep(ffi.cast("cvStream", 32))
        rows.append(("cvcuda.Stream() through the kept path, peek then query", per_call(lambda S=Stream: S())))
    finally:
        _stream.release_kept()
        _stream.allow_kept(allowed)
    if _stream._native is not None:  # the variants below redefine the Python base's __init__ and __del__
        rows += [("Stream() variant: per-call ffi.new out-parameter", None),
                 ("cvStreamCreate + cvStreamRelease, ffi.dlopen of the stub", None),
                 ("cvcuda.Stream(), _create/release swapped for ffi.dlopen's", None)]
        return _library.ffi_mode, rows, notes

    create, create_on_device, device_index = _stream._create, _stream._create_on_device, _stream.device_index

    class PerCallNew(Stream):
        """Stream.__init__ with a per-call ffi.new out-parameter in place of the thread-local one (Python base)."""

        __slots__ = ()

        def __init__(self, device=None, _new=ffi.new):
            stream = _new("cvStream *")
            index = None if device is None else device_index(device, "cvcuda.Stream: device")
            if index is None:
                status = create(stream)
            else:
                status = create_on_device(index, ffi.NULL, stream)
            if status:
                raise error_from_status(lib, status)
            self._cv = self._release = stream[0]
            if index is not None:
                self._device = index

    rows.append(("Stream() variant: per-call ffi.new out-parameter", per_call(lambda S=PerCallNew: S())))

    # The stub through ffi.dlopen of the selected ffi (the same file, already loaded), swapped into Stream().
    opened = ffi.dlopen(os.environ["CVCUDA_C_LIBRARY"])

    def opened_pair(c=opened.cvStreamCreate, r=opened.cvStreamRelease, o=out):
        c(o)
        r(o[0])

    rows.append(("cvStreamCreate + cvStreamRelease, ffi.dlopen of the stub", per_call(opened_pair)))
    defaults = Stream.__del__.__defaults__
    _stream._create, Stream.__del__.__defaults__ = opened.cvStreamCreate, (opened.cvStreamRelease,)
    try:
        rows.append(("cvcuda.Stream(), _create/release swapped for ffi.dlopen's", per_call(lambda S=Stream: S())))
    finally:
        _stream._create, Stream.__del__.__defaults__ = create, defaults
    return _library.ffi_mode, rows, notes


def make_stub(folder, build):
    """The stub libcvcuda_c.so.1 in `folder`, with the build's API-mode module beside it."""
    sys.path.insert(0, str(ROOT / "bindings" / "python"))
    from cvcuda import _library

    lib = _library.lib
    names = sorted(n for n in dir(lib) if not isinstance(getattr(lib, n), int))
    body = ["typedef struct cvStream_t *cvStream;"]
    for name in names:
        if name == "cvGetVersion":
            body.append(f"unsigned cvGetVersion(void) {{ return {lib.CVCUDA_C_VERSION_NUMBER}u; }}")
        elif name == "cvStreamPeekReusable":  # CV_NOT_READY (8) for handle 32: a kept stream that ran work
            body.append("int cvStreamPeekReusable(cvStream s) { return s == (cvStream)32 ? 8 : 0; }")
        elif name == "cvStreamCreate":
            body.append("int cvStreamCreate(cvStream *out) { *out = (cvStream)16; return 0; }")
        else:
            body.append(f"long {name}(void) {{ return 0; }}")
    source = folder / "stub.c"
    source.write_text("\n".join(body) + "\n")
    # The library's own version script: the extension's references carry its version node (CVCUDA_C_1.0).
    subprocess.run([os.environ.get("CC", "cc"), "-O2", "-shared", "-fPIC", "-Wl,-soname,libcvcuda_c.so.1",
                    f"-Wl,--version-script={ROOT / 'capi' / 'cvcuda_c.map'}", "-o", str(folder / "libcvcuda_c.so.1"), str(source)], check=True)
    extension, _ = _library.find_extension(str(build / "libcvcuda_c.so.1"))
    if extension is None:
        raise SystemExit(f"cffi_modes: no cffi API-mode module beside {build}/libcvcuda_c.so.1 (meson option python_capi)")
    os.symlink(extension, folder / os.path.basename(extension))
    stream_base, _ = _library.find_extension(str(build / "libcvcuda_c.so.1"), "_streambase")
    if stream_base is not None:  # Stream()'s C base, used in API mode where it lies beside the library
        os.symlink(stream_base, folder / os.path.basename(stream_base))
    return folder / "libcvcuda_c.so.1"


def run_child(mode, library, stub):
    env = dict(os.environ, CVCUDA_C_FFI=mode, CVCUDA_C_LIBRARY=str(library),
               PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT / "bindings" / "python"), os.environ.get("PYTHONPATH")])))
    result = subprocess.run([sys.executable, __file__, "--child", "stub" if stub else "real"], env=env,
                            capture_output=True, text=True)
    if result.returncode:
        raise SystemExit(f"cffi_modes: the {mode} child over {library} failed:\n{result.stderr}")
    got, rows, notes = json.loads(result.stdout)
    assert got == mode, (got, mode)
    return rows, notes


def import_ms(mode, library):
    """Wall time of `import cvcuda` in a fresh interpreter, less that of `pass`: min of 10 runs, ms."""
    env = dict(os.environ, CVCUDA_C_FFI=mode, CVCUDA_C_LIBRARY=str(library),
               PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT / "bindings" / "python"), os.environ.get("PYTHONPATH")])))

    def once(code):
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], env=env, check=True)
        return time.perf_counter() - t0

    return (min(once("import cvcuda") for _ in range(10)) - min(once("pass") for _ in range(10))) * 1e3


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default="build", help="the Meson build directory (with cvcuda._capi)")
    parser.add_argument("--log", default=None, help="also write the table here, this script's text above it")
    parser.add_argument("--host", default="the development machine (no GPU)",
                        help="the machine named in --log's header")
    parser.add_argument("--child", choices=("stub", "real"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(child_rows(args.child == "stub")))
        return 0
    build = (ROOT / args.build).resolve()
    os.environ.setdefault("CVCUDA_C_LIBRARY", str(build / "libcvcuda_c.so.1"))
    lines = [f"{'library':8} {'mode':4}  {'call':60} {'us/call':>8}"]
    notes = []
    with tempfile.TemporaryDirectory() as tmp:
        stub = make_stub(pathlib.Path(tmp), build)
        os.environ["CVCUDA_STUB_COPY"] = str(pathlib.Path(tmp) / "libstub-copy.so")
        shutil.copyfile(stub, os.environ["CVCUDA_STUB_COPY"])
        for library, is_stub in ((stub, True), (build / "libcvcuda_c.so.1", False)):
            results = {mode: run_child(mode, library, is_stub) for mode in ("abi", "api")}
            for i, (call, _) in enumerate(results["abi"][0]):
                for mode in ("abi", "api"):
                    name, us = results[mode][0][i]
                    assert name == call
                    shown = "—" if us is None else f"{us:.3f}"
                    lines.append(f"{'stub' if is_stub else 'real':8} {mode:4}  {call:60} {shown:>8}")
            notes += results["abi"][1] + results["api"][1]
        for mode in ("abi", "api"):
            lines.append(f"{'real':8} {mode:4}  {'import cvcuda (ms, fresh interpreter less `pass`, min of 10)':60} "
                         f"{import_ms(mode, build / 'libcvcuda_c.so.1'):8.1f}")
    table = "\n".join(lines + [""] + notes)
    print(table)
    if args.log:
        script = pathlib.Path(__file__).read_text().splitlines()
        header = [f"# cffi API mode against ABI mode, `python3 bench/cffi_modes.py --build {args.build}`, on "
                  f"{args.host} ({os.cpu_count()} CPUs), Python {sys.version.split()[0]}. The script:"]
        text = "\n".join(header + ["#   " + line if line else "#" for line in script]) + "\n\n" + table + "\n"
        pathlib.Path(args.log).write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
