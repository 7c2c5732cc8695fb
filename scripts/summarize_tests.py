"""Prints one line "N passed, N failed, N skipped" for the test runs of one or more Meson build directories
(scripts/test.sh: the normal build and the sanitizer builds of scripts/sanitizers.sh).

Usage: summarize_tests.py [--list-skips] [BUILD_DIR ...] (default: build)

Counts test cases (not assertions): the <testcase> elements of the JUnit files that suites write to
<build>/test-results/<meson test name>.xml (Catch2, pytest). A Meson test without such a file counts as one case
(exit 77 = skipped; its reason is the last line it printed). Every JUnit file in <build>/test-results/direct/ (runs
made outside Meson) counts too. Skip reasons are printed whole, grouped, with counts.
With --list-skips, each skipped case is listed with its reason first. A Meson test that failed without reporting a
failed case (e.g. it crashed before writing its report) counts as one more failure.
"""
import json
import pathlib
import re
import sys
import xml.etree.ElementTree as ET


def junit_cases(path, skips=None, reasons=None):
    passed = failed = skipped = 0
    for case in ET.parse(path).getroot().iter("testcase"):
        tags = {child.tag: child for child in case}
        if "failure" in tags or "error" in tags:
            failed += 1
        elif "skipped" in tags or case.get("status") == "skipped":
            skipped += 1
            reason = tags["skipped"].get("message") or (tags["skipped"].text or "") if "skipped" in tags else ""
            reason = " ".join(reason.split())
            if skips is not None:
                skips.append(f"{path.stem}: {case.get('name')}: {reason}")
            if reasons is not None:
                short = re.sub(r"\s+at \S+:\d+$", "", reason.removeprefix("SKIPPED").strip())
                reasons[short] = reasons.get(short, 0) + 1
        else:
            passed += 1
    return passed, failed, skipped


def last_line(entry):
    """The last line a Meson test printed (its skip reason), from the test log entry."""
    for stream in ("stdout", "stderr"):
        lines = [line.strip() for line in (entry.get(stream) or "").splitlines() if line.strip()]
        if lines:
            return lines[-1]
    return "it printed no reason; see meson-logs/testlog.txt"


def count_build(build, skips, reasons):
    build = pathlib.Path(build)
    results = build / "test-results"
    passed = failed = skipped = 0
    log = build / "meson-logs" / "testlog.json"
    entries = [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []
    for entry in entries:
        xml = results / f"{entry['name'].split(':')[-1]}.xml"
        ok = entry.get("result") in ("OK", "EXPECTEDFAIL")
        if xml.exists():
            p, f, s = junit_cases(xml, skips, reasons)
            if not ok and entry.get("result") != "SKIP" and f == 0:
                f += 1
        else:
            p, f, s = (1, 0, 0) if ok else (0, 0, 1) if entry.get("result") == "SKIP" else (0, 1, 0)
            if s:
                key = f"whole Meson test (exit 77): {last_line(entry)}"
                reasons[key] = reasons.get(key, 0) + 1
                if skips is not None:
                    skips.append(f"{entry['name']}: {last_line(entry)}")
        passed, failed, skipped = passed + p, failed + f, skipped + s
    # Runs made outside `meson test` (scripts/sanitizers.sh: pytest under ASan, the fuzz run) report here.
    for xml in sorted((results / "direct").glob("*.xml")):
        p, f, s = junit_cases(xml, skips, reasons)
        passed, failed, skipped = passed + p, failed + f, skipped + s
    return passed, failed, skipped


def main(builds, list_skips=False):
    skips = [] if list_skips else None
    reasons = {}  # why cases skipped, with counts, always printed
    passed = failed = skipped = 0
    for build in builds:
        p, f, s = count_build(build, skips, reasons)
        passed, failed, skipped = passed + p, failed + f, skipped + s
    for line in skips or []:
        print(f"- skipped: {line}")
    if reasons:
        for reason, n in sorted(reasons.items(), key=lambda item: -item[1]):
            print(f"skipped {n}: {reason}")
    print(f"{passed} passed, {failed} failed, {skipped} skipped")


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if a != "--list-skips"]
    main(args or ["build"], list_skips="--list-skips" in sys.argv)
