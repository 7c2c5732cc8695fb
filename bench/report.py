"""docs/perf.md's generated section and the plots in docs/img/, from bench/run.py's results.

The section lies between the markers below; the rest of docs/perf.md (analyses, profiles) is left as it is.
matplotlib is imported only here, when the plots are drawn.
"""
import pathlib

BEGIN, END = "<!-- bench:run:begin -->", "<!-- bench:run:end -->"
LABEL = {"ours_c": "ours (C API)", "ours": "ours", "reference": "CV-CUDA 0.19", "torch": "torch", "copy": "copy"}
COLOR = {"ours_c": "#1f77b4", "ours": "#2ca02c", "reference": "#d62728", "torch": "#ff7f0e", "copy": "#7f7f7f"}
PLOT_BANDWIDTH = "bench_bandwidth.png"
PLOT_HOST = "bench_host.png"


def us(cell):
    return cell.get("us") if isinstance(cell, dict) else None


def fmt_us(cell):
    v = us(cell)
    if v is None:
        return "—"
    mark = " ‡" if cell.get("gaps") else ""
    mark += " ✗" if cell.get("equals_torch") is False else ""
    return (f"{v:.1f}" if v >= 10 else f"{v:.2f}") + mark


def fmt_ratio(a, b):
    """b / a as 'x.xx' (a, b: times; > 1: a is faster), or — ."""
    return f"{b / a:.2f}" if a and b else "—"


def sides_present(results, keys, order):
    return [s for s in order if any(us(results.get(k, {}).get(s)) is not None for k in keys)]


def env_lines(env):
    host = env.get("host") or {}
    worker = env.get("reference_host")
    where = (f"- host: CPUs {host.get('cpus', 'unknown')} (this process's), {host.get('numa_nodes', 'unknown')} NUMA "
             f"node(s), the GPU's local CPUs {host.get('gpu_local_cpus', 'unknown')}")
    if worker and worker.get("cpus") != host.get("cpus"):
        where += f"; the reference's worker: CPUs {worker.get('cpus')}"
    return [f"- GPU: {env['gpu']} ({env['sms']} SMs, {env['memory_gib']} GiB, L2 {env['l2_mib']} MiB); driver "
            f"{env['driver']}; CUDA {env['cuda']}",
            f"- ours: cvcuda {env['ours']}; reference: "
            + (f"CV-CUDA {env['reference']} (its own process)" if env.get("reference") else "not measured")
            + f"; torch {env['torch']}, torchvision {env.get('torchvision') or 'absent'}; Python {env['python']}",
            where,
            f"- date: {env['date']}"]


def gpu_table(cases, results, order):
    keys = [c.key for c in cases]
    sides = sides_present(results, keys, order)
    head = ["operator", "input", "MB moved"] + [f"{LABEL[s]} µs" for s in sides]
    ratio_sides = [s for s in sides if s != "copy"] if "copy" in sides else []
    head += [f"{LABEL[s]} / copy" for s in ratio_sides]
    compare = "ours" in sides and "reference" in sides
    if compare:
        head.append("ours vs CV-CUDA")
    lines = ["| " + " | ".join(head) + " |", "|---|---|" + "---:|" * (len(head) - 2)]
    for c in cases:
        r = results.get(c.key, {})
        row = [c.op, c.name + (f" ({c.note})" if c.note else ""), f"{c.bytes_moved / 1e6:.1f}"]
        row += [fmt_us(r.get(s)) for s in sides]
        row += [fmt_ratio(us(r.get(s)), us(r.get("copy"))) for s in ratio_sides]
        if compare:
            row.append(fmt_ratio(us(r.get("ours")), us(r.get("reference"))))
        lines.append("| " + " | ".join(row) + " |")
    return lines


def host_method(data, host):
    """How the host rows were timed, read off their cells (an older results file: 7 batches, one side at a time)."""
    cells = [cell for c in host for cell in data["results"].get(c.key, {}).values()
             if isinstance(cell, dict) and "us" in cell]
    if not cells:
        return ""
    batches, calls = cells[0].get("batches", "?"), cells[0].get("calls_per_batch", "?")
    sides = "ours, torch" + (" and CV-CUDA in its own process" if data.get("reference_ok") else "")
    # Cells say whether their sides took turns (bench/timing.py host_rounds); before they did, every run had 7 batches.
    turns = (f", the sides ({sides}) taking turns batch by batch, so that the host's slow and fast spells fall on "
             f"all alike" if cells[0].get("turns", batches != 7) else ", one side after the other")
    return f"Host rows: host time per call, GPU idle, median of {batches} batches of {calls} calls{turns}."


