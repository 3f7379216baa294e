#!/bin/bash
# Issue 41: `make image` writes an OCI archive of the static binary alone.
# Built twice (another umask, time zone and second) it is the same, byte for
# byte; without umoci the build stops with one line.  Its config, read back
# with skopeo (and again after a conversion to Docker's format), is checked
# field by field: entrypoint, command, port, user, labels, date, and nothing
# else.  Its one layer is a well-formed tar (GNU tar reads it to the end)
# holding /osdhist alone, stripped, with build/osdhist-static's build-id.
#
# Then it runs as a container would, with no container engine (none runs
# containers on these VMs): umoci unpacks it into a runtime bundle, and the
# bundle's own process (args, env, user, RLIMIT_NOFILE, no_new_privs) is
# started chrooted in its root filesystem, in a network namespace of its
# own, in the host's PID namespace (--pid=host, hostPID), with procfs and a
# read-only sysfs mounted and nothing else (no bpffs, no tracefs), and with
# only the five capabilities of dist/osdhist.service.in.  With
# /sys/kernel/btf hidden it refuses in one line naming BTF (libbpf needs
# it to load the programs).  So run, it traces an OSD of a throwaway cluster
# exactly (its write count = the OSD's op_w delta), checks itself against
# the OSD's perf counters, loses nothing, serves /metrics on the image's
# port inside its namespace, and exits 0 on SIGTERM.
# packages: umoci skopeo jq curl binutils util-linux (unshare, nsenter,
#   prlimit) libcap2-bin (capsh) iproute2 dpkg-dev
. "$(dirname "$0")/../lib.sh"

IMG=$LIB_ROOT/build/osdhist-image.tar
BIN=$LIB_ROOT/build/osdhist-static
version=$(sed -n 's/^#define OSDHIST_VERSION "\(.*\)"$/\1/p' "$LIB_ROOT/loader/util/version.h")
UNIT=$LIB_ROOT/dist/osdhist.service.in
port=$(sed -n 's/^ExecStart=.*--prometheus 127\.0\.0\.1:\([0-9]*\) .*/\1/p' "$UNIT")
lib_mktemp B -d

# --- the build, twice, and its refusal
t0=$SECONDS
make -C "$LIB_ROOT" image MHD_CACHE="$MHD_CACHE" >"$B/make.log" 2>&1
rc=$?
check_eq "make image: exit 0 ($((SECONDS - t0)) s)" "$rc" 0
[ "$rc" = 0 ] || tail -20 "$B/make.log" | sed 's/^/    /'
check "it made build/osdhist-image.tar" [ -f "$IMG" ]
[ -f "$IMG" ] || finish
mv "$IMG" "$B/first.tar"
(umask 077 && TZ=Pacific/Chatham make -C "$LIB_ROOT" image) >"$B/make2.log" 2>&1
check "made again (umask 077, another time zone, later): the same archive, byte for byte" \
	cmp "$B/first.tar" "$IMG"
out=$(UMOCI=/nonexistent/umoci "$LIB_ROOT/scripts/image.sh" "$BIN" "$B/never.tar" 2>&1); rc=$?
check_eq "without umoci: exit 1, one line naming it and its package ($out)" \
	"$rc $(wc -l <<<"$out") $(grep -c 'umoci missing: apt-get install umoci' <<<"$out")" "1 1 1"
check "... and no archive, no work directory left" \
	bash -c "! ls '$B' | grep -q never"

# --- its config, field by field
check "skopeo inspect --config oci-archive:build/osdhist-image.tar" \
	bash -c "skopeo inspect --config 'oci-archive:$IMG' >'$B/config.json'"
cfg() { jq -c "$1" "$B/config.json"; }
spec=$LIB_ROOT/dist/osdhist.spec
labels=$(jq -nc --arg v "$version" --arg d "$(sed -n 's/^Summary: *//p' "$spec")" \
	--arg l "$(sed -n 's/^License: *//p' "$spec")" '{
		"org.opencontainers.image.description": $d, "org.opencontainers.image.licenses": $l,
		"org.opencontainers.image.title": "osdhist", "org.opencontainers.image.version": $v}')
created=$(date -u -d "@$(dpkg-parsechangelog -l "$LIB_ROOT/debian/changelog" -S Timestamp)" +%Y-%m-%dT%H:%M:%SZ)
check_eq "the unit's port is the documented 9720" "$port" 9720
check_eq "Entrypoint" "$(cfg .config.Entrypoint)" '["/osdhist"]'
check_eq "Cmd: --quiet --prometheus 0.0.0.0:$port 5" "$(cfg .config.Cmd)" \
	"[\"--quiet\",\"--prometheus\",\"0.0.0.0:$port\",\"5\"]"
check_eq "ExposedPorts: $port/tcp alone" "$(cfg '.config.ExposedPorts | keys')" "[\"$port/tcp\"]"
check_eq "User: root (BPF and uprobes; the runtime grants the capabilities)" "$(cfg .config.User)" '"0:0"'
check_eq "Labels: title, description, version, licenses (version.h, dist/osdhist.spec)" \
	"$(cfg '.config.Labels | to_entries | sort_by(.key) | from_entries')" "$labels"
