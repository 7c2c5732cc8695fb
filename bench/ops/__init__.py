"""Benchmark cases, one module per operator: each defines OP and cases() -> list of common.Case. run.py finds every
module here (an operator added later only adds its file)."""
import importlib
import pkgutil


def all_cases():
    """Every module's cases, in module-name order (flip first: the issue's headline rows), names unique."""
    names = sorted((m.name for m in pkgutil.iter_modules(__path__) if m.name != "common"),
                   key=lambda n: (n != "flip", n))
    cases, seen = [], set()
    for name in names:
        for case in importlib.import_module(f"{__name__}.{name}").cases():
            if case.key in seen:
                raise ValueError(f"bench/ops/{name}.py: duplicate case {case.key!r}")
            seen.add(case.key)
            cases.append(case)
    return cases