def host_table(cases, results):
    keys = [c.key for c in cases]
    sides = sides_present(results, keys, ("ours", "reference", "torch"))
    head = ["call (1x224x224x3 u8)"] + [f"{LABEL[s]} µs" for s in sides]
    compare = "ours" in sides and "reference" in sides
    if compare:
        head.append("ours vs CV-CUDA")
    lines = ["| " + " | ".join(head) + " |", "|---|" + "---:|" * (len(head) - 1)]
    for c in cases:
        r = results.get(c.key, {})
        row = [c.name] + [fmt_us(r.get(s)) for s in sides]
        if compare:
            row.append(fmt_ratio(us(r.get("ours")), us(r.get("reference"))))
        lines.append("| " + " | ".join(row) + " |")
    return lines


def notes(cases, results):
    """One line per (operator, column, reason), with the rows it concerns."""
    grouped = {}
    for c in cases:
        r = results.get(c.key)
        if r is None:
            continue
        if "error" in r:
            grouped.setdefault((c.op, "row", f"not measured: {r['error']}"), []).append(c.name)
        for side, cell in r.items():
            if isinstance(cell, dict) and "skip" in cell:
                grouped.setdefault((c.op, LABEL.get(side, side), f"skipped: {cell['skip']}"), []).append(c.name)
            if isinstance(cell, dict) and cell.get("syncs_per_call"):
                grouped.setdefault((c.op, LABEL.get(side, side), f"{cell['syncs_per_call']:.2f} device syncs per call"),
                                   []).append(c.name)
    out = []
    for (op, side, why), names in grouped.items():
        rows = names[0] if len(names) == 1 else f"{len(names)} rows"
        out.append(f"- {op} ({rows}): {side} {why}")
    return out


def section(data, cases, img_rel):
    results, env = data["results"], data["env"]
    measured = [c for c in cases if c.key in results]
    gpu = [c for c in measured if c.kind == "gpu"]
    host = [c for c in measured if c.kind == "host"]
    order = ("ours_c", "ours", "reference", "torch", "copy")
    lines = ["## Benchmark: ours, CV-CUDA 0.19, torch and the copy limit (bench/run.py)", "",
             "Written by `bench/run.py` (run through `scripts/gpu-check.sh`); not edited by hand.", ""]
    lines += env_lines(env)
    ref_note = ("" if data.get("reference_given") else
                " The reference column is left out: the run was not given `--reference`.")
    if data.get("reference_given") and not data.get("reference_ok"):
        ref_note = " The reference library's process failed; its column is left out (see the run's log)."
    lines += ["", "GPU rows: GPU time per call (µs) from CUDA events around batches of calls queued behind a spin "
              "kernel (no host gaps), median of 9 batches; every call takes the next of enough buffer sets to leave "
              "L2. MB moved = bytes read + written (a resize: its source once and its output once). copy = a "
              "device-to-device copy of the same bytes; `x / copy` = copy time / x time (1.00 = at the limit). "
              "`ours vs CV-CUDA` = CV-CUDA's time / ours (> 1: ours is faster). " + host_method(data, host) + " "
              "‡: some batches had host gaps (a call that waits for the "
              "GPU); ✗: output differs from torch's (exact rows only)." + ref_note, ""]
    lines += [f"![bandwidth against size]({img_rel}/{PLOT_BANDWIDTH})", ""]
    headline = [c for c in gpu if c.table and c.headline]
    if headline:
        lines += ["### Summary: GPU time", ""] + gpu_table(headline, results, order) + [""]
        torch_runs = dict.fromkeys(f"{c.op}: {c.torch_name}" for c in gpu if c.torch_name)
        lines += ["The torch column runs " + "; ".join(torch_runs) + ".", ""]
    if host:
        lines += ["### Host time per call", ""] + host_table(host, results) + ["",
                  f"![host time per call]({img_rel}/{PLOT_HOST})", ""]
    rest = [c for c in gpu if c.table and not c.headline]
    if rest:
        lines += ["### More rows", ""] + gpu_table(rest, results, order) + [""]
    sweep = [c for c in gpu if not c.table]
    if sweep:
        lines += ["### Size sweep (the plot's points)", ""] + gpu_table(sweep, results, order) + [""]
    n = notes(measured, results)
    if n:
        lines += ["### Skipped and notes", ""] + n + [""]
    lines.append(f"Run time: {data.get('seconds', '?')} s.")
    return "\n".join(lines)


def summary(data, cases):
    """The summary and host tables alone, for the run's log (scripts/gpu-check.sh quotes its end)."""
    results = data["results"]
    measured = [c for c in cases if c.key in results]
    headline = [c for c in measured if c.kind == "gpu" and c.table and c.headline]
    host = [c for c in measured if c.kind == "host"]
    order = ("ours_c", "ours", "reference", "torch", "copy")
    return ((["GPU time per call (µs):"] + gpu_table(headline, results, order) if headline else []) +
            (["", "Host time per call (µs):"] + host_table(host, results) if host else []))


