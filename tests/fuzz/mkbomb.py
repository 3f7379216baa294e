#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Crafted ELF files that cost a careless reader far more than their size,
the inputs a fuzzer with a 50 KB max_len never builds.

  mkbomb.py DIR

writes
  DIR/many_symtabs.elf   8.6 MB: 4000 section headers, all SHT_SYMTAB over
                         the same 8 MiB of symbols (each read again, and
                         kept by libelf until elf_end: 32 GB in all)
  DIR/many_sections.elf  1 GiB apparent, 4 KB on disk: extended section
                         numbering claiming 16 M (zero) section headers,
                         for which libelf's elf_begin() allocates
  DIR/many_symbols.elf   25 MB: a .dynsym and a .symtab of 1 M function
                         symbols each (osdhist's cap), every name as long
                         as a probed one and equal to it but for its last
                         byte: the most a symbol table can cost
  DIR/nonul_strtab.elf   256 MiB: /bin/sleep (still runs) with a new section
                         table: a .dynsym of 400 function symbols whose
                         .dynstr has no NUL after their names, so libelf's
                         elf_strptr() scans the rest of the table for each
                         (8.9 s before osdhist checked the table)
  DIR/nonul_strtab_32m.elf  the same with a 32 MiB table, under osdhist's
                         size cap for string tables: the NUL check refuses it

  mkbomb.py --nonul SIZE_MIB OUT   only the nonul_strtab bomb, of that size
"""
import os
import struct
import sys

EHDR = struct.Struct('<16sHHIQQQIHHHHHH')
SHDR = struct.Struct('<IIQQQQIIQQ')
SYM = struct.Struct('<IBBHQQ')
IDENT = b'\x7fELF\x02\x01\x01' + b'\0' * 9
ET_DYN, EM_X86_64 = 3, 62
SHT_SYMTAB, SHT_STRTAB, SHT_DYNSYM = 2, 3, 11


def many_symtabs(path, n=4000, size=8 << 20):
    size -= size % SYM.size
    data_off = 0x1000
    sh_off = data_off + size
    strtab_off = sh_off + SHDR.size * (n + 2)
    # one named function symbol, repeated: every one goes through strcmp
    strtab = b'\0_ZN9OpRequest18maybe_init_op_infoERK6OSDMaq\0'
    out = bytearray(EHDR.pack(IDENT, ET_DYN, EM_X86_64, 1, 0, 0, sh_off, 0, EHDR.size,
                              56, 0, SHDR.size, n + 2, 0))
    out += b'\0' * (data_off - len(out))
    out += SYM.pack(1, 0x12, 0, 1, 1, 1) * (size // SYM.size)
    out += SHDR.pack(0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    out += SHDR.pack(0, SHT_STRTAB, 0, 0, strtab_off, len(strtab), 0, 0, 1, 0)
    for _ in range(n):
        out += SHDR.pack(0, SHT_SYMTAB, 0, 0, data_off, size, 1, 0, 8, SYM.size)
    out += strtab
    with open(path, 'wb') as f:
        f.write(out)


def many_sections(path, size=1 << 30):
    n = (size - EHDR.size) // SHDR.size
    with open(path, 'wb') as f:
        # e_shnum 0: the count is section 0's sh_size (extended numbering)
        f.write(EHDR.pack(IDENT, ET_DYN, EM_X86_64, 1, 0, 0, EHDR.size, 0, EHDR.size,
                          56, 0, SHDR.size, 0, 0))
        f.write(SHDR.pack(0, 0, 0, 0, 0, n, 0, 0, 0, 0))
        f.truncate(EHDR.size + SHDR.size * n)      # the rest: holes of zeros


def many_symbols(path, n=1 << 20):
    name = b'_ZN12PrimaryLogPG12log_op_statsERK9OpRequestmX'
    strtab = b'\0' + name + b'\0'
    data_off = 0x1000
    syms = SYM.pack(1, 0x12, 0, 1, 1, 1) * n
    sh_off = data_off + len(syms) + len(strtab)
    with open(path, 'wb') as f:
        f.write(EHDR.pack(IDENT, ET_DYN, EM_X86_64, 1, 0, 0, sh_off, 0, EHDR.size,
                          56, 0, SHDR.size, 4, 0))
        f.write(b'\0' * (data_off - EHDR.size))
        f.write(syms)
        f.write(strtab)
        f.write(SHDR.pack(0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
        f.write(SHDR.pack(0, SHT_STRTAB, 0, 0, data_off + len(syms), len(strtab), 0, 0,
                          1, 0))
        for t in (SHT_DYNSYM, SHT_SYMTAB):    # both tables over the same symbols
            f.write(SHDR.pack(0, t, 0, 0, data_off, len(syms), 1, 0, 8, SYM.size))


def nonul_strtab(path, size, base='/bin/sleep', nsyms=400):
    """base's bytes (its program headers untouched: the kernel runs it as
    before), then a string table of size bytes that ends in 'A's, the
    symbols, and a section table of its own that e_shoff now points at."""
    with open(base, 'rb') as f:
        out = bytearray(f.read())
    out += b'\0' * (-len(out) % 8)
    name = b'_ZN12PrimaryLogPG12log_op_statsERK9OpRequestmm'
    str_off = len(out)
    out += b'\0' + name + b'A' * (size - 1 - len(name))    # no NUL after it
    out += b'\0' * (-len(out) % 8)
    sym_off = len(out)
    out += SYM.pack(0, 0, 0, 0, 0, 0)
    out += SYM.pack(1, 0x12, 0, 1, 0x1000, 16) * nsyms     # FUNC, GLOBAL, defined
    sh_off = len(out)
    out += SHDR.pack(0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    out += SHDR.pack(0, SHT_STRTAB, 0, 0, str_off, size, 0, 0, 1, 0)
    out += SHDR.pack(0, SHT_DYNSYM, 0, 0, sym_off, SYM.size * (nsyms + 1), 1, 1, 8,
                     SYM.size)
    # e_shoff, then e_shnum and e_shstrndx (0: no section names)
    struct.pack_into('<Q', out, 0x28, sh_off)
    struct.pack_into('<HH', out, 0x3c, 3, 0)
    with open(path, 'wb') as f:
        f.write(out)
    os.chmod(path, 0o755)


def main():
    if len(sys.argv) == 4 and sys.argv[1] == '--nonul':
        nonul_strtab(sys.argv[3], int(sys.argv[2]) << 20)
        return
    if len(sys.argv) != 2:
        sys.exit('usage: mkbomb.py DIR | mkbomb.py --nonul SIZE_MIB OUT')
    many_symtabs(os.path.join(sys.argv[1], 'many_symtabs.elf'))
    many_sections(os.path.join(sys.argv[1], 'many_sections.elf'))
    many_symbols(os.path.join(sys.argv[1], 'many_symbols.elf'))
    nonul_strtab(os.path.join(sys.argv[1], 'nonul_strtab.elf'), 256 << 20)
    nonul_strtab(os.path.join(sys.argv[1], 'nonul_strtab_32m.elf'), 32 << 20)


if __name__ == '__main__':
    main()
