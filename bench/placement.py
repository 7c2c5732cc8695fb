"""Where a process's host figures were taken (its CPUs, the NUMA nodes, the GPU's local CPUs), for the benchmarks'
reports. On the GPU machine all the host figures of one process move together, by up to 1.9x from one process to the
next (docs/perf.md, "What moved since b527c97"); its placement is the first suspect, so each report names it."""
import os
import pathlib
import subprocess


def cpu_list(cpus):
    """Sorted CPU numbers as sysfs writes them: "0-7,16-23"."""
    runs, out = [], []
    for c in sorted(cpus):
        if runs and c == runs[-1][1] + 1:
            runs[-1][1] = c
        else:
            runs.append([c, c])
    for a, b in runs:
        out.append(f"{a}" if a == b else f"{a}-{b}")
    return ",".join(out)


def placement():
    """The CPUs this process may run on, the NUMA nodes, and GPU 0's local CPUs (sysfs of its PCI device); each part
    "unknown" where it cannot be read (no nvidia-smi, no sysfs)."""
    cpus = cpu_list(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else "unknown"
    nodes = len(list(pathlib.Path("/sys/devices/system/node").glob("node[0-9]*"))) or "unknown"
    local = "unknown"
    try:
        bus = subprocess.run(["nvidia-smi", "--query-gpu=pci.bus_id", "--format=csv,noheader", "-i", "0"],
                             capture_output=True, text=True, check=True).stdout.strip().splitlines()[0]
        domain, rest = bus.split(":", 1)  # "00000000:19:00.0"; sysfs names it "0000:19:00.0"
        device = pathlib.Path("/sys/bus/pci/devices") / f"{domain[-4:]}:{rest}".lower()
        local = (device / "local_cpulist").read_text().strip()
    except (OSError, subprocess.CalledProcessError, IndexError, ValueError):
        pass
    return {"cpus": cpus, "numa_nodes": nodes, "gpu_local_cpus": local}
