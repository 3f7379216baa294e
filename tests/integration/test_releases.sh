#!/bin/bash
# shellcheck disable=SC2317  # helpers run via check
# Releases: real Ceph 18.2.x (reef, Debian trixie) and 20.2.x (tentacle,
# Debian sid) daemons, each from its chroot (scripts/chroots.sh builds it if
# missing: about 1.5 min each, once), driven by the host's 16.2 clients.
# For each release: a 1-OSD memstore and a 2-OSD size-2 bluestore cluster;
# the OSD is the chroot's binary (version, /proc/PID/exe, /proc/PID/root);
# rados bench, put/stat/missing stat/omap/lock/rm and python3-rados move
# op_r/op_w/op_rw (summed over the OSDs) by exactly what each did; after
# stop, a failed start and a Ctrl-C nothing is left: no process, no mount,
# no dir.
. "$(dirname "$0")/../lib.sh"

[ "$(id -u)" = 0 ] || { fail "must run as root (chroot, mount namespaces)"; finish; }
declare -A WANT=([reef]=18.2 [tentacle]=20.2)
lib_mktemp WORK -d
echo "object data $RANDOM" >"$WORK/obj"
cat >"$WORK/client.py" <<'EOF'
import sys, rados
with rados.Rados(conffile=sys.argv[1]) as c, c.open_ioctx(sys.argv[2]) as io:
    for i in range(5):
        io.write_full("py.%d" % i, b"x" * i)
    for i in range(5):
        assert io.read("py.%d" % i) == b"x" * i
    with rados.WriteOpCtx() as op:
        io.set_omap(op, ("k",), (b"v",))
        io.operate_write_op(op, "py.0")
EOF

# pids whose root directory is $1 and whose command line names the cluster
# dir $2: a chroot'ed daemon of that cluster (other tests' clusters may use
# the same chroot meanwhile)
procs_in() { # ROOT DIR
	local p
	for p in /proc/[0-9]*; do
		[ "$(readlink "$p/root" 2>/dev/null)" = "$1" ] || continue
		tr '\0' ' ' <"$p/cmdline" 2>/dev/null | grep -qF -- "$2/" && echo "${p#/proc/}"
	done
	return 0
}
# host mounts at or under $1
mounts_in() { awk -v r="$1" '$2 == r || index($2, r "/") == 1' /proc/mounts; }

# "op op_r op_w op_rw subop_w", each summed over the OSDs of the cluster.
# One python3 talks to every admin socket (a "ceph daemon" per OSD and
# snapshot would be half a second each); perf_counter is checked against it.
cat >"$WORK/snap.py" <<'EOF'
import json, socket, struct, sys
def ask(path, cmd):
    with socket.socket(socket.AF_UNIX) as s:
        s.connect(path)
        s.sendall(json.dumps({"prefix": cmd}).encode() + b"\0")
        buf = b""
        while len(buf) < 4 or len(buf) < 4 + struct.unpack(">I", buf[:4])[0]:
            chunk = s.recv(65536)
            if not chunk:
                raise SystemExit("short reply from " + path)
            buf += chunk
        return json.loads(buf[4:])
run, ids = sys.argv[1], sys.argv[2:]
dumps = [ask("%s/ceph-osd.%s.asok" % (run, i), "perf dump")["osd"] for i in ids]
print(" ".join(str(sum(d[k] for d in dumps))
               for k in ("op", "op_r", "op_w", "op_rw", "subop_w")))
