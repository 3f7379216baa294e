#!/bin/bash
# Issue 23: no process can forge a line of osdhist's output by the bytes it
# chooses.  Beside a throwaway cluster whose OSD is traced, two fake
# ceph-osd processes (copies of sleep) run from a directory named
#   x<LF>osd.7 pid 1 Ceph 16.2.15 build-id 00, x86-64: traceable<ESC>[2J
# one with the command line "--id 7 593" (it claims osd.7), the other with an
# argv[0] holding a newline, CR and ESC and listening on a UNIX socket whose
# name holds ESC sequences and a C1 byte (--list shows it as its admin
# socket).  A raw
# print of the path made a line "osd.7 pid 1 ... traceable" of its own.
# Asserted: in --list, --inspect (stdout and stderr) and in the text and JSON
# outputs of a trace, every line is one osdhist wrote (--list: one per
# process, each starting "osd.N pid P"), no ESC, CR or byte >= 0x7f anywhere, every
# JSON line parses with jq, the fakes' strings show escaped (\n, \r, \x1b),
# and the real OSD's line and write counts are exact (op_w delta).
# The stderr of the trace itself comes from attach.c/discover.c, which
# escape with ESC() on their own branch; what it shows here is printed, not
# asserted.
# packages: python3 jq coreutils
. "$(dirname "$0")/../lib.sh"

OSDHIST=${OSDHIST:-$LIB_ROOT/osdhist}
ID=$(random_first_id)
cluster_up --osds 1 --first-id "$ID" || { fail "cluster did not start"; finish; }
PID=$(osd_pid "$ID")
W=$CLUSTER_DIR/esc
mkdir -p "$W"
FORGED='osd.7 pid 1 Ceph 16.2.15 build-id 00, x86-64: traceable'
EVIL=$W/$'x\n'"$FORGED"$'\e[2J'
mkdir -p "$EVIL"
cp "$(command -v sleep)" "$EVIL/ceph-osd"
# A short directory for the socket: sun_path holds 108 bytes.  No white
# space in its name (/proc/net/unix does not quote it, and asok_find.c reads
# it up to one): terminal escapes that move the cursor home and erase, and
# a C1 CSI byte, are enough to overwrite what a terminal shows.
lib_mktemp S -d
SOCK=$S/$'s\e[2J\e[1;1Hosd.7:traceable\x7f\x9b.asok'

# fake A: "--id 7 593" (GNU sleep adds its arguments up: 600 s)
bash -c 'exec -a --id "$0" 7 593' "$EVIL/ceph-osd" &
FA=$!
# fake B: argv[0] with LF, CR and ESC; it inherits a listening UNIX socket
python3 - "$SOCK" "$EVIL/ceph-osd" "ceph-osd"$'\n'"$FORGED"$'\r\e[2J' <<'EOF' &
import os, socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.bind(sys.argv[1])
s.listen(1)
os.set_inheritable(s.fileno(), True)
os.execv(sys.argv[2], [sys.argv[3], "600"])
EOF
FB=$!
for p in $FA $FB; do
	for _ in $(seq 100); do	# until the exec is done
		[ "$(cat "/proc/$p/comm" 2>/dev/null)" = ceph-osd ] && break
		sleep 0.05
	done
done
check_eq "both fakes run as ceph-osd from the directory" \
	"$(cat /proc/$FA/comm) $(cat /proc/$FB/comm) $(readlink /proc/$FA/exe | grep -c traceable)" \
	"ceph-osd ceph-osd 1"
check "fake B listens on its socket" test -S "$SOCK"

no_raw() {	# FILE...: no ESC, no CR, no byte >= 0x7f
	! LC_ALL=C grep -q $'[\e\r\x7f-\xff]' "$@"
}
no_forged() {	# FILE: no line that is (or starts as) the forged one
	! grep -q -e "^$FORGED" -e $'^\e' "$1"
}

# --- --list
"$OSDHIST" --list >"$W/list" 2>"$W/list.err"
rc=$?
echo "# --list:"; sed 's/^/#   /' "$W/list"
check_eq "--list exits 0" "$rc" 0
check "--list: no ESC, CR or byte >= 0x7f, stdout and stderr" no_raw "$W/list" "$W/list.err"
check "--list: no forged line" no_forged "$W/list"
check_eq "--list: its stderr is empty" "$(wc -c <"$W/list.err")" 0
check_eq "--list: every line is the kernel's or a process's (osd.N pid P ...)" \
	"$(grep -cvE '^(kernel [^ ]+: |osd\.([0-9]+|\?) pid [0-9]+ )' "$W/list")" 0
