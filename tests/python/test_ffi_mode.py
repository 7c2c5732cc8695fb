"""Which cffi mode `import cvcuda` picks (cvcuda/_library.py's rule), and that the compiled API-mode module declares
exactly what the committed ABI-mode module does.

The rule: the API module `_capi<extension suffix>` is used when it lies in the directory of the library file chosen
(CVCUDA_C_LIBRARY, else the copy bundled in the package, else the system loader, which has no directory and so gives
ABI mode); CVCUDA_C_FFI=abi forces ABI mode, CVCUDA_C_FFI=api requires the module. Each import case runs in a fresh
interpreter (the mode is fixed at import); the layouts are built in tmp_path from symlinks to the tested build.
"""

import json
import os
import shutil
import subprocess
import sys

import pytest

import cvcuda._ffi_abi as abi_module
from cvcuda import _library

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
PACKAGE = os.path.join(ROOT, "bindings", "python", "cvcuda")
LIBRARY = os.environ.get("CVCUDA_C_LIBRARY", "")
EXTENSION = _library.find_extension(LIBRARY)[0] if LIBRARY else None
needs_library = pytest.mark.skipif(not LIBRARY, reason="CVCUDA_C_LIBRARY is not set (the meson test sets it)")
needs_extension = pytest.mark.skipif(
    EXTENSION is None, reason=f"no cffi API-mode module beside {LIBRARY or 'the library'} (meson option python_capi)")

# What the child prints: the mode, the files it loaded, and every libcvcuda_c file mapped into it.
PROBE = (
    "import json, cvcuda._library as L\n"
    "maps = sorted({l.split()[-1] for l in open('/proc/self/maps') if 'libcvcuda_c' in l})\n"
    "print(json.dumps({'mode': L.ffi_mode, 'library': L.library_path, 'extension': L.extension_path,"
    " 'maps': maps, 'version': L.__c_version__}))\n"
)


def run_python(code, env_changes, pythonpath):
    env = {k: v for k, v in os.environ.items() if k not in ("CVCUDA_C_FFI", "CVCUDA_C_LIBRARY", "PYTHONPATH")}
    env["PYTHONPATH"] = os.pathsep.join([pythonpath] + [p for p in [os.environ.get("PYTHONPATH", "")] if p])
    env.update({k: v for k, v in env_changes.items() if v is not None})
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)


def link(target, folder):
    os.symlink(os.path.abspath(target), os.path.join(folder, os.path.basename(target)))


@pytest.fixture(scope="module")
def layouts(tmp_path_factory):
    """name -> (PYTHONPATH, CVCUDA_C_LIBRARY or None): the tested build, a directory with the library alone, and a copy
    of the package with the library (and the extension, when built) inside, as pip installs it."""
    base = tmp_path_factory.mktemp("layouts")
    alone = base / "alone"
    alone.mkdir()
    link(LIBRARY, alone)
    installed = base / "installed"
    shutil.copytree(PACKAGE, installed / "cvcuda", ignore=shutil.ignore_patterns("__pycache__"))
    link(LIBRARY, installed / "cvcuda")
    os.rename(installed / "cvcuda" / os.path.basename(LIBRARY), installed / "cvcuda" / "libcvcuda_c.so.1")
    bare = base / "bare"
    shutil.copytree(installed, bare)
    if EXTENSION:
        link(EXTENSION, installed / "cvcuda")
    source = os.path.dirname(PACKAGE)
    return {
        "build": (source, LIBRARY),
        "alone": (source, str(alone / os.path.basename(LIBRARY))),
        "installed": (str(installed), None),
        "installed without extension": (str(bare), None),
        "system loader": (source, None),
        "missing library": (source, str(base / "nowhere" / "libcvcuda_c.so.1")),
    }


# (layout, CVCUDA_C_FFI, needs the extension, mode expected)
MODE_CASES = [
    ("build", None, True, "api"),
    ("build", "", True, "api"),
    ("build", "auto", True, "api"),
    ("build", "api", True, "api"),
    ("build", "abi", False, "abi"),
    ("alone", None, False, "abi"),
    ("alone", "abi", False, "abi"),
    ("installed", None, True, "api"),
    ("installed", "abi", False, "abi"),
    ("installed without extension", None, False, "abi"),
    ("system loader", None, False, "abi"),
]


