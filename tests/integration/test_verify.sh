#!/bin/bash
# Issue 13: the built-in oracle.  osdhist compares its per-OSD read/write/rw/
# subop counts with each OSD's op_r/op_w/op_rw/subop_w over the admin socket.
#  A. a mixed workload and rados bench at saturation on 2 OSDs (size 2):
#     every check says verified, never outside the bound, gauges agree
#     (with OSDHIST_TEST_OFFSETS set: the normal build must ignore it);
#  B. the test-hook build with a wrong op_rmw offset: mismatch within two
#     checks after the baseline, the class named, the gauge 1;
#  C. a missing socket and one it may not open: unverified, with the reason;
#  D. fake servers that hang or answer garbage: one bounded wait, reported,
#     snapshots on time;
#  F. an OSD chrooted in a mount namespace of its own, its socket only there;
#  E. loader CPU at a 1 s interval with verification on, over 60 s.
# packages: ceph-osd ceph-mon ceph-common python3 python3-rados jq curl libcap2-bin
. "$(dirname "$0")/../lib.sh"

OSDHIST=${OSDHIST:-$LIB_ROOT/osdhist}
TESTHOOKS=${TESTHOOKS:-$LIB_ROOT/build/osdhist-testhooks}
LOAD="/usr/bin/python3 $(dirname "$0")/rados_load.py"
[ -x "$TESTHOOKS" ] || { fail "no $TESTHOOKS: run 'make build/osdhist-testhooks'"; finish; }

FIRST=$(random_first_id 2) || { fail "no free OSD ids"; finish; }
cluster_up --osds 2 --first-id "$FIRST" || { fail "cluster start"; finish; }
read -r A B <<<"$OSD_IDS"
PA=$(osd_pid "$A")
W=$CLUSTER_DIR/verify
mkdir -p "$W"

# start_tracer NAME BIN ARGS...: BIN --json ARGS in the background, out/err
# in $W/NAME.{out,err}; waits for the attach and the metrics port (if any).
start_tracer() {
	local name=$1 bin=$2; shift 2
	OUT=$W/$name.out ERR=$W/$name.err
	"$bin" --json "$@" >"$OUT" 2>"$ERR" &
	TPID=$!
	for _ in $(seq 100); do
		grep -q "attached to ceph-osd" "$ERR" && break
		sleep 0.1
	done
	PORT=$(sed -n 's|^osdhist: serving metrics on http://127\.0\.0\.1:\([0-9]*\)/metrics$|\1|p' "$ERR")
	grep -q "attached to ceph-osd" "$ERR" || { cat "$ERR" >&2; fail "$name: osdhist did not attach"; finish; }
}
stop_tracer() { kill -INT "$TPID"; wait "$TPID"; TRC=$?; }
# verify lines of one OSD: vlines FILE OSD
vlines() { jq -c --argjson o "$2" 'select(.type == "verify" and .osd == $o)' "$1"; }

# --- A. correct offsets under load: verified at every check
$LOAD put 64 >/dev/null || fail "put canaries"
OSDHIST_TEST_OFFSETS=op_rmw+8 start_tracer a "$OSDHIST" --prometheus 127.0.0.1:0 1
check "A: the normal build ignores OSDHIST_TEST_OFFSETS" bash -c "! grep -q 'TEST HOOK' '$ERR'"
rados -p "$POOL" bench 8 write -b 4096 -t 32 --no-cleanup >/dev/null &
BENCH=$!
$LOAD canary 64 --secs 8 >/dev/null &
CANARY=$!
$LOAD flood 4 4 >/dev/null &
FLOOD=$!
for i in $(seq 20); do	# rw and other mixed ops from the CLI
	rados -p "$POOL" setomapval "m$i" k v
	rados -p "$POOL" getomapval "m$i" k >/dev/null
	rados -p "$POOL" lock get "m$i" "l$i"
	rados -p "$POOL" stat "missing$i" 2>/dev/null
	sleep 0.2
