"""The ABI as ctypes sees it: struct sizes and field offsets equal what the C compiler reports
(abi_layout), every exported function is declared, and the no-GPU paths behave.

Environment: CVCUDA_C_LIBRARY (path of libcvcuda_c.so.1), CVCUDA_ABI_LAYOUT (path of the abi_layout program),
CVCUDA_C_VERSION_SCRIPT (capi/cvcuda_c.map).
Standard library only (unittest).
"""
import ctypes
import json
import os
import re
import subprocess
import sys
import unittest

import cvcuda_ctypes as cv

LIBRARY = os.environ["CVCUDA_C_LIBRARY"]
LAYOUT = os.environ["CVCUDA_ABI_LAYOUT"]
VERSION_SCRIPT = os.environ["CVCUDA_C_VERSION_SCRIPT"]


def wrap_description(lib, typestr=b"<f4", shape=(2, 3), layout=b"HW", **fields):
    cai = cv.cvArrayInterface.init()
    cai.data = 0x7F0000100000
    cai.ndim = len(shape)
    for i, n in enumerate(shape):
        cai.shape[i] = n
    cai.typestr = typestr
    cai.streamKind = cv.CV_CAI_STREAM_NONE
    for name, value in fields.items():
        setattr(cai, name, value)
    tensor = cv.cvTensor()
    status = lib.cvTensorWrap(ctypes.byref(cai), layout, ctypes.byref(tensor))
    return status, tensor, cai


