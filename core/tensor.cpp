#include "tensor.hpp"

#include "cuda_check.hpp"
#include "device_resources.hpp"
#include "error.hpp"
#include "hazards.hpp"
#include "stats.hpp"
#include "stream.hpp"

namespace cv {

Tensor::Tensor(TensorDesc desc, bool owned) noexcept : desc_(std::move(desc)), owned_(owned) {
    stats().liveTensors.fetch_add(1, std::memory_order_relaxed);
}

Tensor::~Tensor() { stats().liveTensors.fetch_sub(1, std::memory_order_relaxed); }

void Tensor::lastReleased() noexcept {
    hazards::retire(*this);
    delete this;
}

Ref<Tensor> Tensor::wrap(const cvArrayInterface *cai, const char *layout) {
    WrapRequest req = validateArrayInterface(cai, layout);
    Ref<Tensor> t = Ref<Tensor>::adopt(new Tensor(std::move(req.desc), false));
    if (t->desc().numel == 0) {
        t->checked.store(true);
        return t;
    }
    t->region = hazards::attach(t->desc().addressLo(), t->desc().addressHi());
    switch (req.producer) {
    case Producer::Unknown: t->unknownProducer.store(true); break;
    case Producer::Ready: break;
    case Producer::Stream:
        hazards::addProducer(*t, Stream::adopt(reinterpret_cast<cudaStream_t>(static_cast<intptr_t>(req.producerStream))));
        break;
    }
    return t;
}

Ref<Tensor> Tensor::create(int32_t ndim, const int64_t *shape, int32_t dtype, const char *layout,
                           const Ref<Stream> &stream) {
    return create(contiguousDesc(ndim, shape, dtype, layout), stream);
}

Ref<Tensor> Tensor::create(TensorDesc desc, const Ref<Stream> &stream) {
    const int device = stream ? stream->device() : currentDevice();
    DeviceGuard guard(device);
    const DeviceResources &res = deviceResources(device);
    const Ref<Stream> &allocOn = stream ? stream : res.allocStream;
    void *p = nullptr;
    const size_t bytes = static_cast<size_t>(desc.extentHi);
    const bool capturing = desc.numel > 0 && stream && hazards::isCapturing(*stream);
    // A block this stream kept from a released tensor (see Stream::keepBlock); never inside a capture, where the
    // allocation must be the graph's own memory node.
    if (desc.numel > 0 && !capturing) p = allocOn->takeBlock(bytes);
    if (desc.numel > 0 && p == nullptr)
        checkCuda(cudaMallocFromPoolAsync(&p, bytes, res.pool, allocOn->handle()), "cudaMallocFromPoolAsync");
    desc.data = reinterpret_cast<uint64_t>(p);
    Ref<Tensor> t = Ref<Tensor>::adopt(new Tensor(std::move(desc), true));
    t->device = device;
    t->checked.store(true);
    if (p != nullptr) {
        t->region = hazards::attach(t->desc().addressLo(), t->desc().addressHi());
        // Allocated inside a capture it is a graph memory node: ordered by the graph, never by an event (one
        // recorded in a capture could not be queried later). Otherwise, on the caller's stream the allocation needs
        // no event unless another stream uses the memory first.
        if (!stream) hazards::addProducer(*t, allocOn, true);
        else if (capturing) t->capturedOn = stream;
        else if (stream->owned()) hazards::addAllocation(*t, stream);
        else hazards::addProducer(*t, stream, false); // records now: an adopted stream may be gone later
    }
    return t;
}

void Tensor::setCleanup(cvCleanupFn fn, void *userData) {
    if (fn == nullptr) invalid(currentFunction(), ": fn is NULL");
    // Claimed with one atomic exchange: a check of `cleanup` followed by a store let two racing calls both succeed
    // and lose one callback.
    if (cleanupClaimed_.exchange(true, std::memory_order_acq_rel))
        fail(CV_ERROR_INVALID_STATE, currentFunction(), ": the tensor already has a cleanup callback");
    cleanupUserData = userData;
    cleanup = fn;
}

} // namespace cv