@needs_library
@pytest.mark.parametrize("layout,variable,needs,expected", MODE_CASES,
                         ids=[f"{c[0]}-CVCUDA_C_FFI={c[1]}" for c in MODE_CASES])
def test_the_mode_follows_the_layout_and_the_variable(layouts, layout, variable, needs, expected):
    if needs and EXTENSION is None:
        pytest.skip(f"no cffi API-mode module beside {LIBRARY} (meson option python_capi)")
    pythonpath, library = layouts[layout]
    env = {"CVCUDA_C_FFI": variable, "CVCUDA_C_LIBRARY": library}
    if layout == "system loader":
        env["LD_LIBRARY_PATH"] = os.path.dirname(os.path.abspath(LIBRARY))
    result = run_python(PROBE, env, pythonpath)
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""  # ABI mode without the extension is silent
    probe = json.loads(result.stdout)
    assert probe["mode"] == expected
    assert (probe["extension"] is not None) == (expected == "api")
    if expected == "api":
        assert os.path.dirname(probe["extension"]) == os.path.dirname(os.path.abspath(probe["library"]))
    assert len(probe["maps"]) == 1, probe["maps"]  # one library file in the process, whichever mode


# (layout, CVCUDA_C_FFI, texts the ImportError must contain: {dir} is the library's directory)
ERROR_CASES = [
    ("alone", "api", ["CVCUDA_C_FFI=api", "{dir}" + os.sep + "_capi", "python_capi"]),
    ("installed without extension", "api", ["CVCUDA_C_FFI=api", "{dir}" + os.sep + "_capi"]),
    ("system loader", "api", ["CVCUDA_C_FFI=api", "system loader"]),
    ("missing library", "api", ["cannot load the C library", "{dir}", "CVCUDA_C_LIBRARY"]),  # the library first
    ("build", "API", ["CVCUDA_C_FFI", "'API'", "'abi'", "'api'", "'auto'"]),
    ("build", "ctypes", ["CVCUDA_C_FFI", "'ctypes'", "'abi'", "'api'", "'auto'"]),
    ("build", " abi", ["CVCUDA_C_FFI", "' abi'", "'abi'", "'api'", "'auto'"]),
]


@needs_library
@pytest.mark.parametrize("layout,variable,texts", ERROR_CASES, ids=[f"{c[0]}-CVCUDA_C_FFI={c[1]!r}" for c in ERROR_CASES])
def test_an_unmet_or_unknown_mode_is_an_import_error(layouts, layout, variable, texts):
    pythonpath, library = layouts[layout]
    env = {"CVCUDA_C_FFI": variable, "CVCUDA_C_LIBRARY": library}
    if layout == "system loader":
        env["LD_LIBRARY_PATH"] = os.path.dirname(os.path.abspath(LIBRARY))
    result = run_python("import cvcuda", env, pythonpath)
    assert result.returncode != 0
    assert "ImportError" in result.stderr
    folder = os.path.dirname(os.path.abspath(library)) if library else os.path.join(pythonpath, "cvcuda")
    for text in texts:
        assert text.format(dir=folder) in result.stderr, result.stderr


@needs_library
@needs_extension
def test_api_mode_binds_the_extension_to_the_library_file_chosen(tmp_path):
    # A real copy of the library (another file, same soname) with the extension beside it: the extension's RUNPATH
    # leads to the build's library, but only the copy may be loaded.
    copy = tmp_path / "libcvcuda_c.so.1"
    shutil.copyfile(LIBRARY, copy)
    link(EXTENSION, tmp_path)
    result = run_python(PROBE, {"CVCUDA_C_LIBRARY": str(copy)}, os.path.dirname(PACKAGE))
    assert result.returncode == 0, result.stderr
    probe = json.loads(result.stdout)
    assert probe["mode"] == "api"
    assert probe["maps"] == [str(copy)]
    # Another file of the same soname loaded before: the extension would bind to that one, so the import refuses.
    first = f"import ctypes; ctypes.CDLL({os.path.realpath(LIBRARY)!r})\n"
    result = run_python(first + PROBE, {"CVCUDA_C_LIBRARY": str(copy)}, os.path.dirname(PACKAGE))
    assert result.returncode != 0
    assert "ImportError" in result.stderr and "another file" in result.stderr, result.stderr
    result = run_python(first + PROBE, {"CVCUDA_C_LIBRARY": str(copy), "CVCUDA_C_FFI": "abi"}, os.path.dirname(PACKAGE))
    assert result.returncode == 0, result.stderr


