#!/usr/bin/env python3
# ustack-patch.py DUMP FILE WHAT VALUE: rewrite, in place, every sample of a
# --call-graph dwarf perf.data FILE whose user stack is not empty:
#   dyn N  its dyn_size becomes min(N, the stack's room) (a copy cut short)
#   ip A   its user IP register becomes A (an ip outside any map)
# DUMP is `perf report -D` of FILE: it gives each sample's file offset, the
# offset of its stack (the size field) and the register mask. Prints the
# number of samples changed.
import re
import struct
import sys

dump, path, what, value = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4], 0)
rec_re = re.compile(r'^\S+ (0x[0-9a-f]+) \[0x[0-9a-f]+\]: PERF_RECORD_SAMPLE')
mask_re = re.compile(r'^\.\.\. user regs: mask (0x[0-9a-f]+)')
stack_re = re.compile(r'^\.\.\. ustack: size (\d+), offset (0x[0-9a-f]+)')
changed = 0
with open(dump) as d, open(path, 'r+b') as f:
    rec = mask = None
    for line in d:
        m = rec_re.match(line)
        if m:
            rec, mask = int(m.group(1), 16), None
            continue
        m = mask_re.match(line)
        if m:
            mask = int(m.group(1), 16)
            continue
        m = stack_re.match(line)
        if not m or rec is None or int(m.group(1)) == 0:
            continue
        off = rec + int(m.group(2), 16)
        f.seek(off)
        room = struct.unpack('<Q', f.read(8))[0]
        if what == 'dyn':
            f.seek(off + 8 + room)
            f.write(struct.pack('<Q', min(value, room)))
        elif what == 'ip' and mask is not None and mask >> 8 & 1:
            nregs = bin(mask).count('1')
            f.seek(off - 8 * nregs + 8 * bin(mask & 0xff).count('1'))
            f.write(struct.pack('<Q', value))
        else:
            continue
        changed += 1
        rec = None
print(changed)