EOF
# shellcheck disable=SC2086
snap() { /usr/bin/python3 "$WORK/snap.py" "$CLUSTER_DIR/run" $OSD_IDS; }
delta() { # BEFORE AFTER : "d_op d_r d_w d_rw d_subop_w"
	local -a a b
	read -ra a <<<"$1"; read -ra b <<<"$2"
	echo "$((b[0] - a[0])) $((b[1] - a[1])) $((b[2] - a[2])) $((b[3] - a[3])) $((b[4] - a[4]))"
}
# The deltas from BEFORE to now, read again until they are WANT (10 s at
# most, then the last reading): the primary counts op* before it replies,
# but a replica sends its commit before it counts subop_w, so the client can
# return before the replica's counter moves (the same replica thread counts
# right after its reply: ms; 10 s bounds it on a loaded machine).  Counters
# only grow, so a short reading is waited out and a reading past WANT
# fails; one equal to WANT is taken as final.
settled_delta() { # BEFORE WANT
	local d deadline=$((SECONDS + 10))
	while :; do
		d=$(delta "$1" "$(snap)")
		[ "$d" = "$2" ] || [ $SECONDS -ge $deadline ] && break
		sleep 0.05
	done
	echo "$d"
}
# ops MSG "R W RW" CMD...: CMD succeeds and moves op_r, op_w, op_rw (summed)
# by exactly R, W, RW; op by R+W+RW; with 2 replicas subop_w by W+RW.
ops() {
	local msg=$1 want=$2 b d r w rw sub=0; shift 2
	read -r r w rw <<<"$want"
	[ "$NOSDS" = 1 ] || sub=$((w + rw))
	b=$(snap)
	"$@" >"$WORK/out" 2>&1 || { fail "$msg: '$*' failed: $(tail -n 1 "$WORK/out")"; return; }
	d=$(settled_delta "$b" "$((r + w + rw)) $r $w $rw $sub")
	check_eq "$msg: op op_r op_w op_rw subop_w deltas" "$d" "$((r + w + rw)) $r $w $rw $sub"
}
bench_total() { awk -F: -v k="$1" '$1 == k { gsub(/ /, "", $2); print $2 }' "$WORK/bench"; }

