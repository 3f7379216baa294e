#!/bin/bash
# The command line: every kind of bad input or unusable environment gets one
# line on stderr naming the cause and a non-zero exit (2 for bad usage, 1 for
# everything else), never a crash; --help covers every option README lists;
# started before any OSD of ours, osdhist waits, then attaches when the OSD
# starts and counts from its first op.
. "$(dirname "$0")/../lib.sh"

OSDHIST=${OSDHIST:-$LIB_ROOT/osdhist}
# the test build: OSDHIST_TEST_NO_FEATURES takes kernel features away
TESTHOOKS=${TESTHOOKS:-$LIB_ROOT/build/osdhist-testhooks}
lib_mktemp WORK -d
[ -x "$TESTHOOKS" ] || { fail "no $TESTHOOKS: run 'make build/osdhist-testhooks'"; finish; }

# expect_error NAME RC PATTERN CMD...: CMD exits with RC (a crash would be
# >= 128, a hang 124), prints nothing on stdout and exactly one line on
# stderr, which matches the extended regex PATTERN (case-insensitive).
expect_error() {
	local name=$1 want=$2 pat=$3 rc lines; shift 3
	timeout -k 5 30 "$@" >"$WORK/out" 2>"$WORK/err"
	rc=$?
	lines=$(wc -l <"$WORK/err")
	echo "# $name: rc $rc, stderr: $(head -c 300 "$WORK/err")"
	check_eq "$name: exit code" "$rc" "$want"
	check_eq "$name: exactly one line on stderr" "$lines" 1
	check "$name: the line names the cause (/$pat/)" grep -qiE -- "$pat" "$WORK/err"
	check "$name: nothing on stdout" test ! -s "$WORK/out"
}

# --- bad usage: exit 2
expect_error "unknown option" 2 "'--no-such-option'" "$OSDHIST" --no-such-option
expect_error "non-numeric interval" 2 "interval.*'abc'" "$OSDHIST" abc
expect_error "zero interval" 2 "interval.*'0'" "$OSDHIST" 0
# argp takes "-5" for an option; after "--" it reaches the COUNT parser.
expect_error "negative count" 2 "count '-5'|option '-5'" "$OSDHIST" 1 -5
expect_error "negative count after --" 2 "count.*'-5'" "$OSDHIST" -- 1 -5
expect_error "--slowest past 64" 2 "slowest.*'65'.*0 to 64" "$OSDHIST" --slowest 65

# --- -p of a pid that does not exist: a child that has exited and been reaped
true & gone=$!
wait $gone
[ ! -e "/proc/$gone" ] || fail "pid $gone was reused at once"
expect_error "-p of a missing pid" 1 "$gone.*pgrep -x ceph-osd" "$OSDHIST" -p "$gone" 1 1

# --- -p of a process that is not ceph-osd
sleep 60 & SLEEP_PID=$!
expect_error "-p of a non-ceph-osd process" 1 "$SLEEP_PID.*ceph-osd.*pgrep -x ceph-osd" \
	"$OSDHIST" -p "$SLEEP_PID" 1 1
kill $SLEEP_PID; wait $SLEEP_PID 2>/dev/null

# --- -p of a process named ceph-osd whose binary has none of the probed symbols
mkdir "$WORK/x"
cp /bin/sleep "$WORK/x/ceph-osd"
"$WORK/x/ceph-osd" 60 & FAKE_PID=$!
for _ in $(seq 50); do	# until the exec is done
	[ "$(cat /proc/$FAKE_PID/comm 2>/dev/null)" = ceph-osd ] && break
	sleep 0.05
done
bid=$(readelf -n "$WORK/x/ceph-osd" | awk '/Build ID:/ {print $3}')
check "the fake ceph-osd has a build-id ($bid)" test -n "$bid"
expect_error "-p of a ceph-osd without the symbols" 1 \
	"(enqueue_op|log_op_stats|unregister_inflight_op).*" "$OSDHIST" -p "$FAKE_PID" 1 1
check "... and the line names the binary's build-id" grep -qF -- "$bid" "$WORK/err"
kill $FAKE_PID; wait $FAKE_PID 2>/dev/null