done
sleep 1
curl -sf "http://127.0.0.1:$PORT/metrics" >"$W/a.metrics"
wait $BENCH $CANARY $FLOOD
rados -p "$POOL" bench 5 seq -t 32 >/dev/null
sleep 2
stop_tracer
check_eq "A: osdhist exits 0 on SIGINT" "$TRC" 0
for id in $A $B; do
	v=$(vlines "$OUT" "$id")
	n=$(grep -c '"state":"verified"' <<<"$v")
	check "A: osd.$id verified at $n checks (>= 12)" [ "$n" -ge 12 ]
	bad=$(jq -c 'select(.state != "verified" and (.reason | test("^(baseline|waiting)") | not))' <<<"$v")
	check_eq "A: osd.$id: no check other than the baseline is not verified" "$bad" ""
	# once verified, verified to the end
	check "A: osd.$id: the unverified lines are only the first ones" \
		[ "$(jq -r .state <<<"$v" | uniq | tr '\n' ' ')" = "unverified verified " ]
	ex=$(jq -s '[.[].classes[] | .excess | fabs] | max // 0' <<<"$v")
	check_eq "A: osd.$id: never outside the bound" "$ex" 0
	# the bound in use: how far Ceph's range and ours were apart at worst
	gap=$(jq -s '[.[].classes[] | [(.osdhist - .ceph_max), (.ceph_min - .osdhist)] | max] | max // 0' <<<"$v")
	echo "#   osd.$id: worst distance of osdhist's count from Ceph's range: $gap ops (slack 16)"
	last=$(tail -1 <<<"$v")
	echo "#   osd.$id last check: $(jq -c '.classes | map_values([.osdhist, .ceph_min, .ceph_max])' <<<"$last")"
done
tot() { for id in $A $B; do vlines "$OUT" "$id" | tail -1; done | jq -s "[.[].classes.$1.osdhist] | add"; }
check "A: every class was exercised (read $(tot read), write $(tot write), rw $(tot rw), subop $(tot subop))" \
	[ "$(tot read)" -gt 1000 -a "$(tot write)" -gt 1000 -a "$(tot rw)" -ge 10 -a "$(tot subop)" -gt 1000 ]
check "A: gauge osdhist_verify_state verified = 1 for osd.$A" \
	grep -qx "osdhist_verify_state{ceph_daemon=\"osd.$A\",state=\"verified\"} 1" "$W/a.metrics"
g=$(grep -E "^osdhist_verify_mismatch\{ceph_daemon=\"osd\.($A|$B)\"" "$W/a.metrics")
check "A: 8 osdhist_verify_mismatch gauges for our OSDs, all 0" \
	[ "$(grep -c ' 0$' <<<"$g")" = 8 -a "$(wc -l <<<"$g")" = 8 ]

# --- B. a wrong offset: mismatch within two checks after the baseline
# rand, not seq: seq stops when it has read every object once
rados -p "$POOL" bench 6 rand -t 16 >/dev/null &
BENCH=$!
sleep 0.5
OSDHIST_TEST_OFFSETS=op_rmw+8 start_tracer b "$TESTHOOKS" -p "$PA" --prometheus 127.0.0.1:0 1
check "B: the test build says it moved op_rmw" grep -q "TEST HOOK: offset op_rmw moved" "$ERR"
for _ in $(seq 50); do
	vlines "$OUT" "$A" | grep -q '"state":"mismatch"' && break
	sleep 0.1
done
curl -sf "http://127.0.0.1:$PORT/metrics" >"$W/b.metrics"
wait $BENCH
stop_tracer
v=$(vlines "$OUT" "$A")
base=$(jq -s 'map(.since > 0) | index(true)' <<<"$v")
mism=$(jq -s 'map(.state == "mismatch") | index(true)' <<<"$v")
ok=false
[ "$base" != null ] && [ "$mism" != null ] && [ "$((mism - base))" -le 2 ] && ok=true
check "B: mismatch at check $mism, baseline at $base: within two checks" $ok
check "B: the mismatch names class read" \
	jq -se 'map(select(.state == "mismatch")) | .[0].classes.read.mismatch' <<<"$v"
