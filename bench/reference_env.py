"""The environment of a process that must import the reference library (CV-CUDA), whose Python package has the same
name as ours (cvcuda): bench/run.py's reference worker and scripts/reference_agreement.py's."""

import os
import pathlib


def reference_env(reference, environ):
    """`environ` with PYTHONPATH = the reference's folder, then the inherited entries that hold no package named cvcuda
    (ours), so that `import cvcuda` is the reference; and without CVCUDA_C_LIBRARY (our C library). `environ` itself is
    left as it was."""
    inherited = environ.get("PYTHONPATH", "").split(os.pathsep)
    keep = [p for p in inherited if p and not (pathlib.Path(p) / "cvcuda").exists()]
    env = dict(environ, PYTHONPATH=os.pathsep.join([reference] + keep))
    env.pop("CVCUDA_C_LIBRARY", None)
    return env
