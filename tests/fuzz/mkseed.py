#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Make a small fuzz seed (tens of KB) from a real ceph-osd (25-40 MB).

  mkseed.py CEPH_OSD OUT NAMES...

NAMES are files in which the mangled names osdhist looks up appear: the
.rodata of the fuzz harness (test_fuzz.sh extracts it: the names as compiled,
macros pasted) or C sources.

The seed is a valid ELF64 that keeps what binary_inspect() reads and nothing
else, so the fuzzer's mutations land on the interesting bytes:

  - the .note.gnu.build-id note;
  - a .dynsym/.dynstr holding only the functions osdhist looks at: every
    mangled name ("_Z...") found in NAMES (the probes, the witnesses and the
    functions whose calls a witness looks for, so the seed follows the code
    as it changes);
  - the machine code of those functions at their original virtual
    addresses, each run of code in its own PT_LOAD and .text section, so
    call and jump targets still resolve to the kept symbols;
  - DATA_WINDOW bytes of read-only data at each %rip-relative lea of that
    code (the version string ceph_version_to_str() returns, for one);
  - one `call` to each kept function that the binary calls directly, so
    that the inlining check (loader/ceph/binary.c) sees what it sees there.

Python's standard library only: the ELF parsing is a few struct formats.
"""
import re
import struct
import sys

CODE_BUDGET = 160 * 1024   # total code bytes kept
GAP_MERGE = 256            # runs of code closer than this share a segment
DATA_WINDOW = 64           # bytes kept at each lea'd data address
DATA_BUDGET = 16 * 1024

EHDR = struct.Struct('<16sHHIQQQIHHHHHH')
SHDR = struct.Struct('<IIQQQQIIQQ')
PHDR = struct.Struct('<IIQQQQQQ')
SYM = struct.Struct('<IBBHQQ')
STT_FUNC = 2
SHT_PROGBITS, SHT_STRTAB, SHT_NOTE, SHT_DYNSYM = 1, 3, 7, 11
PT_LOAD, PT_NOTE = 1, 4
PF_X, PF_R = 1, 4
SHF_ALLOC, SHF_EXECINSTR = 2, 4


def cstr(buf, off):
    end = buf.index(b'\0', off)
    return buf[off:end]


class Elf:
    def __init__(self, path):
        with open(path, 'rb') as f:
            self.data = f.read()
        e = EHDR.unpack_from(self.data, 0)
        if e[0][:4] != b'\x7fELF' or e[0][4] != 2:
            sys.exit('mkseed: %s is not an ELF64 file' % path)
        self.machine = e[2]
        self.phoff, self.shoff = e[5], e[6]
        self.phnum, self.shnum, self.shstrndx = e[10], e[12], e[13]
        self.sh = [SHDR.unpack_from(self.data, self.shoff + i * SHDR.size)
                   for i in range(self.shnum)]
        self.ph = [PHDR.unpack_from(self.data, self.phoff + i * PHDR.size)
                   for i in range(self.phnum)]
        shstr = self.sh[self.shstrndx]
        self.names = [cstr(self.data, shstr[4] + s[0]).decode() for s in self.sh]

    def section(self, name):
        for i, n in enumerate(self.names):
            if n == name:
                return self.sh[i]
        return None

    def bytes_at(self, vaddr, size):
        for p in self.ph:
            if p[0] == PT_LOAD and p[3] <= vaddr and vaddr + size <= p[3] + p[5]:
                off = vaddr - p[3] + p[2]
                return self.data[off:off + size]
        return None

    def functions(self):
        """name -> (vaddr, size) of every defined function in .dynsym."""
        sym, st = self.section('.dynsym'), self.section('.dynstr')
        out = {}
        for i in range(sym[5] // SYM.size):
            n, info, _, shndx, val, size = SYM.unpack_from(self.data, sym[4] + i * SYM.size)
            if (info & 0xf) == STT_FUNC and val and size:
                out[cstr(self.data, st[4] + n).decode()] = (val, size)
        return out


def wanted(files):
    names = []
    for path in files:
        data = open(path, 'rb').read()
        # in C sources, "_ZN..." "more" string pieces across lines
        data = re.sub(rb'"\s*\n\s*"', b'', data)
        names += [m.decode() for m in re.findall(rb'_Z[A-Za-z0-9_]{4,}', data)]
    return list(dict.fromkeys(names))


def pick(elf, names):
    funcs = elf.functions()
    keep, code, budget = {}, {}, CODE_BUDGET
    for n in names:
        if n not in funcs:
            continue
        v, size = funcs[n]
        keep[n] = (v, size)
        b = elf.bytes_at(v, size)
        if b is not None and size <= budget:
            code[v] = b
            budget -= size
    # every alias of a kept address (C1/C2 constructors, D1/D2 destructors)
    for n, (v, size) in funcs.items():
        if v in code and n not in keep:
            keep[n] = (v, size)
    return keep, code, [n for n in names if n not in funcs]


def called(elf, targets):
    """Which of targets (vaddrs) a call or jmp rel32 in the executable
    segments reaches: loader/ceph/binary.c's byte scan, for its inlining check."""
    want, found = set(targets), set()
    for p in elf.ph:
        if p[0] != PT_LOAD or not p[1] & PF_X:
            continue
        seg = elf.data[p[2]:p[2] + p[5]]
        for m in re.finditer(rb'[\xe8\xe9]', seg):
            i = m.start()
            if i + 5 > len(seg):
                break
            to = p[3] + i + 5 + struct.unpack_from('<i', seg, i + 1)[0]
            if to in want:
                found.add(to)
                if found == want:
                    return found
    return found


