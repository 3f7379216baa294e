#!/bin/bash
# Issue 22 (packaging): `make static` builds build/osdhist-static, a
# static-pie binary that needs no file of the system it runs on: copied
# alone into an empty directory and run chrooted there (only /proc, /sys,
# bpffs and tracefs mounted, in a private mount namespace), it answers
# --version, --inspects a copied ceph-osd, and traces a real OSD of the
# host exactly while it serves /metrics; it does the same in the
# trixie and sid release chroots on their own ceph-osd.  `make rpm` packs
# it with the .deb's files at the .deb's paths; rpm installs the package
# into a scratch root (--nodeps: the root has no rpm database of a system),
# where the installed binary runs; rpmlint reports no error.
# libmicrohttpd's build (its configure: 1-3 min here) is kept in
# lib.sh's MHD_CACHE, keyed by its source, options, flags and compiler.
# packages: make gcc libc6-dev dpkg-dev file binutils rpm rpmlint util-linux
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../pkgcheck.sh"

BIN=$LIB_ROOT/build/osdhist-static
version="osdhist $(cd "$LIB_ROOT" && dpkg-parsechangelog -S Version)"
lib_mktemp B -d

make_static "$BIN" "$B/make.log" || finish
check "'file' says static-pie linked ($(file -b "$BIN" | cut -d, -f1-5))" \
	grep -q 'static-pie linked' <<<"$(file -b "$BIN")"
check_no_libs "$BIN"
check "its libmicrohttpd has no HTTPS (no gnutls symbol in the binary)" \
	bash -c "! nm '$BIN' | grep -qi gnutls"

# --- alone in an empty root
E=$B/empty
mkdir -p "$E/proc" "$E/sys"
cp "$BIN" "$E/osdhist"
cp /usr/bin/ceph-osd "$E/ceph-osd"
in_empty() {	# CMD...: chrooted in $E, with /proc, /sys, bpffs and tracefs
	unshare -m --propagation private sh -c '
		r=$1; shift
		mount -t proc proc "$r/proc" && mount -t sysfs sysfs "$r/sys" &&
		mount -t bpf bpf "$r/sys/fs/bpf" && mount -t tracefs tracefs "$r/sys/kernel/tracing" &&
		exec chroot "$r" "$@"' sh "$E" "$@"
}
check_eq "the empty root holds only the binary and ceph-osd" \
	"$(find "$E" -mindepth 1 -maxdepth 1 ! -name proc ! -name sys -printf '%f\n' | sort | tr '\n' ' ')" \
	"ceph-osd osdhist "
out=$(in_empty /osdhist --version 2>&1); rc=$?
check_eq "alone in an empty root: --version: exit 0" "$rc" 0
check_eq "... prints '$version'" "$out" "$version"
out=$(in_empty /osdhist --inspect /ceph-osd 2>&1); rc=$?
ceph_host=$(dpkg-query -W -f '${Version}' ceph-osd | sed 's/[+-].*//')
check_eq "alone in an empty root: --inspect /ceph-osd: exit 0 ($out)" "$rc" 0
check "... Ceph $ceph_host, traceable" grep -q "Ceph $ceph_host, x86-64: traceable" <<<"$out"

# --- alone in the empty root, it traces a real OSD of the host exactly and
# serves /metrics: the OSD's binary is reached through /proc/PID/root, as
# a container's is, and nothing else of the host's files is needed
cluster_up --osds 1 || { fail "cluster start"; finish; }
PID0=$(osd_pid 0)
w0=$(perf_counter 0 osd op_w)
# port 0: the kernel picks a free one, and osdhist says which
in_empty /osdhist --json -p "$PID0" --prometheus 127.0.0.1:0 3600 \
	>"$B/trace.json" 2>"$B/trace.err" &
TRPID=$!
wait_line "$B/trace.err" "attached to ceph-osd" $TRPID
check "alone in an empty root: attached to the host's osd.0 ($(head -c 300 "$B/trace.err"))" \
	grep -q "attached to ceph-osd" "$B/trace.err"
PORT=$(sed -n 's|.*serving metrics on http://127.0.0.1:\([0-9]*\)/metrics.*|\1|p' "$B/trace.err" | head -1)
rados -p "$POOL" bench 2 write -b 4096 -t 8 --no-cleanup >/dev/null
w1=$(perf_counter 0 osd op_w)
# the series appear at the first snapshot: one now (SIGUSR1 to the binary,
# the chroot's process in our pid namespace)
OPID=$(pgrep -f "^/osdhist --json -p $PID0 " | head -1)
kill -USR1 "$OPID"
ok=false
deadline=$((SECONDS + 60))
while [ $SECONDS -lt $deadline ]; do
	curl -sf -m 5 "http://127.0.0.1:$PORT/metrics" >"$B/metrics" 2>/dev/null &&
		grep -q '^osdhist_op_latency_seconds_count{ceph_daemon="osd.0",cluster="[0-9a-f-]*",class="write"' "$B/metrics" &&
		{ ok=true; break; }
	sleep 0.1
