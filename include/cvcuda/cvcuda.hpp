/* cvcuda-c: header-only C++ wrapper over the C ABI (C++11 or later; needs no CUDA header).
 *
 * - Errors: every failing call throws cvcuda::Error, a std::runtime_error whose what() is the library's message
 *   (cvGetLastErrorMessage: function, argument, value, rule) and whose status() is the cvStatus.
 * - Handles: cvcuda::Stream and cvcuda::Tensor own one reference each. Copying retains, destruction releases, moving
 *   transfers. An empty (default-constructed or moved-from) object holds NULL; using it throws CV_ERROR_INVALID_ARGUMENT
 *   from the library.
 * - Everything is inline and goes through the exported C functions, so this header adds no ABI of its own: it may be
 *   used with any libcvcuda_c.so.1 of the same or a newer minor version.
 * Threading and stream rules are those of the C API (docs/threading.md). */
#ifndef CVCUDA_CVCUDA_HPP
#define CVCUDA_CVCUDA_HPP

#include "cvcuda.h"

#include <cstdint>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace cvcuda {

/** A failed call: what() is the library's message for it, status() its code. */
class Error : public std::runtime_error {
public:
    Error(cvStatus status, const std::string &message) : std::runtime_error(message), status_(status) {}
    cvStatus status() const noexcept { return status_; }
    /** The stable name of status() ("CV_ERROR_INVALID_ARGUMENT", ...). */
    const char *statusName() const noexcept { return cvStatusName(status_); }

private:
    cvStatus status_;
};

/** Throws Error with the calling thread's last message when status is not CV_SUCCESS. */
inline void check(cvStatus status) {
    if (status != CV_SUCCESS) throw Error(status, cvGetLastErrorMessage());
}

/** Version of the loaded library (CVCUDA_C_VERSION_NUMBER encoding). Compare with CVCUDA_C_VERSION_NUMBER to detect a mismatch. */
inline uint32_t version() noexcept { return cvGetVersion(); }

/** A cvStream reference. */
class Stream {
public:
    Stream() noexcept {}
    /** Takes over one reference the caller owns (e.g. cvTensorExport's writerStream). */
    static Stream adopt(cvStream handle) noexcept { return Stream(handle); }
    /** cvStreamCreate: a new non-blocking CUDA stream on the current device. */
    static Stream create() {
        cvStream handle = nullptr;
        check(cvStreamCreate(&handle));
        return Stream(handle);
    }
    /** cvStreamWrap: adopts a cudaStream_t without owning it (NULL = the legacy default stream). */
    static Stream wrap(void *cudaStream) {
        cvStream handle = nullptr;
        check(cvStreamWrap(cudaStream, &handle));
        return Stream(handle);
    }

    Stream(const Stream &other) noexcept : handle_(other.handle_) { cvStreamRetain(handle_); }
    Stream(Stream &&other) noexcept : handle_(other.handle_) { other.handle_ = nullptr; }
    Stream &operator=(Stream other) noexcept {
        std::swap(handle_, other.handle_);
        return *this;
    }
    ~Stream() { cvStreamRelease(handle_); }

    cvStream get() const noexcept { return handle_; }
    explicit operator bool() const noexcept { return handle_ != nullptr; }
    /** Gives up ownership: the caller now owns the reference. */
    cvStream detach() noexcept {
        cvStream handle = handle_;
        handle_ = nullptr;
        return handle;
    }

    /** The cudaStream_t (NULL for the legacy default stream). */
    void *cudaHandle() const {
        void *cudaStream = nullptr;
        check(cvStreamGetHandle(handle_, &cudaStream));
        return cudaStream;
    }
    /** BLOCKS until the stream's work has completed (cvStreamSync). */
    void sync() const { check(cvStreamSync(handle_)); }

private:
    explicit Stream(cvStream handle) noexcept : handle_(handle) {}
    cvStream handle_ = nullptr;
};