# --- missing privileges: root without the capabilities BPF and uprobes need
DROP=cap_bpf,cap_perfmon,cap_sys_admin,cap_sys_ptrace
# shellcheck disable=SC2016  # awk's $2, in the inner shell
capeff=$(capsh --drop=$DROP -- -c 'awk "/^CapEff:/ {print \$2}" /proc/self/status')
# bits: CAP_SYS_ADMIN 21, CAP_PERFMON 38, CAP_BPF 39
check "capsh really drops CAP_SYS_ADMIN, CAP_PERFMON, CAP_BPF (CapEff $capeff)" \
	test -n "$capeff" -a $((0x${capeff:-0} & (1 << 21 | 1 << 38 | 1 << 39))) = 0
check "... so the bpf() syscall is refused" \
	bash -c "capsh --drop=$DROP -- -c 'bpftool prog show' 2>&1 | grep -q 'Operation not permitted'"
# shellcheck disable=SC2016  # $0 is for the inner shell
expect_error "no privileges" 1 "root.*CAP_BPF|CAP_BPF.*root" \
	capsh --drop=$DROP -- -c 'exec "$0" 1 1' "$OSDHIST"

# --- a kernel without uprobes, simulated: the uprobe PMU hidden in a private
# mount namespace (unshare makes mounts private: nothing leaks out)
# shellcheck disable=SC2016
expect_error "no uprobes in the kernel" 1 "uprobe" \
	unshare -m sh -c 'mount -t tmpfs none /sys/bus/event_source/devices && exec "$0" 1 1' "$OSDHIST"
check "the real uprobe PMU is still visible outside" test -e /sys/bus/event_source/devices/uprobe/type

# --- a kernel that lacks what osdhist cannot do without, simulated by the
# test build's feature probes answering "no": one line naming the feature
# (never a release), said before anything is loaded, so even -v adds no
# libbpf or verifier output; exit 1.  In a pid namespace of its own: if it
# did not refuse, it would trace no one.
for f in uprobes:'uprobe events.*uprobes' btf:'kernel BTF.*btf' bpf_cookie:'BPF cookies.*bpf_cookie'; do
	name=${f%%:*}
	expect_error "kernel without $name (feature probe)" 1 "lacks ${f#*:}" \
		env OSDHIST_TEST_NO_FEATURES="$name" unshare -pf --mount-proc "$TESTHOOKS" -v 1 1
	check "kernel without $name: no libbpf or verifier output, no release named" \
		bash -c "! grep -qiE 'libbpf|verifier|linux [0-9]' '$WORK/err'"
done
# ... and nothing of bpf/ was loaded: the refusal comes before the
# skeleton.  The probes' own tiny programs are loaded (and closed), no map
# and none of bpf/'s programs.
OSDHIST_TEST_NO_FEATURES=bpf_cookie strace -f -qq -e trace=bpf -o "$WORK/strace" \
	unshare -pf --mount-proc "$TESTHOOKS" -v 1 1 2>/dev/null
check "kernel without bpf_cookie: the feature probes ran ($(grep -c BPF_PROG_LOAD "$WORK/strace") program loads)" \
	grep -q 'BPF_PROG_LOAD' "$WORK/strace"
check "kernel without bpf_cookie: no map created, none of bpf/'s programs loaded" \
	bash -c "! grep -qE 'BPF_MAP_CREATE|prog_name=\"(op_|subop_)' '$WORK/strace'"
OSDHIST_TEST_NO_FEATURES=bpf_cookie timeout -k 5 30 unshare -pf --mount-proc "$OSDHIST" 0.2 1 \
	>"$WORK/out" 2>"$WORK/err"
rc=$?
check_eq "the normal build ignores OSDHIST_TEST_NO_FEATURES: exits 0 ($(head -c 200 "$WORK/err"))" "$rc" 0
OSDHIST_TEST_NO_FEATURES=nosuch timeout -k 5 30 unshare -pf --mount-proc "$TESTHOOKS" 0.2 1 \
	>/dev/null 2>"$WORK/err"
check_eq "an unknown feature name: still exits 0" "$?" 0
check "an unknown feature name is said, not taken for a missing feature" \
	grep -q "no kernel feature named 'nosuch'" "$WORK/err"

# --- --help: exit 0, every option README's usage examples use, and every
# option --help has in the man page (README keeps examples, the man page
# the options)
"$OSDHIST" --help >"$WORK/help" 2>"$WORK/err"
check_eq "--help exits 0" "$?" 0
check "--help prints nothing on stderr" test ! -s "$WORK/err"
# the fenced block after "## Usage", the osdhist command lines
awk '/^## Usage/ {u = 1; next} u && /^```/ {if (f++) exit; next} f' "$LIB_ROOT/README.md" \
	| sed 's/#.*//' | grep -E '(^| )osdhist ' >"$WORK/usage"