check_eq "--list: the kernel line comes once" "$(grep -c '^kernel ' "$W/list")" 1
check_eq "--list: one line for fake A, as osd.7, its path escaped" \
	"$(grep -c "^osd\.7 pid $FA Ceph unknown build-id [0-9a-f]*, x86-64: not traceable: .*/x\\\\nosd\.7 pid 1 Ceph 16\.2\.15 build-id 00, x86-64: traceable\\\\x1b\[2J/ceph-osd" "$W/list") $(grep -c " pid $FA " "$W/list")" "1 1"
check_eq "--list: one line for fake B, its socket escaped" \
	"$(grep -cF " pid $FB " "$W/list") $(grep -cF "admin socket $S/s\\x1b[2J\\x1b[1;1Hosd.7:traceable\\x7f\\x9b.asok (listening)" "$W/list")" "1 1"
check_eq "--list: the real OSD's line is right" \
	"$(grep -cE "^osd\.$ID pid $PID Ceph 16\.2\.15 build-id [0-9a-f]{40}, x86-64: traceable" "$W/list")" 1

# --- --inspect of the fake's path
"$OSDHIST" --inspect "$EVIL/ceph-osd" >"$W/insp" 2>"$W/insp.err"
rc=$?
echo "# --inspect: $(cat "$W/insp")"
echo "# ... stderr: $(cat "$W/insp.err")"
check_eq "--inspect of the fake: exit 1, one line on stdout, one on stderr" \
	"$rc $(wc -l <"$W/insp") $(wc -l <"$W/insp.err")" "1 1 1"
check "--inspect: the path escaped on both" \
	bash -c "grep -qF 'x\\nosd.7 pid 1 Ceph 16.2.15 build-id 00, x86-64: traceable\\x1b[2J/ceph-osd: build-id' '$W/insp' &&
		grep -qF 'x\\nosd.7 pid 1 Ceph 16.2.15 build-id 00, x86-64: traceable\\x1b[2J/ceph-osd' '$W/insp.err'"
check "--inspect: no ESC, CR or byte >= 0x7f" no_raw "$W/insp" "$W/insp.err"

# --- a trace beside the fakes: JSON, then text
W0=$(perf_counter "$ID" osd op_w)
oh_start 1
if ! oh_wait_attached; then
	cat "$TERR" >&2
	fail "osdhist did not attach"
	finish
fi
wait_verified "the real OSD is verified beside the fakes" "$ID"
rados -p "$POOL" bench 3 write -b 4096 -t 4 --no-cleanup >"$W/bench" 2>&1
n=$(oh_snap)
W1=$(perf_counter "$ID" osd op_w)
kill -INT "$TPID"
wait "$TPID"
check_eq "JSON: every line parses with jq" "$(jq -c . "$TOUT" 2>/dev/null | wc -l)" "$(wc -l <"$TOUT")"
check "JSON: no ESC, CR or byte >= 0x7f" no_raw "$TOUT"
check_eq "JSON: every line is an object of a known type" \
	"$(jq -r 'select(.type | IN("hist","optype","opcode","slowop","verify","health") | not) | .type' "$TOUT" | wc -l)" 0
check_eq "JSON: write count of osd.$ID = op_w delta" "$(oh_count 0 "$n" "$ID" write)" "$((W1 - W0))"
check "the bench wrote" [ "$((W1 - W0))" -ge 10 ]
check_eq "JSON: no verify line for the fakes (untraced: never asked)" \
	"$(jq -c --argjson a "$FA" --argjson b "$FB" 'select(.type == "verify" and (.pid == $a or .pid == $b))' "$TOUT" | wc -l)" 0
sed 's/^/#   /' "$TERR" | cat -v
check "trace stderr: no ESC, CR or byte >= 0x7f" no_raw "$TERR"
check "trace stderr: no forged line" no_forged "$TERR"
check "trace stderr: the fake's refusal is said, its path escaped" \
	grep -qF 'x\nosd.7' "$TERR"

"$OSDHIST" -p "$PID" 1 2 >"$W/text" 2>"$W/text.err" &
T=$!
sleep 1.5
rados -p "$POOL" bench 1 write -b 4096 -t 2 --no-cleanup >/dev/null 2>&1
wait $T
check_eq "text: osdhist exits 0" "$?" 0
check "text: no ESC, CR or byte >= 0x7f" no_raw "$W/text"
check "text: no forged line" no_forged "$W/text"
check_eq "text: two health lines, as asked" "$(grep -cE '^(!! )?health: ' "$W/text")" 2

# --- the fakes were not harmed, and go
check "the fakes still run" kill -0 $FA $FB
kill $FA $FB
wait $FA $FB 2>/dev/null
finish
