"""cvcuda.tv without a GPU (CI has neither torch nor torchvision): its signatures against torchvision's (written out in
data/torchvision_v2_signatures.txt), and the argument errors raised before any tensor is looked at."""

import inspect
import pathlib

import pytest

import cvcuda.tv as tv

DATA = pathlib.Path(__file__).parent / "data" / "torchvision_v2_signatures.txt"


def torchvision_signatures():
    """function -> [(parameter, kind, default repr or None)] from the data file."""
    table = {}
    for line in DATA.read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        function, name, kind, default = (part.strip() for part in line.split("|"))
        table.setdefault(function, []).append((name, kind, None if default == "-" else default))
    return table


TORCHVISION = torchvision_signatures()


def ours(function):
    out = []
    for p in inspect.signature(getattr(tv, function)).parameters.values():
        out.append((p.name, p.kind.name, None if p.default is inspect.Parameter.empty else repr(p.default)))
    return out


@pytest.mark.parametrize("function", sorted(TORCHVISION))
def test_signature_is_torchvisions(function):
    assert ours(function) == TORCHVISION[function]


def test_the_module_has_every_function_of_the_table_and_compose():
    assert set(TORCHVISION) | {"Compose", "InterpolationMode"} == set(tv.__all__)


def test_interpolation_mode_has_torchvisions_members_and_values():
    assert {m.name: m.value for m in tv.InterpolationMode} == {
        "NEAREST": "nearest", "NEAREST_EXACT": "nearest-exact", "BILINEAR": "bilinear", "BICUBIC": "bicubic",
        "BOX": "box", "HAMMING": "hamming", "LANCZOS": "lanczos"}


NOT_A_TENSOR = object()

# (call, exception type, words the message must contain): argument checks that come before the tensor's.
ARGUMENT_ERRORS = [
    (lambda: tv.resize(NOT_A_TENSOR, [8], interpolation="bilinear"), ValueError, ["interpolation", "'bilinear'"]),
    (lambda: tv.resize(NOT_A_TENSOR, [8], interpolation=7), ValueError, ["interpolation=7", "Pillow"]),
    (lambda: tv.resize(NOT_A_TENSOR, [8], interpolation=tv.InterpolationMode.BOX), NotImplementedError, ["'box'"]),
    (lambda: tv.resize(NOT_A_TENSOR, [8], interpolation=1), NotImplementedError, ["'lanczos'"]),
    (lambda: tv.resize(NOT_A_TENSOR, [8], antialias="yes"), TypeError, ["antialias", "str"]),
    (lambda: tv.resize(NOT_A_TENSOR, [8]), TypeError, ["cvcuda.tv.resize", "inpt", "torch.Tensor", "object"]),
    (lambda: tv.resized_crop(NOT_A_TENSOR, 0, 0, -1, 4, [2]), ValueError, ["height=-1"]),
    (lambda: tv.resized_crop(NOT_A_TENSOR, 0.5, 0, 1, 4, [2]), TypeError, ["top", "0.5"]),
    (lambda: tv.crop(NOT_A_TENSOR, 0, 0, 4, True), TypeError, ["width", "True"]),
    (lambda: tv.center_crop(NOT_A_TENSOR, [1, 2, 3]), TypeError, ["output_size", "[1, 2, 3]"]),
    (lambda: tv.center_crop(NOT_A_TENSOR, [-2]), ValueError, ["output_size", "negative"]),
    (lambda: tv.pad(NOT_A_TENSOR, [1, 2, 3]), ValueError, ["1, 2, or 4 element", "Found 3"]),
    (lambda: tv.pad(NOT_A_TENSOR, 1.5), TypeError, ["padding", "1.5"]),
    (lambda: tv.pad(NOT_A_TENSOR, 1, padding_mode="circular"), ValueError, ["padding_mode", "'circular'"]),
    (lambda: tv.pad(NOT_A_TENSOR, 1, fill=[1, 2], padding_mode="edge"), ValueError, ["'edge'", "not scalar"]),
    (lambda: tv.pad(NOT_A_TENSOR, 1, fill="red"), TypeError, ["fill", "'red'"]),
    (lambda: tv.normalize(NOT_A_TENSOR, [0.5], [0.0]), ValueError, ["std evaluated to zero"]),
    (lambda: tv.normalize(NOT_A_TENSOR, "a", [1.0]), TypeError, ["mean", "'a'"]),
    (lambda: tv.normalize(NOT_A_TENSOR, [0.5], [1.0], inplace=1), TypeError, ["inplace", "int"]),
    (lambda: tv.normalize(NOT_A_TENSOR, [0.5], [1.0]), TypeError, ["cvcuda.tv.normalize", "torch.Tensor"]),
    (lambda: tv.to_dtype(NOT_A_TENSOR, scale="yes"), TypeError, ["scale", "str"]),
    (lambda: tv.to_dtype(NOT_A_TENSOR, "float32"), TypeError, ["dtype", "torch.dtype", "'float32'"]),
    (lambda: tv.to_dtype(NOT_A_TENSOR), TypeError, ["cvcuda.tv.to_dtype", "torch.Tensor"]),
    (lambda: tv.rgb_to_grayscale(NOT_A_TENSOR, 2), ValueError, ["num_output_channels must be 1 or 3, got 2"]),
    (lambda: tv.horizontal_flip([[1, 2]]), TypeError, ["cvcuda.tv.horizontal_flip", "list"]),
    (lambda: tv.Compose(tv.resize), TypeError, ["sequence of callables"]),
    (lambda: tv.Compose([]), ValueError, ["at least one transform"]),
    (lambda: tv.Compose([tv.resize, 3]), TypeError, ["transforms[1]", "int"]),
]


@pytest.mark.parametrize("call, exc, words", ARGUMENT_ERRORS, ids=[f"error{i}" for i in range(len(ARGUMENT_ERRORS))])
def test_argument_errors_need_no_gpu(call, exc, words):
    with pytest.raises(exc) as info:
        call()
    for word in words:
        assert word in str(info.value)


def test_compose_calls_its_callables_in_order():
    pipeline = tv.Compose([lambda x: x + [1], lambda x: x + [2]])
    assert pipeline([0]) == [0, 1, 2]