def add_callers(elf, keep, code):
    """osdhist refuses a probed function that nothing calls (inlined): for
    each kept function the binary does call, one `call` to it in a code run
    of its own past the kept code, so the seed's verdict stays the binary's.
    The callers' own code would cost tens of KB each."""
    targets = sorted({v for v, _ in keep.values() if v in code})
    reached = [v for v in targets if v in called(elf, targets)]
    if not reached:
        return
    at = (max(v + len(b) for v, b in code.items()) + 0xfff & ~0xfff) + 0x1000
    stub = bytearray()
    for v in reached:
        stub += b'\xe8' + struct.pack('<i', v - (at + len(stub) + 5))
    code[at] = bytes(stub)


def runs(code):
    """Merge kept functions into runs of contiguous virtual addresses."""
    out = []
    for v in sorted(code):
        end = v + len(code[v])
        if out and v - out[-1][1] <= GAP_MERGE:
            out[-1][1] = max(out[-1][1], end)
        else:
            out.append([v, end])
    return out


def lea_data(elf, code):
    """DATA_WINDOW bytes at each target of a %rip-relative lea (REX.W 8d
    with mod 00, rm 101) that lands in a read-only, non-executable PT_LOAD."""
    out, budget = {}, DATA_BUDGET
    ro = [p for p in elf.ph if p[0] == PT_LOAD and not p[1] & PF_X]
    for v, b in sorted(code.items()):
        for m in re.finditer(rb'[\x48\x4c]\x8d', b):
            i = m.start()
            if i + 7 > len(b) or (b[i + 2] & 0xc7) != 0x05:
                continue
            tgt = v + i + 7 + struct.unpack_from('<i', b, i + 3)[0]
            for p in ro:
                if p[3] <= tgt and tgt + DATA_WINDOW <= p[3] + p[5] and budget > 0:
                    off = tgt - p[3] + p[2]
                    out[tgt] = elf.data[off:off + DATA_WINDOW]
                    budget -= DATA_WINDOW
    return out