one_cluster() { # REL ROOT VERSION NOSDS STORE
	local rel=$1 root=$2 ver=$3 store=$5 first id pid dir b writes reads tag
	NOSDS=$4
	tag="$rel, $NOSDS $store OSD(s)"
	first=$(random_first_id "$NOSDS") || { fail "$tag: no free OSD ids"; return; }
	cluster_up --root "$root" --osds "$NOSDS" --first-id "$first" --store "$store" \
		|| { fail "$tag: cluster starts"; return; }
	pass "$tag: cluster starts (ids $OSD_IDS)"
	dir=$CLUSTER_DIR
	check_eq "$tag: pool size" "$(ceph osd pool get "$POOL" size -f json | jq .size)" "$NOSDS"
	check_eq "$tag: env names the chroot" "$OSDHIST_ROOT" "$root"

	# every daemon is the chroot's release; each OSD is its binary
	check_eq "$tag: 'ceph versions': every daemon runs the chroot's ceph" \
		"$(ceph versions -f json | jq -c '.overall | keys')" "[\"$ver\"]"
	for id in $OSD_IDS; do
		pid=$(osd_pid "$id")
		check_eq "$tag: osd.$id /proc/$pid/exe" "$(readlink "/proc/$pid/exe")" "$root/usr/bin/ceph-osd"
		check_eq "$tag: osd.$id /proc/$pid/root" "$(readlink "/proc/$pid/root")" "$root"
		check "$tag: osd.$id has a mount namespace of its own" \
			[ "$(readlink "/proc/$pid/ns/mnt")" != "$(readlink /proc/self/ns/mnt)" ]
		check_eq "$tag: osd.$id admin socket: version" \
			"$(ceph daemon "osd.$id" version | jq -r .version)" "$(awk '{print $3}' <<<"$ver")"
	done

	local w=0
	for id in $OSD_IDS; do w=$((w + $(perf_counter "$id" osd op_w))); done
	check_eq "$tag: perf_counter (lib.sh) agrees with the snapshot's op_w" "$w" "$(snap | cut -d' ' -f3)"

	# rados bench: each write one op_w, plus benchmark_last_metadata after
	# the run; seq first reads that object back, then each read one op_r
	b=$(snap)
	rados -p "$POOL" bench 2 write -b 4096 -t 8 --no-cleanup >"$WORK/bench" 2>&1 \
		|| fail "$tag: bench write: $(tail -n 1 "$WORK/bench")"
	writes=$(bench_total "Total writes made")
	check "$tag: bench wrote something (${writes:-none})" [ "${writes:-0}" -gt 0 ]
	local sub=0
	[ "$NOSDS" = 1 ] || sub=$((writes + 1))
	check_eq "$tag: bench write: op op_r op_w op_rw subop_w deltas ($writes writes)" \
		"$(settled_delta "$b" "$((writes + 1)) 0 $((writes + 1)) 0 $sub")" \
		"$((writes + 1)) 0 $((writes + 1)) 0 $sub"
	b=$(snap)
	rados -p "$POOL" bench 2 seq -t 8 >"$WORK/bench" 2>&1 \
		|| fail "$tag: bench seq: $(tail -n 1 "$WORK/bench")"
	reads=$(bench_total "Total reads made")
	check "$tag: bench read something (${reads:-none})" [ "${reads:-0}" -gt 0 ]
	check_eq "$tag: bench seq: op op_r op_w op_rw subop_w deltas ($reads reads)" \
		"$(settled_delta "$b" "$((reads + 1)) $((reads + 1)) 0 0 0")" "$((reads + 1)) $((reads + 1)) 0 0 0"

	ops "$tag: put" "0 1 0" rados -p "$POOL" put obj "$WORK/obj"
	ops "$tag: stat" "1 0 0" rados -p "$POOL" stat obj
	ops "$tag: get" "1 0 0" bash -c "rados -p '$POOL' get obj - | cmp -s - '$WORK/obj'"
	# ENOENT is answered before the op is executed: no op counter moves
	ops "$tag: stat of a missing object fails" "0 0 0" \
		bash -c "! rados -p '$POOL' stat no-such-object"
	ops "$tag: setomapval" "0 1 0" rados -p "$POOL" setomapval obj key value
	ops "$tag: listomapvals" "1 0 0" bash -c "rados -p '$POOL' listomapvals obj | grep -qx key"
	ops "$tag: getomapval" "1 0 0" bash -c "rados -p '$POOL' getomapval obj key | grep -q value"
	# cls lock reads and writes the object's xattr: one op_rw
	ops "$tag: lock get" "0 0 1" rados -p "$POOL" lock get obj L
	ops "$tag: lock info" "1 0 0" bash -c "rados -p '$POOL' lock info obj L | grep -q exclusive"
	ops "$tag: rm" "0 1 0" rados -p "$POOL" rm obj
	ops "$tag: stat after rm fails" "0 0 0" bash -c "! rados -p '$POOL' stat obj"
	# the host's python3-rados (16.2) too: 5 writes, 5 reads, 1 omap write
	ops "$tag: python3-rados" "5 6 0" /usr/bin/python3 "$WORK/client.py" "$CEPH_CONF" "$POOL"

	# stop: nothing left
	cp "$dir/pids" "$WORK/pids"
	check "$tag: stop" cluster_down "$dir"
	check_eq "$tag: no process left with its root in the chroot" "$(procs_in "$root" "$dir")" ""
	local left=""
	while read -r _ pid; do [[ $(cat "/proc/$pid/comm" 2>/dev/null) != ceph-* ]] || left+=" $pid"; done <"$WORK/pids"
	check_eq "$tag: no recorded pid left" "$left" ""
	check_eq "$tag: no mount under the chroot" "$(mounts_in "$root")" ""
	check "$tag: cluster dir removed" [ ! -e "$dir" ]
	check "$tag: its mount point in the chroot removed" [ ! -e "$root$dir" ]
}