def _api_module():
    """The compiled module: the one the package loaded, or (in ABI mode) the one beside the library, loaded now."""
    if _library.ffi_mode == "api":
        return sys.modules["cvcuda._capi"]
    import importlib.util

    # Its own name (the init function is PyInit__capi), not entered in sys.modules: nothing else sees this copy.
    spec = importlib.util.spec_from_file_location("cvcuda._capi", EXTENSION)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _layout(ffi, ctype):
    """Size, alignment and fields of a struct or union ctype (or the C spelling of one); None when opaque."""
    ctype = ffi.typeof(ctype)
    if ctype.kind not in ("struct", "union"):
        return ctype.kind
    try:
        ffi.sizeof(ctype)
    except ffi.error:  # opaque (the handles' structs); cffi 2.1.1 aborts on .fields of an opaque API-mode struct
        return None
    return (ffi.sizeof(ctype), ffi.alignof(ctype),
            [(f, field.offset, field.type.cname, field.bitsize, field.bitshift) for f, field in ctype.fields])


@needs_library
@needs_extension
def test_the_api_module_declares_what_the_abi_module_declares():
    api = _api_module()
    abi_ffi, api_ffi = abi_module.ffi, api.ffi
    abi_lib = abi_ffi.dlopen(LIBRARY)  # the same file, already loaded: no second copy
    assert abi_ffi.list_types() == api_ffi.list_types()
    typedefs, structs, unions = abi_ffi.list_types()
    assert typedefs and structs
    for name in typedefs:
        assert abi_ffi.typeof(name).cname == api_ffi.typeof(name).cname, name
        assert _layout(abi_ffi, name) == _layout(api_ffi, name), name  # typedefs of anonymous structs among them
    for kind, names in (("struct", structs), ("union", unions)):
        for name in names:
            assert _layout(abi_ffi, f"{kind} {name}") == _layout(api_ffi, f"{kind} {name}"), f"{kind} {name}"
    assert sorted(dir(abi_lib)) == sorted(dir(api.lib))
    functions = constants = 0
    for name in dir(abi_lib):
        abi_value, api_value = getattr(abi_lib, name), getattr(api.lib, name)
        if isinstance(abi_value, int):
            assert api_value == abi_value and isinstance(api_value, int), name
            constants += 1
        else:
            assert abi_ffi.typeof(abi_value).cname == api_ffi.typeof(api_value).cname, name
            functions += 1
    assert functions >= 40 and constants >= 50  # 49 and 168 at the time of writing: the comparison saw them
    for name in ("CV_MAX_DIMS", "CVCUDA_C_VERSION_MAJOR", "CVCUDA_C_VERSION_NUMBER", "CV_ERROR_CUDA"):
        assert api_ffi.integer_const(name) == abi_ffi.integer_const(name) == getattr(abi_lib, name)


@needs_library
def test_every_module_uses_the_selected_ffi():
    # cdata of two FFI instances do not mix: the modules' ffi must be the one the library was loaded with.
    import cvcuda
    from cvcuda import _dlpack, _errors, _ffi, _op, _ops_border, _ops_normalize, _ops_resize, _stream, _tensor

    assert cvcuda._library.ffi_mode in ("api", "abi")
    for module in (_dlpack, _errors, _ffi, _op, _ops_border, _ops_normalize, _ops_resize, _stream, _tensor):
        assert module.ffi is _library.ffi, module.__name__
    expected = sys.modules["cvcuda._capi"].ffi if _library.ffi_mode == "api" else abi_module.ffi
    assert _library.ffi is expected
    assert _library.ffi_mode == ("api" if os.environ.get("CVCUDA_C_FFI") != "abi" and EXTENSION else "abi")
    # Stream()'s C base comes with API mode: Meson builds it beside the library with cvcuda._capi.
    assert (_library.stream_base is not None) == (_library.ffi_mode == "api")
    assert (_stream._native is _library.stream_base) and _stream.Stream.__bases__ == (
        (_library.stream_base.StreamBase,) if _library.stream_base else (_stream._KeptBase,))
