"""Every file of the Python package is in bindings/python/meson.build's install lists (meson install, pip install .):
cvcuda/tv/_fused.py was missing from them, so `import cvcuda.tv` failed from a wheel while every in-tree test passed."""

import os
import re

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
PYTHON = os.path.join(ROOT, "bindings", "python")


def test_every_package_file_is_installed():
    with open(os.path.join(PYTHON, "meson.build")) as f:
        listed = set(re.findall(r"'(cvcuda/[^']+\.(?:py|typed))'", f.read()))
    present = set()
    for folder, dirs, files in os.walk(os.path.join(PYTHON, "cvcuda")):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        for name in files:
            if name.endswith((".py", ".typed")):
                present.add(os.path.relpath(os.path.join(folder, name), PYTHON).replace(os.sep, "/"))
    assert present - listed == set(), "add these to bindings/python/meson.build's install_sources"
    assert listed - present == set(), "listed in bindings/python/meson.build but not in the tree"