# A start that fails half-way (the OSD's wrapper exits), and one interrupted
# by SIGINT once an OSD is launched: nothing may be left after stop.
broken_starts() { # REL ROOT
	local rel=$1 root=$2 dir cpid
	dir=$(mktemp -d "$WORK/fail.XXXXXX")
	if "$CLUSTER_SH" start "$dir" --root "$root" --first-id "$(random_first_id)" \
		--osd-wrap false >"$WORK/fail.out" 2>&1; then
		fail "$rel: start with a failing OSD wrapper fails"
	else
		check "$rel: the failed start said so" grep -q 'did not start' "$WORK/fail.out"
	fi
	check_eq "$rel: failed start: no process left in the chroot" "$(procs_in "$root" "$dir")" ""
	check_eq "$rel: failed start: no mount under the chroot" "$(mounts_in "$root")" ""
	check "$rel: failed start: stop" "$CLUSTER_SH" stop "$dir"
	check "$rel: failed start: dir and mount point removed" [ ! -e "$dir" -a ! -e "$root$dir" ]

	dir=$(mktemp -d "$WORK/int.XXXXXX")
	# The OSD is a stand-in that never comes up, so the SIGINT lands
	# mid-way: with the real OSD the start once finished before the
	# signal (2026-12-03).
	hold=$(mktemp -d "$root/tmp/osdhist-hold.XXXXXX")
	# a background job starts with SIGINT ignored: restore it, as a
	# terminal's Ctrl-C would find it
	env --default-signal=INT "$CLUSTER_SH" start "$dir" --root "$root" \
		--first-id "$(random_first_id)" --store bluestore \
		--osd-wrap "$(osd_stand_in "$hold" "$root")" >"$WORK/int.out" 2>&1 &
	cpid=$!
	for _ in $(seq 1200); do	# 60 s: mkfs of a bluestore OSD on a loaded host
		grep -qs '^osd\.' "$dir/pids" && break
		kill -0 "$cpid" 2>/dev/null || break
		sleep 0.05
	done
	check "$rel: SIGINT during start: the OSD was launched first" grep -qs '^osd\.' "$dir/pids"
	kill -INT "$cpid"
	wait "$cpid"
	check_eq "$rel: SIGINT during start: exit 130" "$?" 130
	check "$rel: SIGINT during start: it was interrupted mid-way" grep -q 'interrupted' "$WORK/int.out"
	check_eq "$rel: SIGINT during start: no process left in the chroot" "$(procs_in "$root" "$dir")" ""
	check_eq "$rel: SIGINT during start: no mount under the chroot" "$(mounts_in "$root")" ""
	check "$rel: SIGINT during start: stop" "$CLUSTER_SH" stop "$dir"
	check "$rel: SIGINT during start: dir and mount point removed" [ ! -e "$dir" -a ! -e "$root$dir" ]
	rm -rf "$hold"
}

for rel in reef tentacle; do
	root=$(chroot_dir "$rel") || { fail "$rel: chroot available"; continue; }
	ver=$(chroot_version "$rel")
	check "$rel: chroot has ceph ${WANT[$rel]}.x ($ver)" grep -q "^ceph version ${WANT[$rel]}\." <<<"$ver"
	check_eq "$rel: ceph-osd --version inside the chroot" "$(chroot "$root" ceph-osd --version)" "$ver"
	echo "# $rel: $root: $(head -n 5 "$(dirname "$root")/VERSION" | tr '\n' ' ')"
	# a neighbour in the same chroot all along: the others' starts, stops
	# and failures must not disturb it (each daemon has its own mounts)
	cluster_up --root "$root" --first-id "$(random_first_id)" || { fail "$rel: neighbour starts"; continue; }
	nb=$CLUSTER_DIR nb_conf=$CEPH_CONF nb_pid=$(osd_pid "${OSD_IDS%% *}")
	one_cluster "$rel" "$root" "$ver" 1 memstore
	one_cluster "$rel" "$root" "$ver" 2 bluestore
	broken_starts "$rel" "$root"
	check "$rel: the neighbour cluster in the same chroot still serves" \
		bash -c "rados -c '$nb_conf' -p osdhist put nb '$WORK/obj' && rados -c '$nb_conf' -p osdhist get nb - | cmp -s - '$WORK/obj'"
	check_eq "$rel: the neighbour's OSD still runs in the chroot" "$(readlink "/proc/$nb_pid/root")" "$root"
	check "$rel: neighbour: stop" cluster_down "$nb"
	dir=$nb
	check_eq "$rel: neighbour: no process left" "$(procs_in "$root" "$dir")" ""
	check_eq "$rel: neighbour: no mount under the chroot" "$(mounts_in "$root")" ""
	check "$rel: neighbour: dir and mount point removed" [ ! -e "$dir" -a ! -e "$root$dir" ]
done
finish
