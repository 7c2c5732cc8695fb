#!/usr/bin/env python3
"""Writes a JUnit report of one test case, for checks that are not test programs themselves (the fuzz run of
scripts/sanitizers.sh), so that scripts/summarize_tests.py counts them.

Usage: junit_case.py XML SUITE CASE passed|failed|skipped [MESSAGE]
"""
import pathlib
import sys
import xml.etree.ElementTree as ET


def main(path, suite_name, case_name, outcome, message=""):
    suite = ET.Element("testsuite", name=suite_name, tests="1", failures=str(int(outcome == "failed")),
                       skipped=str(int(outcome == "skipped")))
    case = ET.SubElement(suite, "testcase", name=case_name, classname=suite_name)
    if outcome == "failed":
        ET.SubElement(case, "failure", message=message)
    elif outcome == "skipped":
        ET.SubElement(case, "skipped", message=message)
    elif outcome != "passed":
        raise SystemExit(f"junit_case.py: outcome {outcome!r} is not passed, failed or skipped")
    root = ET.Element("testsuites")
    root.append(suite)
    pathlib.Path(path).parent.mkdir(parents=True, exist_ok=True)
    ET.ElementTree(root).write(path, encoding="utf-8", xml_declaration=True)


if __name__ == "__main__":
    if len(sys.argv) not in (5, 6):
        raise SystemExit(__doc__)
    main(*sys.argv[1:])