def build(elf, keep, code):
    out = bytearray(EHDR.size)
    segs = []      # (type, flags, off, vaddr, size, align)
    secs = []      # (name, type, flags, addr, off, size, link, info, align, entsize)

    def put(blob, align, congruent=None):
        pad = (-len(out)) % align
        if congruent is not None:        # file offset == vaddr modulo align
            pad = (congruent - len(out)) % align
        out.extend(b'\0' * pad)
        off = len(out)
        out.extend(blob)
        return off

    # room for the program headers, filled in at the end
    code_runs = runs(code)
    data = lea_data(elf, code)
    data_runs = runs(data)
    nseg = 1 + len(code_runs) + len(data_runs)
    out.extend(b'\0' * (PHDR.size * nseg))

    note = elf.section('.note.gnu.build-id')
    if note:
        nb = elf.data[note[4]:note[4] + note[5]]
        off = put(nb, 4)
        segs.append((PT_NOTE, PF_R, off, 0, len(nb), 4))
        secs.append(('.note.gnu.build-id', SHT_NOTE, SHF_ALLOC, 0, off, len(nb), 0, 0, 4, 0))

    text_index = {}        # run start -> section index (1-based, after note)
    first_text = len(secs) + 3          # NULL, [note], dynsym, dynstr, text...
    for i, (a, _) in enumerate(code_runs):
        text_index[a] = first_text + i

    dynstr = bytearray(b'\0')
    syms = [SYM.pack(0, 0, 0, 0, 0, 0)]
    for n, (v, size) in sorted(keep.items(), key=lambda kv: kv[1][0]):
        shndx = 0xfff1          # SHN_ABS when its code was not kept
        for a, e in code_runs:
            if a <= v < e:
                shndx = text_index[a]
        syms.append(SYM.pack(len(dynstr), (1 << 4) | STT_FUNC, 0, shndx, v, size))
        dynstr.extend(n.encode() + b'\0')
    dynsym_idx = len(secs) + 1
    off = put(b''.join(syms), 8)
    secs.append(('.dynsym', SHT_DYNSYM, SHF_ALLOC, 0, off, SYM.size * len(syms),
                 dynsym_idx + 1, 1, 8, SYM.size))
    off = put(bytes(dynstr), 1)
    secs.append(('.dynstr', SHT_STRTAB, SHF_ALLOC, 0, off, len(dynstr), 0, 0, 1, 0))

    for a, e in code_runs:
        blob = bytearray(e - a)
        for v, b in code.items():
            if a <= v < e:
                blob[v - a:v - a + len(b)] = b
        off = put(bytes(blob), 16, a % 16)
        segs.append((PT_LOAD, PF_R | PF_X, off, a, len(blob), 16))
        secs.append(('.text', SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, a, off, len(blob),
                     0, 0, 16, 0))
    for a, e in data_runs:
        blob = bytearray(e - a)
        for v, b in data.items():
            if a <= v < e:
                blob[v - a:v - a + len(b)] = b
        off = put(bytes(blob), 16, a % 16)
        segs.append((PT_LOAD, PF_R, off, a, len(blob), 16))
        secs.append(('.rodata', SHT_PROGBITS, SHF_ALLOC, a, off, len(blob), 0, 0, 16, 0))

    shstr = bytearray(b'\0')
    name_off = []
    for s in secs + [('.shstrtab',)]:
        name_off.append(len(shstr))
        shstr.extend(s[0].encode() + b'\0')
    off = put(bytes(shstr), 1)
    secs.append(('.shstrtab', SHT_STRTAB, 0, 0, off, len(shstr), 0, 0, 1, 0))

    shoff = put(b'', 8)
    out.extend(SHDR.pack(0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
    for i, s in enumerate(secs):
        out.extend(SHDR.pack(name_off[i], s[1], s[2], s[3], s[4], s[5], s[6], s[7],
                             s[8], s[9]))
    assert len(segs) == nseg
    for i, (t, fl, o, v, sz, al) in enumerate(segs):
        PHDR.pack_into(out, EHDR.size + i * PHDR.size, t, fl, o, v, v, sz, sz, al)
    ident = b'\x7fELF\x02\x01\x01' + b'\0' * 9
    EHDR.pack_into(out, 0, ident, 3, elf.machine, 1, 0, EHDR.size, shoff, 0,
                   EHDR.size, PHDR.size, nseg, SHDR.size, len(secs) + 1, len(secs))
    return bytes(out)


def main():
    if len(sys.argv) < 4:
        sys.exit('usage: mkseed.py CEPH_OSD OUT NAMES...')
    elf = Elf(sys.argv[1])
    names = wanted(sys.argv[3:])
    keep, code, missing = pick(elf, names)
    if not code:
        sys.exit('mkseed: %s has none of the %d functions named in %s'
                 % (sys.argv[1], len(names), ' '.join(sys.argv[3:])))
    add_callers(elf, keep, code)
    seed = build(elf, keep, code)
    with open(sys.argv[2], 'wb') as f:
        f.write(seed)
    print('mkseed: %s: %d bytes, %d symbols, %d functions with code (%d of the %d '
          'names wanted are not in this binary)' % (sys.argv[2], len(seed), len(keep),
                                                     len(code), len(missing), len(names)))


if __name__ == '__main__':
    main()