check "README's usage block has examples ($(wc -l <"$WORK/usage"))" \
	test "$(wc -l <"$WORK/usage")" -ge 5
missing=""
for opt in $(grep -oE -- '(^| )(-[a-zA-Z]|--[a-z][a-z-]*)' "$WORK/usage" | tr -d ' ' | sort -u); do
	grep -qE -- "(^|[ ,])$opt([ ,=]|$)" "$WORK/help" || missing+=" $opt"
done
check_eq "--help has every option of README's usage examples" "${missing:-none missing}" "none missing"
missing=""
for opt in $(grep -oE -- '^ +(-[a-zA-Z], )?--[a-z][a-z-]*' "$WORK/help" | grep -oE -- '--[a-z][a-z-]*' | sort -u); do
	grep -qF -- "$(sed 's/-/\\-/g' <<<"$opt")" "$LIB_ROOT/dist/osdhist.8" || missing+=" $opt"
done
check_eq "the man page has every option of --help" "${missing:-none missing}" "none missing"

# --- no ceph-osd in sight (a private pid namespace with its own /proc): it
# says once that it waits, and prints its snapshots all the same
timeout -k 5 30 unshare -pf --mount-proc "$OSDHIST" 0.2 2 >"$WORK/out" 2>"$WORK/err"
check_eq "no OSD at all: exits 0 after COUNT snapshots" "$?" 0
check_eq "no OSD at all: one line on stderr" "$(wc -l <"$WORK/err")" 1
check "no OSD at all: it says it is waiting ($(cat "$WORK/err"))" grep -q "waiting" "$WORK/err"
check_eq "no OSD at all: 2 snapshots" "$(grep -cE '^(!! )?health:' "$WORK/out")" 2

# --- started before the OSD: waits, attaches when it starts, counts exactly.
# Other clusters on this host run their own ceph-osd (with an osd.0 too): our
# OSD gets an id of its own and osdhist shows only that one (--osd); it runs
# a copy of ceph-osd, so osdhist attaches to that file when our OSD starts,
# even if it already traces the others.
ID=$(random_first_id) || { fail "no free OSD id"; finish; }
mkdir "$WORK/bin"
cp "$(command -v ceph-osd)" "$WORK/bin/ceph-osd"
foreign=$(pgrep -x ceph-osd | wc -l)
"$OSDHIST" --json --osd "$ID" 3600 >"$WORK/tout" 2>"$WORK/terr" &
TPID=$!
for _ in $(seq 600); do	# its first scan said something: waiting, or attached
	[ -s "$WORK/terr" ] && break
	sleep 0.1
done
foreign=$((foreign + $(pgrep -x ceph-osd | wc -l)))
echo "# before our cluster: $(cat "$WORK/terr")"
if [ "$foreign" = 0 ]; then
	check "no OSD running: osdhist says it is waiting" grep -q "waiting" "$WORK/terr"
else
	echo "# foreign ceph-osd processes running: osdhist does not wait, not checked"
fi
# health lines in the output so far
nhealth() { grep -c '"type":"health"' "$WORK/tout"; }
snapshot_now() {	# SIGUSR1, then wait for its health line
	local n; n=$(nhealth)
	kill -USR1 $TPID
	for _ in $(seq 600); do	# 60 s, as oh_snap
		[ "$(nhealth)" -gt "$n" ] && return 0
		sleep 0.1
	done
	fail "no snapshot after SIGUSR1"
}
snapshot_now
check_eq "before our cluster: nothing for osd.$ID" \
	"$(grep -c '"type":"hist"' "$WORK/tout")" 0

check "before our cluster: not attached to our binary" \
	test -z "$(grep -F "$WORK/bin/ceph-osd" "$WORK/terr")"
cluster_up --osds 1 --first-id "$ID" --osd-bin "$WORK/bin/ceph-osd" || { fail "cluster start"; finish; }
wait_line "$WORK/terr" "attached to ceph-osd $WORK/bin/ceph-osd" $TPID
check "osdhist attached to our ceph-osd" grep -qF "attached to ceph-osd $WORK/bin/ceph-osd" "$WORK/terr"
check "osdhist is still running" kill -0 $TPID

