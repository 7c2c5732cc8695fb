"""Instruction counts of a kernel's loops from its SASS (cuobjdump -sass output), for comparing builds of a kernel on
a machine without a GPU: every backward branch closes a loop, printed as its first address, its length in
instructions and how many of them are global loads (LDG), shared loads (LDS), integer dot products (IDP), float
multiply-adds (FFMA) and global stores (STG).

Usage: python3 bench/probes/sass_loops.py SASS_FILE KERNEL_NAME_PART [MAX_LENGTH]
The SASS comes from `cuobjdump -sass OBJECT` (cuobjdump and nvdisasm: the CUDA toolkit, or the PyPI wheels
nvidia-cuda-cuobjdump and nvidia-cuda-nvdisasm); KERNEL_NAME_PART picks the kernels whose mangled name contains it."""
import re
import sys

COUNTED = ("LDG", "LDS", "IDP", "FFMA", "STG")
ADDRESS = re.compile(r"/\*([0-9a-f]+)\*/\s+(\S.*?);")
BRANCH = re.compile(r"(?:@!?U?P\w+\s+)?BRA\s+(?:`\()?0x([0-9a-f]+)")


def loops(text, part, longest):
    for block in re.split(r"\n\s*Function : ", text)[1:]:
        name = block.split("\n", 1)[0].strip()
        if part not in name:
            continue
        code = [(int(m.group(1), 16), m.group(2)) for m in ADDRESS.finditer(block)]
        print(f"{name}: {len(code)} instructions")
        at = {address: i for i, (address, _) in enumerate(code)}
        for i, (address, instruction) in enumerate(code):
            m = BRANCH.match(instruction.strip())
            target = int(m.group(1), 16) if m else None
            if target is None or target >= address or target not in at:
                continue
            body = [ins for _, ins in code[at[target]:i + 1]]
            if len(body) > longest:
                continue
            ops = [re.sub(r"^@!?U?P\w+\s+", "", ins.strip()).split()[0].split(".")[0] for ins in body]
            counts = " ".join(f"{op} {ops.count(op)}" for op in COUNTED)
            print(f"  loop at {target:#x}: {len(body)} instructions; {counts}")


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    with open(sys.argv[1]) as f:
        loops(f.read(), sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else 400)
