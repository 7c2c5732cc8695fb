"""Prints one line "N passed, N failed, N skipped" for a Meson build's test run.

Counts test cases from the JUnit files the suites write to <build>/test-results/ (Catch2 and pytest), and counts a
Meson test that failed without reporting a failed case (e.g. it crashed before writing its report) as one failure.
"""
import json
import pathlib
import sys
import xml.etree.ElementTree as ET


def junit_counts(path):
    root = ET.parse(path).getroot()
    suites = [root] if root.tag == "testsuite" else root.iter("testsuite")
    total = failed = skipped = 0
    for suite in suites:
        total += int(suite.get("tests", 0))
        failed += int(suite.get("failures", 0)) + int(suite.get("errors", 0))
        skipped += int(suite.get("skipped", 0))
    return total, failed, skipped


def main(build):
    build = pathlib.Path(build)
    total = failed = skipped = 0
    for xml in sorted((build / "test-results").glob("*.xml")):
        t, f, s = junit_counts(xml)
        total, failed, skipped = total + t, failed + f, skipped + s
    log = build / "meson-logs" / "testlog.json"
    if log.exists():
        reported_failures = failed
        crashed = 0
        for line in log.read_text().splitlines():
            result = json.loads(line).get("result")
            if result not in ("OK", "SKIP", "EXPECTEDFAIL"):
                crashed += 1
        if crashed and not reported_failures:
            total, failed = total + crashed, failed + crashed
    print(f"{total - failed - skipped} passed, {failed} failed, {skipped} skipped")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "build")