# A small mixed workload: writes, reads, an rw op (lock get), an error.
echo hello >"$WORK/obj"
for i in 1 2 3; do rados -p "$POOL" put "obj$i" "$WORK/obj"; done
rados -p "$POOL" stat obj1 >/dev/null
rados -p "$POOL" get obj2 "$WORK/got"
rados -p "$POOL" lock get obj3 mylock
rados -p "$POOL" bench 2 write -b 4096 -t 4 --no-cleanup >/dev/null
rados -p "$POOL" bench 2 seq -t 4 >/dev/null
rados -p "$POOL" stat missing 2>/dev/null
after=$(perf_dump "$ID")
kill -INT $TPID
wait $TPID
check_eq "osdhist exits 0 on SIGINT" "$?" 0
echo "# stderr: $(cat "$WORK/terr")"

# The OSD started after osdhist: its perf counters since start are all ours.
oh_count() { jq -s "[.[] | select(.type==\"hist\" and .osd==$ID and .class==\"$1\" and .phase==\"total\") | .count] | add // 0" "$WORK/tout"; }
for c in r w rw; do
	case $c in r) cls="read" ;; w) cls="write" ;; rw) cls=rw ;; esac
	want=$(jq ".osd.op_$c" <<<"$after")
	check_eq "osd.$ID: osdhist $cls = op_$c since the OSD started ($want)" "$(oh_count "$cls")" "$want"
done
check "the workload was counted (op_w $(jq .osd.op_w <<<"$after") > 3, op_r, op_rw >= 1)" \
	jq -e '.osd.op_w > 3 and .osd.op_r > 1 and .osd.op_rw >= 1' <<<"$after"
