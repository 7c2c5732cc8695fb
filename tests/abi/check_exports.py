#!/usr/bin/env python3
"""The exported symbols of libcvcuda_c (nm -D --defined-only) are exactly the functions of the version script, each
in its version node, and exactly the CV_API functions the public headers declare.

Usage: check_exports.py NM LIBRARY VERSION_SCRIPT HEADER_DIR
"""
import pathlib
import re
import subprocess
import sys


def version_script(path: pathlib.Path) -> dict:
    """symbol -> version node, from the global: sections of a GNU ld version script."""
    text = re.sub(r"/\*.*?\*/", "", path.read_text(), flags=re.S)
    nodes = {}
    for node, body in re.findall(r"(\w[\w.]*)\s*\{(.*?)\}\s*[\w.]*\s*;", text, flags=re.S):
        global_part = body.split("local:")[0].split("global:")[-1]
        for name in re.findall(r"([A-Za-z_]\w*)\s*;", global_part):
            nodes[name] = node
    return nodes


def exported(nm: str, library: str) -> tuple:
    """(symbol -> version node for defined dynamic symbols, set of version-node symbols)."""
    out = subprocess.run([nm, "-D", "--defined-only", library], check=True, capture_output=True, text=True).stdout
    symbols, node_symbols = {}, set()
    for line in out.splitlines():
        fields = line.split()
        if len(fields) != 3:
            continue
        kind, name = fields[1], fields[2]
        if kind == "A":  # the version node itself
            node_symbols.add(name)
            continue
        base, _, node = name.partition("@@")
        symbols[base] = node
    return symbols, node_symbols


def declared(header_dir: pathlib.Path) -> set:
    names = set()
    for header in sorted(header_dir.glob("*.h")):
        text = re.sub(r"/\*.*?\*/", "", header.read_text(), flags=re.S)
        names.update(re.findall(r"\bCV_API\b[^;(]*?\b(cv\w+)\s*\(", text))
    return names


def main() -> int:
    nm, library, script, header_dir = sys.argv[1:5]
    expected = version_script(pathlib.Path(script))
    symbols, node_symbols = exported(nm, library)
    in_headers = declared(pathlib.Path(header_dir))
    problems = []
    for name in sorted(set(symbols) - set(expected)):
        problems.append(f"exported but not in the version script: {name}@@{symbols[name]}")
    for name in sorted(set(expected) - set(symbols)):
        problems.append(f"in the version script but not exported: {name}")
    for name in sorted(set(expected) & set(symbols)):
        if symbols[name] != expected[name]:
            problems.append(f"{name} is in version node '{symbols[name]}', the script says '{expected[name]}'")
    if node_symbols != set(expected.values()):
        problems.append(f"version nodes {sorted(node_symbols)} differ from the script's {sorted(set(expected.values()))}")
    for name in sorted(in_headers - set(expected)):
        problems.append(f"declared CV_API in a header but missing from the version script: {name}")
    for name in sorted(set(expected) - in_headers):
        problems.append(f"in the version script but declared in no public header: {name}")
    if len(expected) == 0:
        problems.append("the version script lists no symbol (parse error?)")
    for p in problems:
        print("FAIL:", p)
    if problems:
        return 1
    print(f"ok: {len(symbols)} symbols, all in {sorted(node_symbols)}, matching the version script and the headers")
    return 0


if __name__ == "__main__":
    sys.exit(main())