/** A cvTensor reference. */
class Tensor {
public:
    Tensor() noexcept {}
    /** Takes over one reference the caller owns. */
    static Tensor adopt(cvTensor handle) noexcept { return Tensor(handle); }
    /** cvTensorWrap: zero-copy view of foreign device memory described by a CUDA Array Interface; never frees it.
     *  layout: NULL or one label per dimension ("NHWC"). */
    static Tensor wrap(const cvArrayInterface &cai, const char *layout = nullptr) {
        cvTensor handle = nullptr;
        check(cvTensorWrap(&cai, layout, &handle));
        return Tensor(handle);
    }
    /** cvTensorCreate: a C-contiguous tensor allocated by the library on the current device. */
    static Tensor create(const std::vector<int64_t> &shape, cvDataType dtype, const char *layout = nullptr) {
        cvTensor handle = nullptr;
        check(cvTensorCreate(static_cast<int32_t>(shape.size()), shape.data(), dtype, layout, &handle));
        return Tensor(handle);
    }

    Tensor(const Tensor &other) noexcept : handle_(other.handle_) { cvTensorRetain(handle_); }
    Tensor(Tensor &&other) noexcept : handle_(other.handle_) { other.handle_ = nullptr; }
    Tensor &operator=(Tensor other) noexcept {
        std::swap(handle_, other.handle_);
        return *this;
    }
    ~Tensor() { cvTensorRelease(handle_); }

    cvTensor get() const noexcept { return handle_; }
    explicit operator bool() const noexcept { return handle_ != nullptr; }
    cvTensor detach() noexcept {
        cvTensor handle = handle_;
        handle_ = nullptr;
        return handle;
    }

    /** Shape, byte strides, dtype, layout, data pointer (cvTensorGetInfo). */
    cvTensorInfo info() const {
        cvTensorInfo result = CV_TENSOR_INFO_INIT;
        check(cvTensorGetInfo(handle_, &result));
        return result;
    }
    std::vector<int64_t> shape() const {
        const cvTensorInfo i = info();
        return std::vector<int64_t>(i.shape, i.shape + i.ndim);
    }
    /** Byte strides, one per dimension. */
    std::vector<int64_t> strides() const {
        const cvTensorInfo i = info();
        return std::vector<int64_t>(i.strides, i.strides + i.ndim);
    }
    cvDataType dtype() const { return info().dtype; }
    std::string layout() const { return info().layout; }

    /** cvTensorExport: the tensor as a CAI v3. When writer is not NULL it receives the advertised stream (empty when
     *  nothing is pending); keep it alive while the CAI is in use. */
    cvArrayInterface exportInterface(Stream *writer = nullptr) const {
        cvArrayInterface cai = CV_ARRAY_INTERFACE_INIT;
        cvStream stream = nullptr;
        check(cvTensorExport(handle_, &cai, writer != nullptr ? &stream : nullptr));
        if (writer != nullptr) *writer = Stream::adopt(stream);
        return cai;
    }

    /** cvTensorSetCleanup: fn(userData) runs once when the library no longer needs the memory. */
    void setCleanup(cvCleanupFn fn, void *userData) const { check(cvTensorSetCleanup(handle_, fn, userData)); }

private:
    explicit Tensor(cvTensor handle) noexcept : handle_(handle) {}
    cvTensor handle_ = nullptr;
};

/** cvFlip: enqueues dst = flip(src) on stream (OpenCV flipCode: 0 rows, > 0 columns, < 0 both). */
inline void flip(const Stream &stream, const Tensor &src, const Tensor &dst, int32_t flipCode) {
    check(cvFlip(stream.get(), src.get(), dst.get(), flipCode));
}

/** Process-wide counters (cvGetStats). */
inline cvStats stats() {
    cvStats result = CV_STATS_INIT;
    check(cvGetStats(&result));
    return result;
}

/** BLOCKS until all tracked GPU work has completed, then runs deferred releases (cvSyncAndCollect). */
inline void syncAndCollect() { check(cvSyncAndCollect()); }

} // namespace cvcuda

#endif /* CVCUDA_CVCUDA_HPP */