check "B: stderr says which class and that the offsets may be wrong" \
	grep -q "VERIFY MISMATCH osd.$A class read: .*offsets osdhist derived may be wrong" "$ERR"
check "B: gauge osdhist_verify_mismatch{osd.$A,read} = 1" \
	grep -qx "osdhist_verify_mismatch{ceph_daemon=\"osd.$A\",class=\"read\"} 1" "$W/b.metrics"
check "B: gauge osdhist_verify_state mismatch = 1" \
	grep -qx "osdhist_verify_state{ceph_daemon=\"osd.$A\",state=\"mismatch\"} 1" "$W/b.metrics"

# --- C. no socket, and one osdhist may not open
ASOK=$(osd_asok "$A")
mv "$ASOK" "$ASOK.away"
"$OSDHIST" --json -p "$PA" 1 3 >"$W/c1.out" 2>"$W/c1.err"
r=$(vlines "$W/c1.out" "$A" | tail -1 | jq -r '.state + ": " + .reason')
check "C: socket gone: $r" grep -q "^unverified: no socket" <<<"$r"
mv "$ASOK.away" "$ASOK"
chmod 000 "$ASOK"
# root passes any file mode; without CAP_DAC_OVERRIDE it is refused, as an
# unprivileged exporter would be
capsh --drop=cap_dac_override,cap_dac_read_search -- -c \
	"exec '$OSDHIST' --json -p $PA 1 3" >"$W/c2.out" 2>"$W/c2.err"
r=$(vlines "$W/c2.out" "$A" | tail -1 | jq -r '.state + ": " + .reason')
check "C: socket mode 000, no CAP_DAC_OVERRIDE: $r" grep -q "^unverified: permission" <<<"$r"
chmod 755 "$ASOK"

# --- D. fake servers in place of the socket: hang, garbage
FAKE=$W/fake.py
cat >"$FAKE" <<'EOF'
import os, socket, sys, time
path, mode, log = sys.argv[1], sys.argv[2], sys.argv[3]
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.bind(path)
s.listen(16)
with open(log, "w") as f:
    print("listening", file=f, flush=True)
    conns = []
    while True:
        c, _ = s.accept()
        conns.append(c)		# kept open: a hang is a hang
        print("conn", file=f, flush=True)
        c.recv(4096)
        if mode == "garbage":
            c.sendall(b"this is not the admin socket protocol\n")
        elif mode == "badjson":
            body = b"{not json"
            c.sendall(len(body).to_bytes(4, "big") + body)
        # mode hang: never answer
EOF
for mode in hang garbage badjson; do
	mv "$ASOK" "$ASOK.away"
	/usr/bin/python3 "$FAKE" "$ASOK" $mode "$W/fake.$mode.log" &
	FPID=$!
	for _ in $(seq 50); do grep -q listening "$W/fake.$mode.log" 2>/dev/null && break; sleep 0.1; done
	t0=$(date +%s.%N)
	"$OSDHIST" --json -p "$PA" 1 6 >"$W/d.$mode.out" 2>"$W/d.$mode.err"
	rc=$? t1=$(date +%s.%N)
	kill $FPID; wait $FPID 2>/dev/null
	rm -f "$ASOK"; mv "$ASOK.away" "$ASOK"
	check_eq "D: $mode: osdhist ran 6 snapshots and exited 0" "$rc:$(grep -c '"type":"health"' "$W/d.$mode.out")" "0:6"
	v=$(vlines "$W/d.$mode.out" "$A")
	want=$([ $mode = hang ] && echo timeout || echo garbage)
	r=$(tail -1 <<<"$v" | jq -r '.state + ": " + .reason')
	check "D: $mode: reported ($r)" grep -q "^unverified: $want" <<<"$r"
	check_eq "D: $mode: one connection in 6 s (backoff after a failure)" \
		"$(grep -c conn "$W/fake.$mode.log")" 1
	# snapshots on time: none more than 1.5 s after the one before
	late=$(jq -s '[.[] | select(.type == "health") | .time] | [range(1; length) as $i | .[$i] - .[$i-1]] | max' "$W/d.$mode.out")
	check "D: $mode: snapshots on time (longest gap ${late}s, run $(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.1f", b-a}')s)" \
		awk -v g="$late" 'BEGIN{exit !(g < 1.5)}'
