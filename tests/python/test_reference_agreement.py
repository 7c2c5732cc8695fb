"""scripts/reference_agreement.py's bookkeeping and scripts/reference_departures.py's models, on the CPU (the GPU run
needs cv2, torchvision, CuPy and the reference library): the reference worker imports the reference, not ours; outputs
survive the .npz the worker writes; each output is judged by resize_cases.outside_rule (integers and floats, NaN, the
wrong dtype); the table names the cases outside the rule, the errors and the nearest conventions; and the models give
the exact nearest indices and bilinear values, with float32 source coordinates apart from double ones."""

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


def test_outputs_survive_the_npz(ra, tmp_path):
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


# float32: 1e-4 of max(|want|, 1) plus max(2e-6, taps * 2^-24) of the source's magnitude; float16: 2^-10 relative
@pytest.mark.parametrize("dtype,want,got,scale,taps,ok", [
    (np.float32, 100.0, 100.0 + 0.9 * (1e-2 + 2e-4), 100.0, 0, True),
    (np.float32, 100.0, 100.0 + 1.1 * (1e-2 + 2e-4), 100.0, 0, False),
    (np.float32, 0.0, 0.9 * (1e-4 + 1000 * 2.0**-24 * 1000), 1000.0, 1000, True),  # a sum of 1000 taps
    (np.float32, 0.0, 1.1 * (1e-4 + 1000 * 2.0**-24 * 1000), 1000.0, 1000, False),
    (np.float32, 0.0, float("nan"), 1.0, 0, False),
    (np.float16, 512.0, 512.5, 1.0, 0, True),   # within 2^-10 * 512 = 0.5 (+ 2e-6)
    (np.float16, 512.0, 513.0, 1.0, 0, False),
])
def test_compare_holds_floats_to_the_rule(ra, dtype, want, got, scale, taps, ok):
    figures = ra.compare(rc, np.array([got], dtype), np.array([want], dtype), scale, taps)
    assert figures["ok"] is ok


def test_compare_records_errors_shapes_and_dtypes(ra):
    assert ra.compare(rc, "error: TypeError: x", np.zeros(1), 1.0, 0) == {"error": "error: TypeError: x"}
    figures = ra.compare(rc, np.zeros((1, 2), np.float32), np.zeros((2, 1), np.float32), 1.0, 0)
    assert figures["ok"] is False and "(1, 2), expected float32 (2, 1)" in figures["error"]
    figures = ra.compare(rc, np.zeros(3, np.float32), np.zeros(3, np.uint16), 1.0, 0)  # same values, another dtype
    assert figures["ok"] is False and figures["error"] == "float32 (3,), expected uint16 (3,)"


def test_reference_worker_imports_the_reference(ra, tmp_path):
    """The worker's PYTHONPATH starts with the reference's folder and keeps no folder holding a cvcuda package (ours);
    other entries stay, and our library's path is not passed on."""
    ours, other, reference = tmp_path / "ours", tmp_path / "site", tmp_path / "ref"
    for folder in (ours / "cvcuda", other, reference / "cvcuda"):
        folder.mkdir(parents=True)
    environ = {"PYTHONPATH": f"{ours}:{other}", "CVCUDA_C_LIBRARY": "/x/libcvcuda_c.so.1", "HOME": "/root"}
    env = ra.reference_env(str(reference), environ)
    assert env["PYTHONPATH"] == f"{reference}:{other}"
    assert "CVCUDA_C_LIBRARY" not in env and env["HOME"] == "/root"
    assert environ["PYTHONPATH"] == f"{ours}:{other}"  # the caller's environment is left alone


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
    tv = "tvresize BICUBIC aa0 float32 37x53->111x29"
    bad[tv][1, 2, 3, 4] = 0.5
    del bad["tvresize NEAREST aa1 uint8 1x1->7x5"]  # a case the worker did not write
    monkeypatch.setattr(ra, "image", lambda rc, seed, shape, dtype: np.ones(1, dtype))  # inputs only give the scale
    figures = {side: ra.case_figures(rc, outs, exact) for side, outs in (("good", good), ("bad", bad))}
    table = ra.summary(ra.table_rows(rc), ["good", "bad"], figures).splitlines()
    row = {tuple(cell.strip() for cell in line.split("|")[1:4]): line.split("|")[4:6] for line in table[2:]}
    n = len(rc.SIZES) * len(ra.CHANNELS)
    assert row[("resize", "LINEAR", "uint8")][0].strip() == f"{n}/{n}, worst 0"
    assert f"{n - 1}/{n}, worst 2; outside: C3 534x800->224x224" in row[("resize", "LINEAR", "uint8")][1]
    assert "raised: error: RuntimeError: float16 is not supported" in row[("resize", "CUBIC", "float16")][1]
    assert f"{n - 1}/{n}" in row[("resize", "CUBIC", "float16")][1]
    assert "outside" not in row[("resize", "CUBIC", "float16")][1]  # an error is not an output outside the rule
    assert f"within the other nearest convention: 0/{n}" in row[("resize", "NEAREST", "int16")][0]
    assert f"within the other nearest convention: 1/{n}" in row[("resize", "NEAREST", "int16")][1]
    assert "outside: C4 960x1280->225x300" in row[("resize", "NEAREST", "int16")][1]
    m = len(rc.TV_SIZES)
    assert row[("tvresize", "BICUBIC, antialias False", "float32")][0].strip() == f"{m}/{m}, worst 0"
    assert f"{m - 1}/{m}, worst 0.5; outside: 37x53->111x29" in row[("tvresize", "BICUBIC, antialias False", "float32")][1]
    assert "raised: error: no output" in row[("tvresize", "NEAREST", "uint8")][1]
    assert len(table) == 2 + len(rc.CV2_INTERP) * len(rc.DTYPES) + (2 * 2 + 2) * 2  # every row, tvresize's too


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


def test_bilinear_model_coordinates(rd):
    """A float64 ramp of the column indices resized gives each output's source coordinate itself: (x + 1/2) * 1280 /
    300 - 1/2 computed in double, or in float32 (off by up to about an ulp of 1280, 1.2e-4, in places)."""
    ramp = np.tile(np.arange(1280, dtype=np.float64), (1, 1, 1))[..., None]
    x = np.arange(300)
    exact = (x + 0.5) * (1280 / 300) - 0.5
    in_float32 = ((x.astype(np.float32) + np.float32(0.5)) * np.float32(1280 / 300) - np.float32(0.5)).astype(np.float64)
    assert np.allclose(rd.bilinear(ramp, (1, 300), np.float64)[0, 0, :, 0], exact, rtol=0, atol=1e-9)
    got = rd.bilinear(ramp, (1, 300), np.float32)[0, 0, :, 0]
    assert np.allclose(got, in_float32, rtol=0, atol=1e-9)
    assert 1e-5 < np.abs(got - exact).max() < 2.5e-4
