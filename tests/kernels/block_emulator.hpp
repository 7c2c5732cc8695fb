// One CUDA thread block on the CPU, for the block bodies written over a Block of primitives (resize_tv_tile.cuh,
// tvStagedBlock): the barrier, cp.async's 16-byte copies with their commit and wait groups, the wait on the prior
// grid, the thread's and block's indices. The threads run one at a time (ucontext), each until its next barrier, in
// ascending or descending order, so a body that reads what another thread writes without a barrier between reads the
// wrong value in one order or the other. The copies land when issued or, to expose a missing wait, as late as the
// waits allow (a copy lands at the wait that covers its group: cp.async.wait_group N completes every committed group
// but the newest N; PTX ISA, "cp.async.wait_group"). What the hardware leaves undefined and the emulation can see is
// recorded as a fault: threads that reach different barriers (__syncthreads in divergent code), a copy before the
// wait on the prior grid (overlap_launch.cuh), a copy not 16-byte aligned, one outside the shared memory's stages or
// of more than 16 bytes, a thread that ends with copies it never waited for, and a body that throws (bodies must not:
// an exception cannot leave a thread's context, so it is caught there). Each thread's stack has 64 KiB of
// inaccessible pages below it, so a body that overflows its stack dies of SIGSEGV (the test binary with it) instead of
// writing over another thread's stack.
#pragma once

#include <sys/mman.h>
#include <ucontext.h>

#include <cstddef>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace cvtest {

enum class CopyLanding { AtIssue, AtWait };
enum class ThreadOrder { Ascending, Descending };

// The block's place in its grid (blockIdx.x, .y, .z) and the grid's extents the bodies step by (gridDim.y, .z).
struct BlockPlace {
    unsigned x, y, z, gy, gz;
};

class EmulatedBlock {
public:
    // What a thread of the body calls (tvStagedBlock's Block).
    class Thread {
    public:
        int tid() const { return index_; }
        unsigned x() const { return block_->place_.x; }
        unsigned y() const { return block_->place_.y; }
        unsigned z() const { return block_->place_.z; }
        unsigned gy() const { return block_->place_.gy; }
        unsigned gz() const { return block_->place_.gz; }
        void sync() {
            ++barriers_;
            swapcontext(&context_, &block_->scheduler_);
        }
        // cp.async.cg.shared.global [to], [from], 16, bytes: `bytes` bytes from `from`, zeros after them.
        void copy16(uint8_t *to, const uint8_t *from, int32_t bytes) {
            if (!waitedPriorGrid_) block_->fault(index_, "a copy before the wait on the prior grid");
            bool valid = true; // else recorded and not done (it would write where it must not)
            const uintptr_t at = reinterpret_cast<uintptr_t>(to);
            if (at % 16 != 0 || reinterpret_cast<uintptr_t>(from) % 16 != 0) valid = block_->fault(index_, "a copy not 16-byte aligned");
            if (at < block_->copyLo_ || at + 16 > block_->copyHi_) valid = block_->fault(index_, "a copy outside the stages");
            if (bytes < 0 || bytes > 16) valid = block_->fault(index_, "a copy of " + std::to_string(bytes) + " bytes");
            if (!valid) return;
            Copy c{to, from, bytes, false};
            if (block_->landing_ == CopyLanding::AtIssue) land(c);
            open_.push_back(c); // landed or not, it waits for its group's commit and wait
        }
        void commit() {
            groups_.push_back(open_);
            open_.clear();
        }
        template <int Pending> void wait() {
            while (groups_.size() > size_t(Pending)) {
                for (Copy &c : groups_.front()) land(c);
                groups_.pop_front();
            }
        }
        void waitPriorGrid() { waitedPriorGrid_ = true; }
        // Copies issued and not yet waited for (empty groups need no wait).
        bool pendingCopies() const {
            bool any = !open_.empty();
            for (const auto &g : groups_) any = any || !g.empty();
            return any;
        }

    private:
        friend class EmulatedBlock;
        struct Copy {
            uint8_t *to;
            const uint8_t *from;
            int32_t bytes;
            bool landed;
        };
        static void land(Copy &c) {
            if (c.landed) return;
            c.landed = true;
            for (int32_t i = 0; i < 16; ++i) c.to[i] = i < c.bytes ? c.from[i] : uint8_t(0);
        }

        EmulatedBlock *block_ = nullptr;
        int index_ = 0;
        ucontext_t context_{};
        std::vector<Copy> open_; // issued, not yet committed
        std::deque<std::vector<Copy>> groups_;
        bool waitedPriorGrid_ = false, done_ = false;
        int64_t barriers_ = 0;
    };

