"""The commit a measurement was made at, for the headers of bench/run.py's tables and scripts/reference_agreement.py's."""

import os
import subprocess


def commit_name(root):
    """CVCUDA_COMMIT (set by scripts/gpu-check.sh's caller where the copy has no .git, as on the GPU machine), else git's
    short HEAD of the checkout at `root`, else 'unknown'."""
    commit = os.environ.get("CVCUDA_COMMIT")
    if commit:
        return commit
    try:
        return subprocess.run(["git", "-C", str(root), "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                              check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
