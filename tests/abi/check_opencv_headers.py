#!/usr/bin/env python3
"""Compiles opencv_coexistence.cpp (OpenCV 4's core.hpp and imgproc.hpp with cvcuda/cvcuda.h and cvcuda.hpp) with
-Wall -Wextra -Werror. Writes a JUnit report; the case is skipped, with the reason, only where OpenCV's headers are
absent (Debian: apt-get install libopencv-dev, as scripts/setup.sh does). CVCUDA_OPENCV_INCLUDE names another folder
holding opencv2/ (scripts/gpu-check.sh: a copy carried to a machine where packages cannot be installed); it is tried
first.

Usage: check_opencv_headers.py CXX INCLUDE_DIR SOURCE JUNIT_XML
"""
import os
import pathlib
import subprocess
import sys
import xml.etree.ElementTree as ET

OPENCV_INCLUDE_DIRS = ["/usr/include/opencv4", "/usr/local/include/opencv4"]


def report(path, name, failure=None, skipped=None):
    suite = ET.Element("testsuite", name="abi-opencv-headers", tests="1", failures="1" if failure else "0",
                       skipped="1" if skipped else "0")
    case = ET.SubElement(suite, "testcase", name=name, classname="abi-opencv-headers")
    if failure:
        ET.SubElement(case, "failure", message="compilation failed").text = failure
    if skipped:
        ET.SubElement(case, "skipped", message=skipped)
    root = ET.Element("testsuites")
    root.append(suite)
    ET.ElementTree(root).write(path, encoding="utf-8", xml_declaration=True)


def main(cxx, include_dir, source, junit):
    name = "cvcuda headers with OpenCV 4 core.hpp and imgproc.hpp, -Wall -Wextra -Werror"
    dirs = ([os.environ["CVCUDA_OPENCV_INCLUDE"]] if os.environ.get("CVCUDA_OPENCV_INCLUDE") else []) + OPENCV_INCLUDE_DIRS
    found = [d for d in dirs if (pathlib.Path(d) / "opencv2" / "imgproc.hpp").is_file()]
    if not found:
        reason = f"OpenCV 4 headers not found in {' or '.join(dirs)} (install libopencv-dev)"
        print("SKIP:", reason)
        report(junit, name, skipped=reason)
        return 0
    command = [cxx, "-std=c++17", "-Wall", "-Wextra", "-Werror", "-fsyntax-only", f"-I{include_dir}", f"-I{found[0]}", source]
    result = subprocess.run(command, capture_output=True, text=True)
    print(" ".join(command))
    if result.returncode != 0:
        print(result.stdout + result.stderr)
        report(junit, name, failure=result.stdout + result.stderr)
        return 1
    print("PASS:", name)
    report(junit, name)
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:5]))
