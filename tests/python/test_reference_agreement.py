"""scripts/reference_agreement.py's bookkeeping and scripts/reference_departures.py's models, on the CPU (the GPU run
needs cv2, torchvision, CuPy and the reference library): the reference's outputs survive the trip through its worker's
.npz, every case is judged by resize_cases.outside_rule, the table names the cases outside the rule, the errors and
the nearest conventions, and the models give the exact nearest indices and bilinear values."""

import importlib.util
import pathlib

import numpy as np
import pytest

import resize_cases as rc

SCRIPT = pathlib.Path(__file__).resolve().parents[2] / "scripts" / "reference_agreement.py"


@pytest.fixture(scope="module")
def ra():
    spec = importlib.util.spec_from_file_location("reference_agreement", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def exact(ra):
    """Every case's expected output (zeros of its shape and dtype) and, for the nearest cases, the other convention's."""
    want = {}
    for cid, interp, dtype, channels, src, dst, seed in ra.resize_cases(rc):
        want[cid] = np.zeros((ra.BATCH, *dst, channels), dtype)
        if interp in ra.NEAREST_OTHER:
            want[cid + " (other nearest)"] = np.full((ra.BATCH, *dst, channels), 7, dtype)
    for cid, mode, aa, dtype, src, dst, seed in ra.tv_cases(rc):
        want[cid] = np.zeros((ra.BATCH, 3, *dst), dtype)
    return want


def test_the_cases_cover_the_tables(ra):
    resize = list(ra.resize_cases(rc))
    assert len(resize) == len(rc.SIZES) * len(rc.DTYPES) * len(ra.CHANNELS) * len(rc.CV2_INTERP)
    assert len({c[0] for c in resize}) == len(resize)  # ids are unique: outputs are matched by id
    tv = list(ra.tv_cases(rc))
    assert len({c[0] for c in tv}) == len(tv) == len(rc.TV_SIZES) * 2 * (2 * 2 + 2)  # nearest: no antialias row


def test_worker_outputs_survive_the_npz(ra, tmp_path):
    outputs = {"__version__": "0.19.0", "resize a": np.arange(6, dtype=np.int16).reshape(1, 2, 3),
               "resize b": "error: ValueError: no such dtype", "resize c": np.float32([1.5])}
    ra.save(tmp_path / "out.npz", outputs)
    back = ra.load(tmp_path / "out.npz")
    assert list(back) == list(outputs)
    assert back["__version__"] == "0.19.0" and back["resize b"] == outputs["resize b"]
    for key in ("resize a", "resize c"):
        assert back[key].dtype == outputs[key].dtype and np.array_equal(back[key], outputs[key])


@pytest.mark.parametrize("delta,ok", [(1, True), (2, False)])  # integers: within 1 of the expected value
def test_compare_holds_integers_to_one(ra, delta, ok):
    want = np.zeros((2, 3), np.uint8)
    got = want.copy()
    got[1, 2] = delta
    figures = ra.compare(rc, got, want, 255.0, 0)
    assert figures["ok"] is ok and figures["outside"] == (0 if ok else 1) and figures["max_diff"] == delta


def test_compare_records_errors_and_shapes(ra):
    assert ra.compare(rc, "error: TypeError: x", np.zeros(1), 1.0, 0) == {"error": "error: TypeError: x"}
    figures = ra.compare(rc, np.zeros((1, 2), np.float32), np.zeros((2, 1), np.float32), 1.0, 0)
    assert figures["ok"] is False and "shape" in figures["error"]


def test_table_names_what_is_outside(ra, exact, monkeypatch):
    """One side equals every expected output; the other is 2 off on one case, raises on another and gives the other
    nearest convention's output on a third: its cells say so, and the first side's cells stay clean."""
    good = {cid: out.copy() for cid, out in exact.items() if not cid.endswith("(other nearest)")}
    bad = {cid: out.copy() for cid, out in good.items()}
    off = "resize LINEAR uint8 C3 534x800->224x224"
    bad[off][0, 0, 0, 0] = 2
    bad["resize CUBIC float16 C1 1x1->7x5"] = "error: RuntimeError: float16 is not supported"
    nearest = "resize NEAREST int16 C4 960x1280->225x300"
    bad[nearest] = exact[nearest + " (other nearest)"].copy()
    monkeypatch.setattr(ra, "image", lambda rc, seed, shape, dtype: np.ones(1, dtype))  # inputs only give the scale
    figures = {side: ra.case_figures(rc, outs, exact) for side, outs in (("good", good), ("bad", bad))}
    rows_of = {}
    for cid, interp, dtype, *_ in ra.resize_cases(rc):
        rows_of.setdefault(("resize", interp, dtype.name), []).append(cid)
    table = ra.summary(rows_of, ["good", "bad"], figures).splitlines()
    row = {tuple(cell.strip() for cell in line.split("|")[1:4]): line.split("|")[4:6] for line in table[2:]}
    n = len(rc.SIZES) * len(ra.CHANNELS)
    assert row[("resize", "LINEAR", "uint8")][0].strip() == f"{n}/{n}, worst 0"
    assert f"{n - 1}/{n}, worst 2; outside: C3 534x800->224x224" in row[("resize", "LINEAR", "uint8")][1]
    assert "raised: error: RuntimeError: float16 is not supported" in row[("resize", "CUBIC", "float16")][1]
    assert f"{n - 1}/{n}" in row[("resize", "CUBIC", "float16")][1]
    assert f"within the other nearest convention: 0/{n}" in row[("resize", "NEAREST", "int16")][0]
    assert f"within the other nearest convention: 1/{n}" in row[("resize", "NEAREST", "int16")][1]
    assert "outside: C4 960x1280->225x300" in row[("resize", "NEAREST", "int16")][1]


@pytest.fixture(scope="module")
def rd():
    spec = importlib.util.spec_from_file_location("reference_departures", SCRIPT.with_name("reference_departures.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("src,dst,centre,outputs,indices", [
    (1280, 300, True, [0, 7, 22, 299], [2, 32, 96, 1277]),  # centres on pixel edges (32.0, 96.0) take the right pixel
    (800, 224, False, [0, 35, 63, 223], [0, 125, 225, 796]),  # 35 * 800 / 224 = 125 exactly
    (1, 7, True, [0, 6], [0, 0]),
    (5, 13, False, [12], [4]),
])
def test_exact_nearest_indices(rd, src, dst, centre, outputs, indices):
    assert rd.exact_index(src, dst, centre)[outputs].tolist() == indices


@pytest.mark.parametrize("coord", [np.float64, np.float32])
def test_bilinear_model(rd, coord):
    """Same size: the input itself; 2x down: each output is the mean of its two source pixels."""
    x = np.arange(2 * 4 * 6, dtype=np.float32).reshape(2, 4, 6, 1)
    assert np.array_equal(rd.bilinear(x, (4, 6), coord), x)
    ramp = np.tile(np.arange(8, dtype=np.uint16) * 2, (2, 3, 1))[..., None]
    assert rd.bilinear(ramp, (3, 4), coord)[0, 0, :, 0].tolist() == [1, 5, 9, 13]  # rint(4k + 1): means of 4k, 4k + 2