check_eq "nothing else in the config (no Env, no Volumes, no WorkingDir)" \
	"$(cfg '.config | keys')" '["Cmd","Entrypoint","ExposedPorts","Labels","User"]'
check_eq "created: the last debian/changelog entry's date ($created)" "$(cfg .created)" "\"$created\""
check_eq "linux/amd64, one layer" "$(cfg '[.os, .architecture, (.rootfs.diff_ids | length)]')" \
	'["linux","amd64",1]'
# what a registry or Docker gets: the same config in Docker's format
skopeo copy -q "oci-archive:$IMG" "docker-archive:$B/docker.tar:osdhist:$version" >"$B/copy.log" 2>&1
dcfg=$(skopeo inspect --config "docker-archive:$B/docker.tar" 2>&1 |
	jq -c '.config | {Cmd, Entrypoint, ExposedPorts, Labels, User}')
check_eq "converted to Docker's format (skopeo copy docker-archive:): the same config" \
	"$dcfg" "$(cfg '.config | {Cmd, Entrypoint, ExposedPorts, Labels, User}')"

# --- its layer and root filesystem
check "skopeo copy to an OCI layout (every digest checked)" \
	skopeo copy -q "oci-archive:$IMG" "oci:$B/layout:$version"
layer=$(jq -r '.manifests[0].digest' "$B/layout/index.json" | sed 's|:|/|' |
	xargs -I{} jq -r '.layers[0].digest' "$B/layout/blobs/{}" | sed 's|:|/|')
out=$(tar -tvzf "$B/layout/blobs/$layer" 2>&1); rc=$?
check_eq "the layer is a whole tar (GNU tar reads it to its end: exit $rc)" "$rc" 0
check_eq "... holding osdhist alone, root's, mode 0755" \
	"$(awk '{print $1, $2, $NF}' <<<"$out")" "-rwxr-xr-x 0/0 osdhist"
check "umoci unpack: a runtime bundle" umoci unpack --image "$B/layout:$version" "$B/bundle"
R=$B/bundle/rootfs
check_eq "its root filesystem is /osdhist alone" "$(cd "$R" && find . -mindepth 1)" "./osdhist"
check "/osdhist is build/osdhist-static (build-id $(build_id "$BIN")), stripped" \
	bash -c '[ -n "$1" ] && [ "$1" = "$2" ] && ! readelf -SW "$3" | grep -qE "\.symtab|\.debug_"' \
	_ "$(build_id "$R/osdhist")" "$(build_id "$BIN")" "$R/osdhist"
P=$B/bundle/config.json
mapfile -t pargs < <(jq -r '.process.args[]' "$P")
mapfile -t penv < <(jq -r '.process.env[]' "$P")
check_eq "the bundle runs Entrypoint + Cmd as uid 0" \
	"$(jq -c '[.process.args, .process.user.uid]' "$P")" \
	"[[\"/osdhist\",\"--quiet\",\"--prometheus\",\"0.0.0.0:$port\",\"5\"],0]"
nofile=$(jq -r '.process.rlimits[] | select(.type == "RLIMIT_NOFILE") | .hard' "$P")

# --- run as a container: the capabilities of the unit, nothing else.
# capsh's names are the unit's, lower-cased; every other one is dropped
# from the bounding set, so after the exec as root these five are all
# the process has.
keep=$(sed -n 's/^CapabilityBoundingSet=//p' "$UNIT" | tr 'A-Z ' 'a-z\n')
drop=$(capsh --print | sed -n 's/^Bounding set =//p' | tr ',' '\n' | grep -vxF "$keep" | paste -sd,)
want=0
for i in $(seq 0 "$(cat /proc/sys/kernel/cap_last_cap)"); do
	c=$(capsh --decode="$(printf '%x' $((1 << i)))" | sed 's/.*=//')
	grep -qxF "$c" <<<"$keep" && want=$((want | (1 << i)))
done
mkdir -p "$R/proc" "$R/sys"	# its mount points, as a runtime makes them
# container [--no-btf] ARGS...: the bundle's process with ARGS, as a runtime
# runs it.  It execs: call it in $(...) or with &, where $! is then
# osdhist itself (unshare, sh, env, prlimit and capsh each exec the next).
# --no-btf: /sys/kernel/btf hidden, and killed after 60 s should osdhist
# not refuse at once.
container() {
	local nobtf=0 limit=()
	[ "$1" = --no-btf ] && { nobtf=1 limit=(timeout -k 5 60); shift; }
	exec "${limit[@]}" unshare -m -n --propagation private sh -c '
		r=$1 nobtf=$2; shift 2
		ip link set lo up && mount -t proc proc "$r/proc" &&
		mount -t sysfs -o ro sysfs "$r/sys" &&
		{ [ "$nobtf" = 0 ] || mount -t tmpfs -o ro,size=4k nobtf "$r/sys/kernel/btf"; } &&
		exec "$@"' sh "$R" "$nobtf" \
		env -i "${penv[@]}" prlimit --nofile="$nofile:$nofile" \
		capsh --chroot="$R" --drop="$drop" --no-new-privs --shell="${pargs[0]}" -- "$@"
}
out=$(container --no-btf "${pargs[@]:1}" 2>&1); rc=$?
check_eq "with /sys/kernel/btf hidden: exit 1, one line naming BTF ($out)" \
	"$rc $(wc -l <<<"$out") $(grep -c "lacks kernel BTF.*feature probe 'btf'" <<<"$out")" "1 1 1"