    // `threads` threads at `place`; copies may write [copyLo, copyHi) only (the stages).
    EmulatedBlock(int threads, BlockPlace place, CopyLanding landing, ThreadOrder order, const uint8_t *copyLo, const uint8_t *copyHi)
        : place_(place), landing_(landing), order_(order), copyLo_(reinterpret_cast<uintptr_t>(copyLo)),
          copyHi_(reinterpret_cast<uintptr_t>(copyHi)), threads_(size_t(threads)) {
        // one mapping: per thread kGuardBytes inaccessible (more than any frame of these bodies, so none jumps it), then
        // its stack (stacks grow down, into the guard)
        stacksBytes_ = threads_.size() * (kGuardBytes + kStackBytes);
        void *m = mmap(nullptr, stacksBytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (m == MAP_FAILED) throw std::runtime_error("block emulator: no memory for the threads' stacks");
        stacks_ = static_cast<char *>(m);
        for (size_t i = 0; i < threads_.size(); ++i)
            if (mprotect(stacks_ + i * (kGuardBytes + kStackBytes), kGuardBytes, PROT_NONE) != 0) {
                munmap(stacks_, stacksBytes_);
                throw std::runtime_error("block emulator: mprotect of a stack's guard page failed");
            }
    }
    ~EmulatedBlock() { munmap(stacks_, stacksBytes_); }
    EmulatedBlock(const EmulatedBlock &) = delete;
    EmulatedBlock &operator=(const EmulatedBlock &) = delete;

    // Runs body(thread) for every thread, a barrier at a time, once per block (a block runs its body once);
    // afterwards faults() lists what went wrong. Threads left waiting at a barrier when the others ended are
    // abandoned, not unwound: a body's locals need no destructors (tvStagedBlock's have none).
    void run(std::function<void(Thread &)> body) {
        if (ran_) throw std::logic_error("block emulator: run() twice on one block");
        ran_ = true;
        body_ = std::move(body);
        for (size_t i = 0; i < threads_.size(); ++i) {
            Thread &t = threads_[i];
            t.block_ = this;
            t.index_ = static_cast<int>(i);
            getcontext(&t.context_);
            t.context_.uc_stack.ss_sp = stacks_ + i * (kGuardBytes + kStackBytes) + kGuardBytes;
            t.context_.uc_stack.ss_size = kStackBytes;
            t.context_.uc_link = &scheduler_;
            makecontext(&t.context_, &EmulatedBlock::start, 0);
        }
        for (;;) {
            const size_t n = threads_.size();
            for (size_t k = 0; k < n; ++k) {
                Thread &t = threads_[order_ == ThreadOrder::Ascending ? k : n - 1 - k];
                if (t.done_) continue;
                running_ = &t;
                current() = this;
                swapcontext(&scheduler_, &t.context_);
            }
            size_t done = 0;
            for (const Thread &t : threads_) done += t.done_ ? 1 : 0;
            if (done == n) break;
            bool same = done == 0;
            for (const Thread &t : threads_) same = same && t.barriers_ == threads_[0].barriers_;
            if (!same) { // some threads ended or wait at another barrier: the rest would wait forever on a GPU
                fault(-1, "threads at different barriers (divergent __syncthreads)");
                break;
            }
        }
        for (const Thread &t : threads_)
            if (t.done_ && t.pendingCopies()) fault(t.index_, "ends with copies it never waited for");
    }

    const std::vector<std::string> &faults() const { return faults_; }

private:
    static constexpr size_t kStackBytes = 64 * 1024, kGuardBytes = 64 * 1024; // whole pages (of 4 KiB to 64 KiB)
    static EmulatedBlock *&current() {
        static thread_local EmulatedBlock *block = nullptr;
        return block;
    }
    static void start() {
        EmulatedBlock *b = current();
        Thread &t = *b->running_;
        try {
            b->body_(t);
        } catch (const std::exception &e) {
            b->fault(t.index_, std::string("the body threw: ") + e.what());
        } catch (...) {
            b->fault(t.index_, "the body threw");
        }
        t.done_ = true; // returning resumes the scheduler (uc_link)
    }
    // Records a fault (the first 8); false, for copy16's validity.
    bool fault(int thread, const std::string &what) {
        if (faults_.size() >= 8) return false;
        std::ostringstream s;
        s << "block (" << place_.x << ", " << place_.y << ", " << place_.z << ")";
        if (thread >= 0) s << " thread " << thread;
        s << ": " << what;
        faults_.push_back(s.str());
        return false;
    }

    BlockPlace place_;
    CopyLanding landing_;
    ThreadOrder order_;
    uintptr_t copyLo_, copyHi_;
    std::vector<Thread> threads_;
    char *stacks_ = nullptr;
    size_t stacksBytes_ = 0;
    bool ran_ = false;
    std::function<void(Thread &)> body_;
    Thread *running_ = nullptr;
    ucontext_t scheduler_{};
    std::vector<std::string> faults_;
};

} // namespace cvtest
