#!/bin/bash
# DWARF as the oracle of the offsets osdhist derives from machine code: for
# every ceph-osd build with Debian's ceph-osd-dbg (the host's 16.2.15, and
# 18.2.7 / 20.2.4 in the chroots of scripts/chroots.sh, built when missing),
# build/dwarf_offsets reads each offset of struct osd_offsets from the DWARF
# (libdw: member offsets, base classes included; stack slots from the
# parameter's location at entry and from the calling convention applied to
# the parameter types), and `osdhist --inspect -v` must print the same value.
# Every offset the BPF programs read today must be derived; the others are
# compared when osdhist derives them.  DWARF checks the method, it is never
# the method: osdhist itself never reads DWARF.
#
# DWARF_ARCH=arm64 (test_dwarf_arm64.sh): the same for Debian's arm64
# ceph-osd and ceph-osd-dbg of 16.2.15, 18.2.7 and 20.2.4, fetched and
# unpacked by scripts/arm64_osds.sh (cached; about 1.7 GB the first time),
# derived from AArch64 code by this x86 osdhist's --inspect.  There sp_spg
# is the pool's offset in the spg_t copy x1 points at (AAPCS64 passes the
# 24-byte spg_t by reference; bpf/arch.bpf.h reads x1 + sp_spg).
. "$(dirname "$0")/../lib.sh"

OSDHIST=${OSDHIST:-$LIB_ROOT/osdhist}
ORACLE=$LIB_ROOT/build/dwarf_offsets
CHROOTS=${OSDHIST_CHROOTS:-/var/cache/osdhist/chroots}
# what bpf/osdhist.bpf.c reads (its rodata offsets): never left underived
BPF_READS=" op_request op_rmw op_dequeued msg_type msg_recv repmod_op sp_spg sp_submit_op "
lib_mktemp WORK -d

if ! make -s -C "$LIB_ROOT" osdhist build/dwarf_offsets >"$WORK/make.log" 2>&1; then
	fail "building osdhist and build/dwarf_offsets"
	tail -n 20 "$WORK/make.log"
	finish
fi

# chroot_root NAME: the chroot of that release, built by scripts/chroots.sh
# when it is not there (minutes, once; never skipped).
chroot_root() {
	if [ -f "$CHROOTS/$1/complete" ]; then
		echo "$CHROOTS/$1/root"
	elif [ -x "$LIB_ROOT/scripts/chroots.sh" ]; then
		OSDHIST_CHROOTS=$CHROOTS "$LIB_ROOT/scripts/chroots.sh" "$1" | tail -n 1
	else
		echo "test_dwarf: no $1 chroot in $CHROOTS and no scripts/chroots.sh to build it" >&2
		return 1
	fi
}

# arm64_root NAME: the unpacked arm64 packages of that release.
arm64_root() {
	"$LIB_ROOT/scripts/arm64_osds.sh" "$1" | tail -n 1
}

# value FILE NAME: the distinct values FILE gives NAME ("NAME = VALUE ...")
value() { awk -v n="$2" '$1 == n && $2 == "=" { print $3 }' "$1" | sort -u | paste -sd' '; }

NAMES=()
declare -A TABLE
compare() { # LABEL ROOT ("" for the host)
	local label=$1 root=$2 bin id dbg name mine dw why
	bin=$root/usr/bin/ceph-osd
	id=$(readelf -n "$bin" 2>/dev/null | awk '/Build ID:/ { print $3 }')
	dbg=$root/usr/lib/debug/.build-id/${id:0:2}/${id:2}.debug
	if [ -z "$id" ] || [ ! -r "$dbg" ]; then
		fail "$label: no DWARF for $bin (build-id ${id:-none}) at $dbg: install ceph-osd-dbg${root:+ in $root} (scripts/setup.sh${root:+, scripts/chroots.sh})"
		return
	fi
	"$ORACLE" "$bin" "$dbg" >"$WORK/$label.dwarf" 2>"$WORK/$label.dwarf.err"
	check_eq "$label: DWARF tells every offset (build/dwarf_offsets exit status)" "$?" 0
	sed "s/^/# $label DWARF: /" "$WORK/$label.dwarf" "$WORK/$label.dwarf.err"
	"$OSDHIST" --inspect "$bin" -v >"$WORK/$label.osdhist" 2>"$WORK/$label.err"
	check_eq "$label: osdhist --inspect accepts $bin" "$?" 0
	sed "s/^/# $label osdhist: /" "$WORK/$label.osdhist" "$WORK/$label.err"
	TABLE[$label,version]=$(sed -n '1s/.*Ceph \([^,:]*\)[,:].*/\1/p' "$WORK/$label.osdhist")
	local names
	names=$(awk '$2 == "=" { print $1 }' "$WORK/$label.osdhist")
	[ -n "$names" ] || fail "$label: osdhist --inspect -v printed no offsets"
	for name in $names; do
		[[ " ${NAMES[*]} " == *" $name "* ]] || NAMES+=("$name")
		mine=$(value "$WORK/$label.osdhist" "$name")
		dw=$(value "$WORK/$label.dwarf" "$name")
		TABLE[$label,$name]="${dw:-?} / $mine"
		if [ -z "$dw" ] || [ "$dw" == "?" ]; then
			fail "$label: $name: DWARF cannot tell it"
		elif [[ $dw == *" "* ]]; then
			fail "$label: $name: DWARF's functions disagree ($dw)"
		elif [ "$mine" == none ]; then
			why=$(awk -v n="$name" '$1 == n { sub(/^[^(]*\(/, ""); sub(/\)$/, ""); print }' \
				"$WORK/$label.osdhist")
			if [[ $BPF_READS == *" $name "* ]]; then
				fail "$label: $name: osdhist derives none ($why); DWARF: $dw"
			else
				echo "# $label: $name is not read by the BPF programs and osdhist derives none ($why); DWARF: $dw"
			fi
		else
			check_eq "$label: $name = $dw as DWARF says" "$mine" "$dw"
		fi
	done
}

if [ "${DWARF_ARCH:-}" == arm64 ]; then
	LABELS=()
	for r in pacific reef tentacle; do
		LABELS+=("arm64-$r")
		if root=$(arm64_root $r) && [ -n "$root" ]; then
			check_eq "arm64-$r: osdhist --inspect names the architecture" \
				"$("$OSDHIST" --inspect "$root/usr/bin/ceph-osd" 2>&1 | grep -c 'is an arm64 binary')" 1
			compare "arm64-$r" "$root"
		else
			fail "$r: the arm64 packages could not be fetched (scripts/arm64_osds.sh $r)"
		fi
	done
else
	LABELS=(host reef tentacle)
	compare host ""
	for r in reef tentacle; do
		if root=$(chroot_root $r) && [ -n "$root" ]; then
			compare $r "$root"
		else
			fail "$r: the chroot could not be built (scripts/chroots.sh $r)"
		fi
	done
fi

# the table, DWARF / osdhist, for the record
printf '# %-13s' offset; for l in "${LABELS[@]}"; do printf ' %-20s' "$l ${TABLE[$l,version]}"; done; echo
for name in "${NAMES[@]}"; do
	printf '# %-13s' "$name"
	for l in "${LABELS[@]}"; do printf ' %-20s' "${TABLE[$l,$name]:--}"; done
	echo
done
echo "# (each cell: DWARF / osdhist --inspect)"
finish
