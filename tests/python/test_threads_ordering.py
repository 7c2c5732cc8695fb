"""Python threads, each with its own cvcuda.Stream, on the same memory: the library orders them (the GIL is released
in every C call, so submissions really overlap). Negative control: the same scenario with the second write done by
torch on its own stream, which cvcuda does not order, reads overwritten data (forced by a sleep on the first stream)."""

import threading

import cvcuda
from gpu_helpers import make_busy

SHAPE = (1, 48, 80, 3)
BUSY_MS = 50
THREADS = 8
STEPS = 200


def test_threads_flip_one_tensor_in_place(torch):
    """Row and column flips commute and are involutions: whatever the interleaving, the result is known, provided no
    two flips of the memory overlap on the GPU."""
    p0 = torch.randint(1, 256, SHAPE, dtype=torch.uint8, device="cuda")
    p = p0.clone()
    torch.cuda.synchronize()
    shared = cvcuda.as_tensor(p, "NHWC")
    counts = [[0, 0] for _ in range(THREADS)]
    errors = []

    def body(index):
        try:
            stream = cvcuda.Stream()
            for k in range(STEPS):
                code = (index + k * 7) % 2
                cvcuda.flip_into(shared, shared, code, stream=stream)
                counts[index][code] += 1
            stream.sync()
        except BaseException as exc:
            errors.append(exc)

    pool = [threading.Thread(target=body, args=(i,)) for i in range(THREADS)]
    for t in pool:
        t.start()
    for t in pool:
        t.join()
    assert not errors, errors
    rows = sum(c[0] for c in counts) % 2
    cols = sum(c[1] for c in counts) % 2
    dims = [d for d, odd in ((1, rows), (2, cols)) if odd]
    expected = torch.flip(p0, dims) if dims else p0
    assert torch.equal(p, expected)


def read_then_overwrite(torch, overwrite_with_cvcuda: bool) -> bool:
    """Thread 1 flips P into Q on stream a, behind a sleep; after its call returned, thread 2 overwrites P (with
    cvcuda on stream b, which must wait for the read, or with torch, which nothing orders). Returns Q is right."""
    p = torch.randint(1, 256, SHAPE, dtype=torch.uint8, device="cuda")
    q = torch.zeros_like(p)
    expected = torch.flip(p, [2])
    torch.cuda.synchronize()
    tp, tq = cvcuda.as_tensor(p, "NHWC"), cvcuda.as_tensor(q, "NHWC")
    a, b = cvcuda.Stream(), cvcuda.Stream()
    cvcuda.flip_into(tq, tp, 1, stream=a)  # pays the wrappers' defensive sync before the sleep
    a.sync()
    read_enqueued = threading.Event()

    def reader():
        make_busy(torch, torch.cuda.ExternalStream(a.handle), BUSY_MS)
        cvcuda.flip_into(tq, tp, 1, stream=a)
        read_enqueued.set()

    def writer():
        read_enqueued.wait()
        if overwrite_with_cvcuda:
            cvcuda.flip_into(tp, tp, 0, stream=b)  # WAR: b waits for a's read
        else:
            p.fill_(7)  # torch's stream: not ordered after a's read

    threads = [threading.Thread(target=reader), threading.Thread(target=writer)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    a.sync()
    b.sync()
    torch.cuda.synchronize()
    return torch.equal(q, expected)


def test_write_from_another_thread_waits_for_the_read(torch):
    assert read_then_overwrite(torch, overwrite_with_cvcuda=True)


def test_negative_control_unordered_write_from_another_thread(torch):
    assert not read_then_overwrite(torch, overwrite_with_cvcuda=False)