check_eq "only osd.$ID is shown (--osd)" \
	"$(jq -s "[.[] | select(.type==\"hist\" and .osd!=$ID)] | length" "$WORK/tout")" 0

# --- -p of an OSD that becomes unreadable while traced (EACCES at the
# second rescan, test build): exit 1 and one line naming the pid and the
# cause (issue 24: it came back as a bare -errno, and osdhist exited 1
# printing nothing)
OSDHIST_TEST_PID_ERRNO=EACCES:2 timeout 30 "$TESTHOOKS" -p "$(osd_pid "$ID")" 3600 \
	>"$WORK/aout" 2>"$WORK/aerr"
rc=$?
grep -v "attached to ceph-osd" "$WORK/aerr" >"$WORK/aerr2"
echo "# -p, EACCES: rc $rc, stderr: $(cat "$WORK/aerr2")"
check_eq "-p, unreadable while traced: exit 1" "$rc" 1
check_eq "-p, unreadable while traced: one line on stderr besides the attach" \
	"$(wc -l <"$WORK/aerr2")" 1
check "-p, unreadable while traced: it names the pid and the cause" \
	grep -q "^osdhist: cannot inspect pid $(osd_pid "$ID") (-p) any more: Permission denied$" "$WORK/aerr2"

# --- -p of an OSD caught in an exec or an exit at every rescan from the
# second (EAGAIN, test build: its command line empty, issue 26): osdhist
# keeps what it had, goes on tracing it and exits 0 at its count
pid=$(osd_pid "$ID")
OSDHIST_TEST_PID_ERRNO=EAGAIN:2 timeout 60 "$TESTHOOKS" --json -p "$pid" 1 6 \
	>"$WORK/gout" 2>"$WORK/gerr" &
gpid=$!
wait_line "$WORK/gerr" "attached to ceph-osd" "$gpid"
w0=$(perf_counter "$ID" osd op_w)
/usr/bin/python3 "$(dirname "$0")/rados_load.py" writes eagain 20 >/dev/null
w1=$(perf_counter "$ID" osd op_w)
wait "$gpid"
rc=$?
echo "# -p, EAGAIN: rc $rc, stderr: $(grep -v "attached to ceph-osd" "$WORK/gerr")"
check_eq "-p, caught in an exec at every rescan: exit 0 at its count" "$rc" 0
check_eq "-p, caught in an exec at every rescan: nothing on stderr besides the attach" \
	"$(grep -vc "attached to ceph-osd" "$WORK/gerr")" 0
check_eq "-p, caught in an exec at every rescan: 6 health lines, each with osds 1" \
	"$(jq -s '[.[] | select(.type == "health" and .osds == 1)] | length' "$WORK/gout")" 6
check_eq "-p, caught in an exec at every rescan: its writes still counted as osd.$ID's (op_w delta $((w1 - w0)))" \
	"$(jq -s --argjson o "$ID" '[.[] | select(.type == "hist" and .osd == $o and .phase == "total" and .class == "write") | .count] | add // 0' "$WORK/gout")" \
	"$((w1 - w0))"

# --- -p of an OSD this user may not inspect (not root: /proc/PID/exe of
# another user's process cannot be followed): EACCES at the start-up check,
# one line naming the pid, the cause and the fix (issue 24)
expect_error "-p as a user who may not inspect the OSD" 1 \
	"pid $(osd_pid "$ID") \\(-p\\): permission denied; run osdhist as root" \
	setpriv --reuid=nobody --regid=nogroup --clear-groups "$OSDHIST" -p "$(osd_pid "$ID")" 1 1

# --- a crimson-osd (a renamed copy of sleep): an OSD osdhist does not
# support, named so in one line, in --list and in the untraced count, not
# refused as a ceph-osd without symbols.  In a pid namespace of its own,
# with no other OSD in sight.
mkdir "$WORK/crimson"
cp /bin/sleep "$WORK/crimson/crimson-osd"
# shellcheck disable=SC2016
timeout -k 5 30 unshare -pf --mount-proc sh -c '"$1" 30 & sleep 0.2; exec "$0" --list' \
	"$OSDHIST" "$WORK/crimson/crimson-osd" >"$WORK/out" 2>"$WORK/err"
check_eq "crimson-osd: --list exits 0" "$?" 0
check_eq "crimson-osd: --list has one line for it ($(grep -v '^kernel:' "$WORK/out"))" \
	"$(grep -c 'crimson-osd' "$WORK/out")" 1
check "crimson-osd: ... saying it is not supported" \
	grep -qE "^osd\.\? pid [0-9]+: not traceable: .*crimson-osd is crimson-osd, which osdhist does not support" "$WORK/out"
# shellcheck disable=SC2016
timeout -k 5 30 unshare -pf --mount-proc sh -c '"$1" 30 & sleep 0.2; exec "$0" -q --textfile "$2" 0.3 2' \
	"$OSDHIST" "$WORK/crimson/crimson-osd" "$WORK/crimson.prom" >"$WORK/out" 2>"$WORK/err"
check_eq "crimson-osd: osdhist runs on, exits 0" "$?" 0
echo "# crimson-osd: stderr: $(cat "$WORK/err")"
check_eq "crimson-osd: said once, in one line" "$(grep -c 'crimson-osd' "$WORK/err")" 1
check "crimson-osd: the line says it is not supported" \
	grep -q "cannot trace pid [0-9]*: .*crimson-osd is crimson-osd, which osdhist does not support" "$WORK/err"
check "crimson-osd: counted as an untraced process" \
	grep -qx "osdhist_untraced_processes 1" "$WORK/crimson.prom"

# --- ceph-osd-classic, as Ceph's main branch installs the OSD (comm cut to
# "ceph-osd-classi"): found by its binary's name and traced exactly
mkdir "$WORK/classic"
cp "$(command -v ceph-osd)" "$WORK/classic/ceph-osd-classic"
CLS_ID=$(random_first_id) || { fail "no free OSD id"; finish; }
cluster_up --osds 1 --first-id "$CLS_ID" --osd-bin "$WORK/classic/ceph-osd-classic" ||
	{ fail "cluster start (ceph-osd-classic)"; finish; }
CPID=$(osd_pid "$CLS_ID")
check_eq "ceph-osd-classic: its comm is cut to 15 characters" "$(cat /proc/"$CPID"/comm)" ceph-osd-classi
"$OSDHIST" --list >"$WORK/out" 2>&1
check "ceph-osd-classic: --list shows osd.$CLS_ID as traceable" \
	grep -qE "^osd\.$CLS_ID pid $CPID Ceph .*: traceable" "$WORK/out"
r0=$(perf_counter "$CLS_ID" osd op_r) w0=$(perf_counter "$CLS_ID" osd op_w)
"$OSDHIST" --json -p "$CPID" 3600 >"$WORK/cout" 2>"$WORK/cerr" &
CLPID=$!
wait_line "$WORK/cerr" "attached to ceph-osd" $CLPID
check "ceph-osd-classic: attached in ${WAITED} s ($(head -c 200 "$WORK/cerr"))" \
	grep -qF "attached to ceph-osd $WORK/classic/ceph-osd-classic" "$WORK/cerr"
rados -p "$POOL" bench 1 write -b 4096 -t 4 --no-cleanup >/dev/null
rados -p "$POOL" bench 1 seq -t 4 >/dev/null
sleep 0.5
r1=$(perf_counter "$CLS_ID" osd op_r) w1=$(perf_counter "$CLS_ID" osd op_w)
kill -INT $CLPID
wait $CLPID
check_eq "ceph-osd-classic: exits 0 on SIGINT" "$?" 0
cc() { jq -s "[.[] | select(.type==\"hist\" and .osd==$CLS_ID and .class==\"$1\" and .phase==\"total\") | .count] | add // 0" "$WORK/cout"; }
check_eq "ceph-osd-classic: read = op_r delta ($((r1 - r0)))" "$(cc read)" $((r1 - r0))
check_eq "ceph-osd-classic: write = op_w delta ($((w1 - w0)))" "$(cc write)" $((w1 - w0))
check "ceph-osd-classic: some ops" test $((r1 - r0)) -gt 10 -a $((w1 - w0)) -gt 10
cluster_down
cluster_use "${_LIB_CLUSTERS[0]}"

# --- the kernel release says nothing (RHEL 9's 5.14 carries BPF of 6.x):
# OSDHIST_TEST_KERNEL, once the test build's fake `uname -r`, now changes
# nothing: with a RHEL 9.6 and an Ubuntu 22.04 release osdhist loads the
# variant the probes chose (this kernel's: tai, bpf_loop, multi), attaches
# and counts exactly.  Then the perf-event fallback, forced by the probe.
OPID=$(osd_pid "$ID")
for k in 5.14.0-570.12.1.el9_6.x86_64:: 5.15.0-91-generic:: 5.15.0-91-generic:uprobe_multi:perf; do
	IFS=: read -r kv nof want <<<"$k"
	want=${want:-multi}
	other=$([ "$want" = multi ] && echo perf || echo multi)
	label="OSDHIST_TEST_KERNEL=$kv${nof:+, no $nof}"
	r0=$(perf_counter "$ID" osd op_r) w0=$(perf_counter "$ID" osd op_w)
	OSDHIST_TEST_KERNEL=$kv OSDHIST_TEST_NO_FEATURES=$nof "$TESTHOOKS" --json -p "$OPID" 3600 \
		>"$WORK/kout" 2>"$WORK/kerr" &
	KPID=$!
	wait_line "$WORK/kerr" "attached to ceph-osd" $KPID
	check "$label: attached to osd.$ID in ${WAITED} s ($(head -c 200 "$WORK/kerr"))" \
		grep -q "attached to ceph-osd" "$WORK/kerr"
	"$LIB_ROOT/scripts/uprobes.sh" $KPID >"$WORK/kprobes"
	check "$label: its uprobes are $want, none $other ($(cut -d' ' -f1 "$WORK/kprobes" | sort | uniq -c | xargs))" \
		bash -c "grep -q '^$want ' '$WORK/kprobes' && ! grep -q '^$other ' '$WORK/kprobes'"
	rados -p "$POOL" bench 1 write -b 4096 -t 4 --no-cleanup >/dev/null
	rados -p "$POOL" bench 1 seq -t 4 >/dev/null
	sleep 0.5
	r1=$(perf_counter "$ID" osd op_r) w1=$(perf_counter "$ID" osd op_w)
	kill -INT $KPID
	wait $KPID
	check_eq "$label: exits 0 on SIGINT" "$?" 0
	kc() { jq -s "[.[] | select(.type==\"hist\" and .class==\"$1\" and .phase==\"total\") | .count] | add // 0" "$WORK/kout"; }
	check_eq "$label: read = op_r delta ($((r1 - r0)))" "$(kc read)" $((r1 - r0))
	check_eq "$label: write = op_w delta ($((w1 - w0)))" "$(kc write)" $((w1 - w0))
	check_eq "$label: health names the variant (tai, bpf_loop, $want)" \
		"$(jq -sr '[.[] | select(.type=="health")] | last | "\(.clock) \(.scan) \(.uprobes)"' "$WORK/kout")" \
		"tai bpf_loop $want"
done
for kv in 5.14.0-570.12.1.el9_6.x86_64 5.15.0-91-generic; do
	OSDHIST_TEST_KERNEL=$kv "$TESTHOOKS" --list >"$WORK/out" 2>&1
	check_eq "OSDHIST_TEST_KERNEL=$kv: --list shows the release, and the variant the probes chose" \
		"$(head -1 "$WORK/out" | cut -d';' -f1)" "kernel $kv: clock tai, op scan bpf_loop, uprobes multi"
done
check "only --list's report reads the kernel release, no decision does" \
	bash -c "! grep -lE 'uname\\(|utsname|kernel_at_least|testhook_kernel_release' '$LIB_ROOT'/loader/*.c '$LIB_ROOT'/loader/ceph/*.c | grep -vE '/(list|testhooks)\.c$'"
finish
