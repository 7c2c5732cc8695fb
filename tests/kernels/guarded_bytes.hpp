// Host memory whose last byte is followed by an inaccessible page, for the CPU tests of kernels' block bodies: a read
// past a source's end faults (the test dies) where a vector's slack would hide it.
#pragma once

#include <catch2/catch_test_macros.hpp>

#include <cstddef>

#include <sys/mman.h>
#include <unistd.h>

namespace cvtest {

class GuardedBytes {
public:
    explicit GuardedBytes(size_t bytes) {
        const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
        span_ = (bytes + page - 1) / page * page + page;
        void *m = mmap(nullptr, span_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        REQUIRE(m != MAP_FAILED);
        base_ = static_cast<char *>(m);
        if (mprotect(base_ + span_ - page, page, PROT_NONE) != 0) {
            munmap(base_, span_);
            FAIL("mprotect of the guard page failed");
        }
        data_ = base_ + span_ - page - bytes;
    }
    GuardedBytes(const GuardedBytes &) = delete;
    GuardedBytes &operator=(const GuardedBytes &) = delete;
    ~GuardedBytes() { munmap(base_, span_); }
    char *data() const { return data_; }

private:
    char *base_ = nullptr, *data_ = nullptr;
    size_t span_ = 0;
};

} // namespace cvtest