class LayoutMatchesC(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.c = json.loads(subprocess.run([LAYOUT], check=True, capture_output=True, text=True).stdout)

    def test_struct_sizes_alignments_and_fields(self):
        self.assertEqual(set(self.c["structs"]), set(cv.STRUCTS))
        for name, struct in cv.STRUCTS.items():
            with self.subTest(struct=name):
                c = self.c["structs"][name]
                self.assertEqual(ctypes.sizeof(struct), c["size"])
                self.assertEqual(ctypes.alignment(struct), c["align"])
                fields = {f[0]: (getattr(struct, f[0]).offset, getattr(struct, f[0]).size) for f in struct._fields_}
                self.assertEqual(list(fields), list(c["fields"]), "field order")
                for field, (offset, size) in fields.items():
                    self.assertEqual([offset, size], c["fields"][field], f"{name}.{field} [offset, size]")

    def test_enums_are_32_bit(self):
        for name, size in self.c["enums"].items():
            with self.subTest(enum=name):
                self.assertEqual(size, 4)
                self.assertEqual(ctypes.sizeof(getattr(cv, name)), size)

    def test_constants(self):
        self.assertEqual(self.c["constants"]["CV_MAX_DIMS"], cv.CV_MAX_DIMS)


class NoGpuPaths(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.lib = cv.load(LIBRARY)
        cls.c = json.loads(subprocess.run([LAYOUT], check=True, capture_output=True, text=True).stdout)

    def test_every_exported_function_is_declared(self):
        with open(VERSION_SCRIPT) as f:
            exported = set(re.findall(r"^\s*(cv\w+);", f.read(), flags=re.M))
        self.assertEqual(set(cv.SIGNATURES), exported)

    def test_version_matches_the_header(self):
        self.assertEqual(self.lib.cvGetVersion(), self.c["constants"]["CVCUDA_C_VERSION_NUMBER"])

    def test_status_names(self):
        self.assertEqual(self.lib.cvStatusName(cv.CV_ERROR_NO_DEVICE), b"CV_ERROR_NO_DEVICE")
        self.assertEqual(self.lib.cvStatusName(1234), b"CV_STATUS_UNKNOWN")

    def test_wrap_info_export(self):
        status, tensor, cai = wrap_description(self.lib, typestr=b"<V2", dtype=cv.CV_DTYPE_BFLOAT16, shape=(2, 4, 5, 3),
                                               layout=b"NHWC")
        self.assertEqual(status, cv.CV_SUCCESS, self.lib.cvGetLastErrorMessage())
        try:
            info = cv.cvTensorInfo.init()
            self.assertEqual(self.lib.cvTensorGetInfo(tensor, ctypes.byref(info)), cv.CV_SUCCESS)
            self.assertEqual(info.ndim, 4)
            self.assertEqual(list(info.shape)[:4], [2, 4, 5, 3])
            self.assertEqual(list(info.strides)[:4], [120, 30, 6, 2])
            self.assertEqual(info.data, cai.data)
            self.assertEqual(info.dtype, cv.CV_DTYPE_BFLOAT16)
            self.assertEqual(info.layout, b"NHWC")
            out = cv.cvArrayInterface.init()
            writer = cv.cvStream()
            self.assertEqual(self.lib.cvTensorExport(tensor, ctypes.byref(out), ctypes.byref(writer)), cv.CV_SUCCESS)
            self.assertEqual(out.structSize, ctypes.sizeof(cv.cvArrayInterface))
            self.assertEqual((out.version, out.typestr, out.dtype), (3, b"<V2", cv.CV_DTYPE_BFLOAT16))
            self.assertEqual((out.streamKind, writer.value), (cv.CV_CAI_STREAM_NONE, None))
            self.assertEqual(list(out.strides)[:4], [120, 30, 6, 2])
        finally:
            self.lib.cvTensorRelease(tensor)

    def test_rejection_names_field_and_value(self):
        status, tensor, _ = wrap_description(self.lib, typestr=b"<f4", hasStrides=1,
                                             strides=(ctypes.c_int64 * 8)(12, 6))
        self.assertEqual(status, cv.CV_ERROR_INVALID_ARGUMENT)
        self.assertIsNone(tensor.value)
        self.assertEqual(self.lib.cvGetLastErrorMessage(),
                         b"cvTensorWrap: strides[1]=6 is not a multiple of itemsize 4")

    def test_cleanup_runs_at_release(self):
        calls = []
        callback = cv.cvCleanupFn(lambda user_data: calls.append(user_data))
        status, tensor, _ = wrap_description(self.lib)
        self.assertEqual(status, cv.CV_SUCCESS)
        self.assertEqual(self.lib.cvTensorSetCleanup(tensor, callback, 0x1234), cv.CV_SUCCESS)
        self.lib.cvTensorRelease(tensor)
        self.assertEqual(calls, [0x1234])

    def test_no_device_or_a_stream(self):
        # In a child process that sees no device (CUDA_VISIBLE_DEVICES=''), so that a GPU machine tests it too.
        child = (
            "import ctypes, sys\n"
            "import cvcuda_ctypes as cv\n"
            "lib = cv.load(sys.argv[1])\n"
            "stream = cv.cvStream()\n"
            "status = lib.cvStreamCreate(ctypes.byref(stream))\n"
            "message = lib.cvGetLastErrorMessage()\n"
            "sys.exit(0 if status == cv.CV_ERROR_NO_DEVICE and message.startswith(b'cvStreamCreate: no ') else 1)\n"
        )
        env = dict(os.environ, CUDA_VISIBLE_DEVICES="", PYTHONPATH=os.path.dirname(os.path.abspath(__file__)))
        result = subprocess.run([sys.executable, "-c", child, LIBRARY], env=env, capture_output=True, text=True, timeout=120)
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)

    def test_dtype_functions(self):
        dtype = cv.cvDataType()
        self.assertEqual(self.lib.cvDataTypeFromTypestr(b"|u1", ctypes.byref(dtype)), cv.CV_SUCCESS)
        self.assertEqual(dtype.value, cv.CV_DTYPE_UINT8)
        self.assertEqual(self.lib.cvDataTypeName(cv.CV_DTYPE_FLOAT32), b"float32")
        self.assertEqual(self.lib.cvDataTypeItemSize(cv.CV_DTYPE_BFLOAT16), 2)

    def test_stats_struct_size(self):
        stats = cv.cvStats.init()
        self.assertEqual(self.lib.cvGetStats(ctypes.byref(stats)), cv.CV_SUCCESS)
        stats.structSize = 8
        self.assertEqual(self.lib.cvGetStats(ctypes.byref(stats)), cv.CV_ERROR_INVALID_ARGUMENT)


if __name__ == "__main__":
    unittest.main(verbosity=2)
