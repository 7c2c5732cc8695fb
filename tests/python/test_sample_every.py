"""The --sample-every option of conftest.py (what scripts/gpu-check.sh runs under compute-sanitizer): every test
function keeps its first case and every N-th after it, in collection order."""

from types import SimpleNamespace

import pytest

from conftest import sampled


def _items(spec):
    return [SimpleNamespace(nodeid=f"{module}::{name}[{i}]", originalname=name, name=f"{name}[{i}]")
            for module, name, count in spec for i in range(count)]


@pytest.mark.parametrize(
    "spec, every, kept",
    [
        ([("a.py", "t", 5)], 1, ["t[0]", "t[1]", "t[2]", "t[3]", "t[4]"]),
        ([("a.py", "t", 5)], 2, ["t[0]", "t[2]", "t[4]"]),
        ([("a.py", "t", 5)], 9, ["t[0]"]),
        ([("a.py", "t", 3), ("a.py", "u", 3)], 2, ["t[0]", "t[2]", "u[0]", "u[2]"]),
        ([("a.py", "t", 2), ("b.py", "t", 2)], 2, ["t[0]", "t[0]"]),
    ],
)
def test_sampled_keeps_every_nth_case_of_each_function(spec, every, kept):
    items = _items(spec)
    keep, drop = sampled(items, every)
    assert [i.name for i in keep] == kept
    assert len(keep) + len(drop) == len(items)


def test_sampled_rejects_less_than_one():
    with pytest.raises(pytest.UsageError, match="--sample-every must be >= 1, got 0"):
        sampled([], 0)
