"""What the benchmark scripts share: writing their section of docs/perf.md (a module, not a benchmark: the leading
underscore keeps scripts/gpu-check.sh from running it)."""
import pathlib

PERF_MD = pathlib.Path(__file__).resolve().parent.parent / "docs" / "perf.md"


def write_section(title: str, body: str, path: pathlib.Path = PERF_MD) -> None:
    """Replaces (or appends) the section '## <title>' of path, between its begin/end markers, leaving others alone."""
    text = path.read_text() if path.exists() else "# Performance\n"
    begin, end = f"<!-- begin: {title} -->", f"<!-- end: {title} -->"
    block = f"{begin}\n## {title}\n\n{body}\n{end}"
    if begin in text and end in text:
        text = text[: text.index(begin)] + block + text[text.index(end) + len(end):]
    else:
        text = text.rstrip() + "\n\n" + block + "\n"
    path.write_text(text)