def write_section(path, text):
    doc = path.read_text() if path.exists() else "# Performance\n"
    block = f"{BEGIN}\n{text}\n{END}"
    if BEGIN in doc and END in doc:
        doc = doc[:doc.index(BEGIN)] + block + doc[doc.index(END) + len(END):]
    else:  # first time: right under the title, above the older hand-written analyses
        head, _, tail = doc.partition("\n")
        doc = head + "\n\n" + block + "\n" + tail
    path.write_text(doc)


def plot(data, cases, img_dir):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    results = data["results"]
    gpu = [c for c in cases if c.kind == "gpu" and c.key in results]
    ops = list(dict.fromkeys(c.op for c in gpu))
    written = []
    if ops:
        cols = min(4, len(ops))
        rows = (len(ops) + cols - 1) // cols
        fig, axes = plt.subplots(rows, cols, figsize=(4.2 * cols, 3.4 * rows), squeeze=False)
        for ax, op in zip(axes.flat, ops):
            op_cases = [c for c in gpu if c.op == op]
            lines = list(dict.fromkeys(c.plot for c in op_cases if c.plot))
            styles = ["-", "--", ":", "-."]
            for side in LABEL:
                for i, line in enumerate(lines):
                    pts = sorted((c.bytes_moved / 1e6, results[c.key][side]["gbs"]) for c in op_cases
                                 if c.plot == line and "gbs" in results[c.key].get(side, {}))
                    if pts:
                        ax.plot(*zip(*pts), styles[i % 4], marker="o", ms=3, color=COLOR[side],
                                label=f"{LABEL[side]}" + (f", {line}" if len(lines) > 1 else ""))
                pts = [(c.bytes_moved / 1e6, results[c.key][side]["gbs"]) for c in op_cases
                       if not c.plot and "gbs" in results[c.key].get(side, {})]
                if pts:
                    ax.scatter(*zip(*pts), s=14, color=COLOR[side], label=None if lines else LABEL[side])
            ax.set_xscale("log")
            ax.set_ylim(bottom=0)
            ax.set_title(op, fontsize=10)
            ax.set_xlabel("MB read + written per call", fontsize=8)
            ax.set_ylabel("GB/s", fontsize=8)
            ax.tick_params(labelsize=7)
            ax.grid(True, alpha=0.3)
            ax.legend(fontsize=6)
        for ax in list(axes.flat)[len(ops):]:
            ax.axis("off")
        fig.suptitle(f"Effective bandwidth, {data['env']['gpu']} ({data['env']['date']})", fontsize=11)
        fig.tight_layout()
        fig.savefig(img_dir / PLOT_BANDWIDTH, dpi=110)
        plt.close(fig)
        written.append(img_dir / PLOT_BANDWIDTH)
    host = [c for c in cases if c.kind == "host" and c.key in results]
    if host:
        sides = [s for s in ("ours", "reference", "torch") if any(us(results[c.key].get(s)) for c in host)]
        fig, ax = plt.subplots(figsize=(8, 3.6))
        width = 0.8 / max(1, len(sides))
        for j, side in enumerate(sides):
            xs = [i + (j - (len(sides) - 1) / 2) * width for i in range(len(host))]
            vals = [us(results[c.key].get(side)) or 0 for c in host]
            ax.bar(xs, vals, width, color=COLOR[side], label=LABEL[side])
        ax.set_xticks(range(len(host)))
        ax.set_xticklabels([c.name for c in host], fontsize=7, rotation=15, ha="right")
        ax.set_ylabel("host µs per call", fontsize=8)
        ax.set_title("Host time per call (GPU idle, 1x224x224x3 uint8)", fontsize=10)
        ax.legend(fontsize=7)
        ax.grid(True, axis="y", alpha=0.3)
        fig.tight_layout()
        fig.savefig(img_dir / PLOT_HOST, dpi=110)
        plt.close(fig)
        written.append(img_dir / PLOT_HOST)
    return written


def write(data, cases, perf_path, img_dir):
    """Writes the section into perf_path and the plots into img_dir; returns the files written."""
    img_dir.mkdir(parents=True, exist_ok=True)
    try:
        rel = pathlib.Path(img_dir.resolve()).relative_to(perf_path.resolve().parent).as_posix()
    except ValueError:
        rel = img_dir.as_posix()
    write_section(perf_path, section(data, cases, rel))
    files = [perf_path]
    try:
        files += plot(data, cases, img_dir)
    except ImportError as exc:
        print(f"report: no plots ({exc}); the tables are written", flush=True)
    for f in files:
        print(f"wrote {f}", flush=True)
    return files
