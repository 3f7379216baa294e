#!/bin/bash
# test_dwarf.sh for Debian's arm64 ceph-osd of 16.2.15, 18.2.7 and 20.2.4:
# every offset osdhist derives from their AArch64 code must equal their
# arm64 ceph-osd-dbg's DWARF (all three releases have one).
DWARF_ARCH=arm64 exec "$(dirname "$0")/test_dwarf.sh" "$@"