# the image traces every OSD of the host: ours has an id no other has
ID=$(random_first_id)
cluster_up --osds 1 --first-id "$ID" || { fail "cluster start"; finish; }
LABELS=$(osd_labels "$ID")
container "${pargs[@]:1}" >"$B/out" 2>"$B/err" &
CPID=$!
wait_line "$B/err" "attached to ceph-osd" $CPID &&
	wait_line "$B/err" "serving metrics on http://0.0.0.0:$port/metrics" $CPID
rc=$?
check_eq "it attached and serves http://0.0.0.0:$port/metrics ($(head -c 300 "$B/err"))" "$rc" 0
[ "$rc" = 0 ] || finish
check_eq "... as /osdhist of the bundle, chrooted there" \
	"$(readlink "/proc/$CPID/exe") $(readlink "/proc/$CPID/root")" "$R/osdhist $R"
check_eq "... with exactly the unit's capabilities ($(paste -sd' ' <<<"$keep"))" \
	"$(awk '/^CapEff:/ {print $2}' "/proc/$CPID/status")" "$(printf '%016x' "$want")"
check_eq "... no_new_privs, RLIMIT_NOFILE $nofile, in the host's PID namespace and a network namespace of its own" \
	"$(awk '/^NoNewPrivs:/ {print $2}' "/proc/$CPID/status") $(awk '/^Max open files/ {print $5}' "/proc/$CPID/limits") $(
		[ "$(readlink /proc/$CPID/ns/pid)" = "$(readlink /proc/self/ns/pid)" ] && echo host-pid) $(
		[ "$(readlink /proc/$CPID/ns/net)" != "$(readlink /proc/self/ns/net)" ] && echo own-net)" \
	"1 $nofile host-pid own-net"

metrics() { nsenter -t "$CPID" -n curl -sf -m 5 "http://127.0.0.1:$port/metrics"; }
series() { metrics | awk -v s="$1" 'index($0, s " ") == 1 {print $2}'; }
snap_ts() { series osdhist_last_snapshot_timestamp_seconds; }
# A snapshot that read the maps after this call: the first one after a
# SIGUSR1 may have read them before it (one under way), the one after that
# cannot (lib.sh's oh_snap, through /metrics).  1 if none in 60 s.
fresh_snapshot() {
	local t n deadline=$((SECONDS + 60))
	for n in 1 2; do
		t=$(snap_ts)
		kill -USR1 "$CPID"
		until [ -n "$(snap_ts)" ] && [ "$(snap_ts)" != "$t" ]; do
			[ $SECONDS -lt $deadline ] && kill -0 "$CPID" 2>/dev/null || return 1
			sleep 0.1
		done
	done
}
W0=$(perf_counter "$ID" osd op_w)
rados -p "$POOL" bench 2 write -b 4096 -t 8 --no-cleanup >/dev/null
W1=$(perf_counter "$ID" osd op_w)
check "a snapshot after the load (SIGUSR1, twice)" fresh_snapshot
metrics >"$B/metrics"
got=$(series "osdhist_op_latency_seconds_count{$LABELS,class=\"write\",phase=\"total\"}")
check_eq "osd.$ID's write count on /metrics = its op_w delta ($((W1 - W0)))" "$got" $((W1 - W0))
check "... and there were some" [ $((W1 - W0)) -gt 0 ]
check_eq "... no op lost (osdhist_ops_lost_total, every reason)" \
	"$(awk '/^osdhist_ops_lost_total\{/ {s += $2} END {print s + 0}' "$B/metrics")" 0
ok=false
for _ in $(seq 30); do
	metrics | grep -qF "osdhist_verify_state{$LABELS,state=\"verified\"} 1" && { ok=true; break; }
	fresh_snapshot || break
	sleep 1
done
check "the self-check verified osd.$ID against its perf counters (its admin socket reached)" $ok
echo "# osdhist in the image, 1 OSD traced: $(awk '/^VmRSS:/ {print $2, $3}' "/proc/$CPID/status") resident"
kill -TERM "$CPID"
wait "$CPID"
check_eq "it exits 0 on SIGTERM (a runtime's stop)" $? 0
check_eq "... having written nothing on stdout (--quiet)" "$(wc -c <"$B/out")" 0
cluster_down
finish
