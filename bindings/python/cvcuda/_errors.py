"""Exceptions raised by cvcuda, and the translation of a C ``cvStatus`` into them.

Every exception raised for a failed C call carries the library's message (``cvGetLastErrorMessage``: it names the
function, the argument, the bad value and the rule) as its text, and the C status as ``.status`` (an int) and
``.status_name`` (e.g. ``"CV_ERROR_NO_DEVICE"``). Each is an :class:`Error`, so ``except cvcuda.Error`` catches
them all, and also the built-in exception of its kind of failure (``ValueError`` for bad input, ``RuntimeError`` for
the device, ``MemoryError`` for memory).

=============================  ==========================================================================
C status                       Python exception
=============================  ==========================================================================
CV_ERROR_INVALID_ARGUMENT      :class:`InvalidArgumentError` (an :class:`Error` and a ``ValueError``)
CV_ERROR_NOT_SUPPORTED         :class:`NotSupportedError` (an :class:`Error` and a ``ValueError``: well-formed
                               input this library does not handle, e.g. a complex typestr; it is a property
                               of the input)
CV_ERROR_OUT_OF_MEMORY         :class:`OutOfMemoryError` (an :class:`Error` and a ``MemoryError``)
CV_ERROR_NO_DEVICE             :class:`NoDeviceError` (an :class:`Error` and a ``RuntimeError``)
CV_ERROR_CUDA                  :class:`CudaError` (an :class:`Error` and a ``RuntimeError``)
CV_ERROR_INVALID_STATE         :class:`InvalidStateError` (an :class:`Error` and a ``RuntimeError``)
CV_ERROR_INTERNAL, unknown     :class:`InternalError` (an :class:`Error` and a ``RuntimeError``)
=============================  ==========================================================================

Checks done in Python (a value of the wrong Python type, a malformed ``__cuda_array_interface__`` dict) raise plain
``TypeError`` / ``ValueError`` (or :class:`NotSupportedError` for a non-None CAI ``mask``).
"""

from ._ffi import ffi


class Error(Exception):
    """Base of every exception of the library. ``status`` and ``status_name`` are the C status of the failed call
    (e.g. ``1``, ``"CV_ERROR_INVALID_ARGUMENT"``), None for checks done in Python."""

    status: "int | None" = None
    status_name: "str | None" = None


class NoDeviceError(Error, RuntimeError):
    """No usable CUDA device or driver (CV_ERROR_NO_DEVICE)."""


class CudaError(Error, RuntimeError):
    """The CUDA runtime reported an error; the message carries its name (CV_ERROR_CUDA)."""


class InvalidStateError(Error, RuntimeError):
    """The call is not allowed now, e.g. a defensive device sync during graph capture (CV_ERROR_INVALID_STATE)."""


class InternalError(Error, RuntimeError):
    """A bug in the library; please report the message (CV_ERROR_INTERNAL)."""


class OutOfMemoryError(Error, MemoryError):
    """A host or device allocation failed (CV_ERROR_OUT_OF_MEMORY)."""


class InvalidArgumentError(Error, ValueError):
    """An argument breaks a documented rule; the message names it (CV_ERROR_INVALID_ARGUMENT)."""


class NotSupportedError(Error, ValueError):
    """Well-formed input that this library does not support (CV_ERROR_NOT_SUPPORTED), or a non-None CAI mask."""


_BY_STATUS = {
    ffi.integer_const("CV_ERROR_INVALID_ARGUMENT"): InvalidArgumentError,
    ffi.integer_const("CV_ERROR_NOT_SUPPORTED"): NotSupportedError,
    ffi.integer_const("CV_ERROR_OUT_OF_MEMORY"): OutOfMemoryError,
    ffi.integer_const("CV_ERROR_NO_DEVICE"): NoDeviceError,
    ffi.integer_const("CV_ERROR_CUDA"): CudaError,
    ffi.integer_const("CV_ERROR_INVALID_STATE"): InvalidStateError,
    ffi.integer_const("CV_ERROR_INTERNAL"): InternalError,
}


def error_from_status(lib, status):
    """The exception for a failed C call, built from this thread's last error message. Call right after the call."""
    message = ffi.string(lib.cvGetLastErrorMessage()).decode("utf-8", "replace")
    exc = _BY_STATUS.get(status, InternalError)(message)
    exc.status = status
    exc.status_name = ffi.string(lib.cvStatusName(status)).decode("ascii", "replace")
    return exc
