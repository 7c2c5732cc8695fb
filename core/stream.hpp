// cv::Stream: the object behind cvStream. Owned (created by the library, non-blocking) or adopted (never destroyed).
#pragma once

#include "ref.hpp"

#include <cuda_runtime.h>

namespace cv {

class Stream final : public RefCounted {
public:

    // A new non-blocking stream on the current device.
    static Ref<Stream> create();
    // Adopts `handle` (nullptr = legacy default stream) on its device without owning it. A handle of a stream the
    // library created returns that stream's own object, so hazard state keeps it alive rather than an alias.
    // cudaStreamPerThread is rejected: it names a different stream in every thread.
    static Ref<Stream> adopt(cudaStream_t handle);

    cudaStream_t handle() const noexcept { return handle_; }
    int device() const noexcept { return device_; }
    // Created by the library, so alive as long as this object: safe to record on or free on later. An adopted
    // stream may be destroyed by its owner at any time after the call that used it.
    bool owned() const noexcept { return owned_; }

private:
    Stream(cudaStream_t handle, int device, bool owned) noexcept;
    ~Stream() override;
    cudaStream_t handle_;
    int device_;
    bool owned_;
};

inline bool sameStream(const Stream &a, const Stream &b) noexcept { return a.handle() == b.handle(); }

} // namespace cv