done
# and the real socket verifies again
"$OSDHIST" --json -p "$PA" 1 3 >"$W/d2.out" 2>"$W/d2.err"
check "D: the real socket back: verified" grep -q '"state":"verified"' <(vlines "$W/d2.out" "$A")

# --- F. an OSD in a chroot (own mount namespace) whose socket exists only
# inside its root: found through /proc/PID/root, verified
lib_mktemp R -d
mkdir -p "$R"/{usr,etc,dev,proc,sys,tmp,var/run/ceph}
for l in bin lib lib64 sbin; do ln -s usr/$l "$R/$l"; done
FID=$(random_first_id) || { fail "no free OSD id"; finish; }
INNER=/var/run/ceph/ceph-osd.$FID.asok
WRAP="unshare -m --propagation private sh -c 'for d in usr etc dev proc sys tmp; do
	mount --rbind /\$d $R/\$d || exit 1; done; exec chroot $R \"\$@\" --admin-socket $INNER' sh"
A_DIR=$CLUSTER_DIR
cluster_up --osds 1 --first-id "$FID" --osd-wrap "$WRAP" || { fail "F: chrooted cluster start"; finish; }
FP=$(osd_pid "$FID")
check "F: osd.$FID runs in a root of its own" [ "$(readlink "/proc/$FP/root")" != / ]
check "F: its socket $INNER is not on the host" [ ! -e "$INNER" ]
rados -p "$POOL" bench 3 write -b 4096 -t 16 --no-cleanup >/dev/null &
BENCH=$!
"$OSDHIST" --json -v -p "$FP" 1 4 >"$W/f.out" 2>"$W/f.err"
wait $BENCH
v=$(vlines "$W/f.out" "$FID")
check_eq "F: the socket used" "$(tail -1 <<<"$v" | jq -r .socket)" "/proc/$FP/root$INNER"
check "F: verified ($(tail -1 <<<"$v" | jq -c '[.state, .classes.write.osdhist, .classes.write.ceph_max]'))" \
	[ "$(tail -1 <<<"$v" | jq -r .state)" = verified ]
cluster_down
cluster_use "$A_DIR"
PA=$(osd_pid "$A")

# --- E. loader CPU with verification on, 1 s interval, 60 s, under load
"$OSDHIST" -p "$PA" 1 >/dev/null 2>"$W/e.err" &
EPID=$!
for _ in $(seq 100); do grep -q "attached to ceph-osd" "$W/e.err" && break; sleep 0.1; done
sleep 2	# past attach and the first snapshot
ticks() { awk '{print $14 + $15}' "/proc/$EPID/stat"; }
c0=$(ticks)
rados -p "$POOL" bench 60 write -b 4096 -t 8 --no-cleanup >/dev/null
c1=$(ticks)
kill -INT $EPID; wait $EPID
hz=$(getconf CLK_TCK)
pct=$(awk -v a="$c0" -v b="$c1" -v hz="$hz" 'BEGIN{printf "%.3f", (b - a) / hz / 60 * 100}')
echo "#   loader CPU with verification on: $((c1 - c0)) ticks in 60 s = $pct % of a core"
check "E: loader CPU $pct % of a core < 0.5 %" awk -v p="$pct" 'BEGIN{exit !(p < 0.5)}'

finish