done
check "alone in an empty root: /metrics serves osd.0's write latency" $ok
kill -INT "$OPID"; wait "$TRPID"
check_eq "alone in an empty root: exits 0 on SIGINT" $? 0
got=$(jq -s '[.[] | select(.type == "hist" and .osd == 0 and .class == "write" and .phase == "total") | .count] | add // 0' "$B/trace.json")
check_eq "alone in an empty root: osdhist writes = op_w delta ($((w1 - w0)))" "$got" $((w1 - w0))
check "... and there were some" [ $((w1 - w0)) -gt 0 ]
check_eq "... nothing lost" "$(jq -s '[.[] | select(.type == "health")] | last | .losses' "$B/trace.json")" 0
cluster_down

# --- in the release chroots (an overlay view: the chroot is not written)
for rel in reef tentacle; do
	if ! r=$(chroot_dir "$rel"); then
		fail "$rel: no release chroot (scripts/chroots.sh $rel failed, see above)"
		continue
	fi
	ceph=$(chroot_version "$rel" | awk '{print $3}')
	if ! ov_up "$rel" "$r"; then
		fail "$rel: no overlay view of $r"
		continue
	fi
	ov_ns cp "$BIN" "$OV_ROOT/tmp/osdhist"
	out=$(ov_run /tmp/osdhist --version 2>&1); rc=$?
	check_eq "$rel chroot: --version: exit 0, '$version'" "$rc $out" "0 $version"
	out=$(ov_run /tmp/osdhist --inspect /usr/bin/ceph-osd 2>&1); rc=$?
	check_eq "$rel chroot: --inspect /usr/bin/ceph-osd: exit 0 ($out)" "$rc" 0
	check "... Ceph $ceph, traceable" grep -q "Ceph $ceph, x86-64: traceable" <<<"$out"
	ov_down
done

# --- the RPM
t0=$SECONDS
make -C "$LIB_ROOT" rpm MHD_CACHE="$MHD_CACHE" >"$B/rpm.log" 2>&1
rc=$?
check_eq "make rpm: exit 0 ($((SECONDS - t0)) s)" "$rc" 0
[ "$rc" = 0 ] || tail -20 "$B/rpm.log" | sed 's/^/    /'
rpmf=$(ls "$LIB_ROOT"/build/osdhist-*.x86_64.rpm 2>/dev/null | tail -1)
check "it made build/osdhist-VERSION-RELEASE.x86_64.rpm ($(basename "${rpmf:-none}"))" [ -f "$rpmf" ]
[ -f "$rpmf" ] || finish
check_rpm "$rpmf"

S=$B/scratch
mkdir -p "$S/proc" "$S/tmp"
out=$(rpm --root "$S" --initdb 2>&1 && rpm --root "$S" -i --nodeps "$rpmf" 2>&1); rc=$?
check_eq "rpm --root SCRATCH -i --nodeps: exit 0" "$rc" 0
[ "$rc" = 0 ] || sed 's/^/    /' <<<"$out"
check_eq "rpm --root SCRATCH -q osdhist: installed" \
	"$(rpm --root "$S" -q osdhist 2>&1)" "$(basename "$rpmf" .rpm)"
check "the installed binary is build/osdhist-static, stripped (same build-id)" \
	bash -c '[ -n "$1" ] && [ "$1" = "$2" ]' _ \
	"$(build_id "$S/usr/bin/osdhist")" "$(build_id "$BIN")"
cp /usr/bin/ceph-osd "$S/tmp/ceph-osd"
in_scratch() {
	unshare -m --propagation private sh -c '
		r=$1; shift
		mount -t proc proc "$r/proc" && exec chroot "$r" "$@"' sh "$S" "$@"
}
out=$(in_scratch /usr/bin/osdhist --version 2>&1); rc=$?
check_eq "in the rpm's root: /usr/bin/osdhist --version: exit 0, '$version'" "$rc $out" "0 $version"
out=$(in_scratch /usr/bin/osdhist --inspect /tmp/ceph-osd 2>&1); rc=$?
check_eq "in the rpm's root: --inspect /tmp/ceph-osd: exit 0 ($out)" "$rc" 0
check "... Ceph $ceph_host, traceable" grep -q "Ceph $ceph_host, x86-64: traceable" <<<"$out"
out=$(rpm --root "$S" -e osdhist 2>&1); rc=$?
check_eq "rpm --root SCRATCH -e osdhist: exit 0, and its files are gone" \
	"$rc $(find "$S/usr" -path '*osdhist*' | wc -l)" "0 0"
finish
