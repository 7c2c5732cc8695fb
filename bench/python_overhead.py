"""Host time per call of the Python layer (targets: <= 5 us for flip and for as_tensor).

Measures, on an idle GPU, the median host wall time over 10 000 calls of:
  cvcuda.flip(t, 1, stream=s)   on a 1x224x224x3 uint8 NHWC tensor
  cvcuda.as_tensor(torch_tensor, "NHWC")
  torch.flip(x, [2])            for comparison
The stream is synchronised every 256 calls so the GPU queue stays short (the host cost is what is measured).
Prints a table and writes it into docs/perf.md (section "Python per-call overhead").
"""
import pathlib
import statistics
import sys
import time

import torch

import cvcuda

N = 10_000
BATCH = 256


def per_call_us(fn, sync):
    for _ in range(500):
        fn()
    sync()
    samples = []
    done = 0
    while done < N:
        t0 = time.perf_counter_ns()
        for _ in range(BATCH):
            fn()
        t1 = time.perf_counter_ns()
        sync()
        samples.append((t1 - t0) / BATCH / 1000.0)
        done += BATCH
    return statistics.median(samples)


def main():
    if not torch.cuda.is_available():
        print("python_overhead: no CUDA GPU available", file=sys.stderr)
        return 1
    x = torch.randint(0, 256, (1, 224, 224, 3), dtype=torch.uint8, device="cuda")
    s = cvcuda.Stream()
    t = cvcuda.as_tensor(x, "NHWC")
    cvcuda.flip(t, 1, stream=s)
    s.sync()
    rows = [
        ("cvcuda.flip(t, 1, stream=s), 1x224x224x3 u8", per_call_us(lambda: cvcuda.flip(t, 1, stream=s), s.sync), 5.0),
        ("cvcuda.as_tensor(torch_tensor, 'NHWC')", per_call_us(lambda: cvcuda.as_tensor(x, "NHWC"), lambda: None), 5.0),
        ("torch.flip(x, [2]) (comparison)", per_call_us(lambda: torch.flip(x, [2]), torch.cuda.synchronize), None),
    ]
    lines = [
        f"GPU: {torch.cuda.get_device_name()}, torch {torch.__version__}, {time.strftime('%Y-%m-%d', time.gmtime())}; "
        f"median of {N // BATCH} batches of {BATCH} calls",
        "",
        "| call | host us/call | target |",
        "|---|---|---|",
    ]
    for name, us, target in rows:
        verdict = "" if target is None else (f"<= {target} {'met' if us <= target else 'NOT met'}")
        lines.append(f"| {name} | {us:.2f} | {verdict} |")
    table = "\n".join(lines)
    print(table)
    write_section(pathlib.Path(__file__).resolve().parent.parent / "docs" / "perf.md", "Python per-call overhead", table)
    return 0


def write_section(path, title, body):
    """Replaces (or appends) the section '## <title>' of path, leaving other sections alone."""
    text = path.read_text() if path.exists() else "# Performance\n"
    begin, end = f"<!-- begin: {title} -->", f"<!-- end: {title} -->"
    block = f"{begin}\n## {title}\n\n{body}\n{end}"
    if begin in text and end in text:
        text = text[: text.index(begin)] + block + text[text.index(end) + len(end):]
    else:
        text = text.rstrip() + "\n\n" + block + "\n"
    path.write_text(text)


if __name__ == "__main__":
    sys.exit(main())
