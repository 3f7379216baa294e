#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Make a small fuzz seed (tens of KB) from a real ceph-osd (25-40 MB).

  mkseed.py CEPH_OSD OUT [SOURCE.c ...]

The seed is a valid ELF64 that keeps what binary_inspect() reads and nothing
else, so the fuzzer's mutations land on the interesting bytes:

  - the .note.gnu.build-id note;
  - a .dynsym/.dynstr holding only the functions osdhist looks at: every
    mangled name ("_Z...") quoted in the given C sources (loader/binary.c,
    loader/derive.c: the probes and the witnesses, so the seed follows the
    code as it changes), plus the functions those call directly, up to
    CALL_DEPTH levels (a witness is often "lea F(op) then call X");
  - the functions holding an instruction the build-id table checks
    (`{ 0xVADDR, "bytes"` in the sources);
  - the machine code of those functions at their original virtual
    addresses, each run of code in its own PT_LOAD and .text section, so
    call and jump targets still resolve to the kept symbols;
  - the "ceph version" string from .rodata when there is one.

Python's standard library only: the ELF parsing is a few struct formats.
"""
import re
import struct
import sys

CALL_DEPTH = 1
CALLEE_MAX = 1024          # a callee's code is kept only if this small
CODE_BUDGET = 160 * 1024   # total code bytes kept, witnesses first
GAP_MERGE = 256            # runs of code closer than this share a segment

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


def wanted(sources):
    names, addrs = [], []
    for src in sources:
        text = open(src, encoding='utf-8').read()
        # C string concatenation: "_ZN..." "more" across lines
        text = re.sub(r'"\s*\n\s*"', '', text)
        names += re.findall(r'"(_Z[A-Za-z0-9_]+)"', text)
        addrs += [int(a, 16) for a in re.findall(r'\{\s*0x([0-9a-fA-F]+),\s*"', text)]
    return list(dict.fromkeys(names)), addrs


def direct_callees(code, vaddr, by_addr):
    """Targets of e8 rel32 that land on a function start (a byte-level scan:
    a false hit only keeps one more small function)."""
    out = []
    for m in re.finditer(b'\xe8', code):
        i = m.start()
        if i + 5 > len(code):
            break
        tgt = (vaddr + i + 5 + struct.unpack_from('<i', code, i + 1)[0]) & (2**64 - 1)
        if tgt in by_addr:
            out.append(by_addr[tgt])
    return out


def pick(elf, names, addrs):
    funcs = elf.functions()
    by_addr = {}
    for n, (v, size) in funcs.items():
        by_addr.setdefault(v, n)
        if any(v <= a < v + size for a in addrs) and n not in names:
            names.append(n)
    keep, code, budget = {}, {}, CODE_BUDGET
    level = [n for n in names if n in funcs]
    missing = [n for n in names if n not in funcs]
    for depth in range(CALL_DEPTH + 1):
        nxt = []
        for n in level:
            if n in keep:
                continue
            v, size = funcs[n]
            keep[n] = (v, size)
            if depth and size > CALLEE_MAX:
                continue        # the symbol stays, its code does not
            if size > budget:
                continue
            b = elf.bytes_at(v, size)
            if b is None:
                continue
            code[v] = b
            budget -= size
            nxt += direct_callees(b, v, by_addr)
        level = nxt
    # every alias of a kept address (C1/C2 constructors, D1/D2 destructors)
    for n, (v, size) in funcs.items():
        if v in code and n not in keep:
            keep[n] = (v, size)
    return keep, code, missing


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


def version_string(elf):
    ro = elf.section('.rodata')
    if not ro:
        return None
    blob = elf.data[ro[4]:ro[4] + ro[5]]
    m = re.search(rb'ceph version [0-9][^\0]{0,200}\0', blob)
    if not m:
        return None
    return ro[3] + m.start(), m.group(0)


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
    ver = version_string(elf)
    nseg = 1 + len(code_runs) + (1 if ver else 0)
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
    if ver:
        a, s = ver
        off = put(s, 16, a % 16)
        segs.append((PT_LOAD, PF_R, off, a, len(s), 16))
        secs.append(('.rodata', SHT_PROGBITS, SHF_ALLOC, a, off, len(s), 0, 0, 16, 0))

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
    if len(sys.argv) < 3:
        sys.exit('usage: mkseed.py CEPH_OSD OUT [SOURCE.c ...]')
    elf = Elf(sys.argv[1])
    names, addrs = wanted(sys.argv[3:])
    keep, code, missing = pick(elf, names, addrs)
    if not code:
        sys.exit('mkseed: %s has none of the %d functions named in %s'
                 % (sys.argv[1], len(names), ' '.join(sys.argv[3:])))
    seed = build(elf, keep, code)
    with open(sys.argv[2], 'wb') as f:
        f.write(seed)
    print('mkseed: %s: %d bytes, %d symbols, %d functions with code, %d named in the '
          'sources not in this binary' % (sys.argv[2], len(seed), len(keep), len(code),
                                          len(missing)))


if __name__ == '__main__':
    main()
