// cv::Tensor: the object behind cvTensor.
#pragma once

#include "ref.hpp"
#include "stream.hpp"
#include "tensor_desc.hpp"

#include <cvcuda/tensor.h>

#include <atomic>
#include <mutex>

namespace cv {

class Region;
class Stream;

class Tensor final : public RefCounted {
public:

    // cvTensorWrap: validates, attaches the memory's hazard state and applies the CAI producer rule.
    static Ref<Tensor> wrap(const cvArrayInterface *cai, const char *layout);
    // cvTensorCreate / cvTensorCreateOnStream: stream-ordered allocation from the device's pool, on `stream` (its
    // device) or, when null, on the library's allocation stream of the current device.
    static Ref<Tensor> create(int32_t ndim, const int64_t *shape, int32_t dtype, const char *layout,
                              const Ref<Stream> &stream = nullptr);
    // The same for a description already validated (contiguousDesc, contiguousLike): cvTensorCreateLike.
    static Ref<Tensor> create(TensorDesc desc, const Ref<Stream> &stream);

    const TensorDesc &desc() const noexcept { return desc_; }
    bool ownsMemory() const noexcept { return owned_; }
    // At most once: of several threads calling at once exactly one succeeds.
    void setCleanup(cvCleanupFn fn, void *userData);

    // --- state used by the hazard engine (core/hazards.cpp) ---
    Ref<Region> region;                   // guarded by the engine's mutex; null for empty tensors
    std::atomic<bool> unknownProducer{false}; // a defensive device sync is owed before the first use
    std::atomic<bool> checked{false};      // device checks done
    std::mutex firstUseMutex;              // serialises the first-use checks and the defensive sync
    int device = -1;                       // known at creation for owned memory, at first use for wrapped memory
    Ref<Stream> capturedOn;                // allocated on this stream while it was being captured (a graph node)
    cvCleanupFn cleanup = nullptr;         // written once by setCleanup, read after the last reference is gone
    void *cleanupUserData = nullptr;

private:
    explicit Tensor(TensorDesc desc, bool owned) noexcept;
    ~Tensor() override;
    void lastReleased() noexcept override;
    TensorDesc desc_;
    bool owned_;
    std::atomic<bool> cleanupClaimed_{false}; // decides which setCleanup call wins
};

} // namespace cv
