#!/bin/bash
# Issue 15: one misbehaving peer must not blind Prometheus.  During rados
# bench, a client on 127.0.0.2 (http_abuse.py) tries to hold 300 connections
# to osdhist's /metrics, sending nothing, half request lines, slowloris
# trickles, random bytes, oversized request lines and headers, bogus
# Content-Length and chunked bodies and path tricks.  Meanwhile a scraper on
# 127.0.0.1 must get a complete exposition at least 19 times out of 20; once
# the abuser has left, every scrape must be answered within 1 s; the write
# count must still equal the OSD's op_w delta; the rejection counters must
# show the abuse by reason; osdhist must not crash or leak descriptors.
# packages: python3 curl jq prometheus (promtool)
. "$(dirname "$0")/../lib.sh"

OSDHIST=${OSDHIST:-$LIB_ROOT/osdhist}
ABUSE=$LIB_ROOT/tests/integration/http_abuse.py
PER_ADDR=128	# HTTP_PER_ADDR in loader/http.h
ID=$(random_first_id)
cluster_up --osds 1 --first-id "$ID" || { fail "cluster did not start"; finish; }
PID=$(osd_pid "$ID")
SERIES="ceph_daemon=\"osd.$ID\",class=\"write\",phase=\"total\""
W=$CLUSTER_DIR/abuse
mkdir -p "$W"

W0=$(perf_counter "$ID" osd op_w)
oh_start -p "$PID" --prometheus 127.0.0.1:0 1
if ! oh_wait_attached; then
	cat "$TERR" >&2
	fail "osdhist did not attach"
	finish
fi
PORT=$(sed -n 's|^osdhist: serving metrics on http://127\.0\.0\.1:\([0-9]*\)/metrics$|\1|p' "$TERR")
URL=http://127.0.0.1:$PORT/metrics
echo "# osdhist (pid $TPID) serves $URL"
for _ in $(seq 50); do
	[ "$(curl -s -o /dev/null -w '%{http_code}' "$URL")" = 200 ] && break
	sleep 0.1
done

# The exposition's last line is osdhist_build_info: a body ending in it,
# with curl satisfied that Content-Length was met, is complete.
LAST='^osdhist_build_info{version="[^"]*"} 1$'
scrape() {	# OUTFILE TIMEOUT: 0 if a complete exposition came back in time
	curl -sf -m "$2" -o "$1" "$URL" && tail -n 1 "$1" | grep -q "$LAST" &&
		head -n 2 "$1" | grep -q "^# TYPE osdhist_op_latency_seconds histogram$"
}
nfds() { ls "/proc/$TPID/fd" | wc -l; }
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$TPID/stat"; }	# utime + stime
nsockets() { find "/proc/$TPID/fd" -lname 'socket:*' 2>/dev/null | wc -l; }
stable_fds() {	# the fd count, read until two reads 0.2 s apart agree
	local a b
	a=$(nfds)
	for _ in $(seq 20); do
		sleep 0.2
		b=$(nfds)
		[ "$a" = "$b" ] && { echo "$a"; return; }
		a=$b
	done
	echo "$a"
}
check "a first scrape is complete" scrape "$W/m0" 5
check_eq "it has osdhist_http_rejected_total, 6 reasons, all 0" \
	"$(awk '/^osdhist_http_rejected_total\{/ { k++; n += $2 } END { print k + 0, n + 0 }' "$W/m0")" "6 0"
fds0=$(stable_fds)
socks0=$(nsockets)
echo "# before the abuse: $fds0 fds open in osdhist, $socks0 sockets"

# --- load and abuse together
rados -p "$POOL" bench 30 write -b 4096 -t 16 --no-cleanup >"$W/bench" 2>&1 &
BENCH=$!
python3 "$ABUSE" --port "$PORT" --src 127.0.0.2 --conns 300 --duration 20 \
	--max-connects 30000 >"$W/abuser" 2>&1 &
ABUSER=$!
cpu0=$(cpu_ticks)
sleep 3	# the abuser has its connections up and the first deadlines passed

ok=0 maxsock=0 lat=()
for i in $(seq 20); do
	t=$(date +%s.%N)
	if scrape "$W/s$i" 5; then
		ok=$((ok + 1))
	fi
	lat+=("$(jq -n "($(date +%s.%N) - $t) * 1000 | floor")")
	s=$(nsockets)
	[ "$s" -gt "$maxsock" ] && maxsock=$s
	sleep 0.4
done
still=$(kill -0 $ABUSER 2>/dev/null && echo yes || echo no)
echo "# during the abuse: $ok/20 scrapes complete, latencies ms: ${lat[*]}"
echo "# osdhist held at most $maxsock sockets (listen + scrapers + abuser's)"
check "the abuser was still at it after the 20 scrapes ($still)" [ "$still" = yes ]
check "at least 19 of 20 scrapes from 127.0.0.1 complete during the abuse ($ok)" [ "$ok" -ge 19 ]
check "osdhist never held more than $PER_ADDR of the abuser's connections ($maxsock sockets)" \
	[ "$maxsock" -le $((PER_ADDR + 4)) ]

# --- the abuser leaves: every scrape answered within 1 s from then on
wait $ABUSER
rc=$?
t_leave=$(date +%s.%N)
(	# how soon osdhist lets go of the connections the abuser closed
	for _ in $(seq 250); do
		[ "$(nsockets)" -le "$socks0" ] && break
		sleep 0.02
	done
	jq -n "($(date +%s.%N) - $t_leave) * 1000 | floor" >"$W/drained"
) &
DRAIN=$!
echo "# osdhist used $(( ($(cpu_ticks) - cpu0) * 1000 / $(getconf CLK_TCK) )) ms of CPU during the $(jq -r .seconds "$W/abuser") s of abuse (BPF maps, bench tracing and HTTP)"
echo "# abuser: $(cat "$W/abuser")"
check_eq "the abuser ran and stopped by itself" "$rc" 0
first="" failed=0
for i in $(seq 10); do
	if scrape "$W/r$i" 1; then
		[ -n "$first" ] || first=$(jq -n "($(date +%s.%N) - $t_leave) * 1000 | floor")
	else
		failed=$((failed + 1))
	fi
done
echo "# after the abuser left: first complete scrape after ${first:-never} ms, $failed/10 failed"
check_eq "after the abuser left: 10 of 10 scrapes complete (1 s timeout each)" "$failed" 0
check "... the first within 1 s of its leaving (${first:-never} ms)" [ "${first:-99999}" -le 1000 ]
wait $DRAIN
echo "# osdhist was back to $socks0 socket(s) $(cat "$W/drained") ms after the abuser left"
check "... within 1 s: connections the peer closed are released at once" [ "$(cat "$W/drained")" -le 1000 ]
ab() { jq -r "$1" "$W/abuser" 2>/dev/null; }
check "the abuser made at least 300 connections ($(ab .connects))" [ "$(ab .connects)" -ge 300 ]
check "the server refused or closed its connections ($(ab .closed_by_server))" [ "$(ab .closed_by_server)" -gt 300 ]

# --- no descriptor left behind: the abuser's connections are gone
fds1=$(stable_fds)
for _ in $(seq 10); do
	[ "$fds1" -le "$fds0" ] && break
	sleep 0.5
	fds1=$(stable_fds)
done
socks1=$(nsockets)
echo "# after the abuse: $fds1 fds open in osdhist, $socks1 sockets"
check_eq "osdhist's fd count is back to its value before the abuse" "$fds1" "$fds0"
check_eq "... and its socket count" "$socks1" "$socks0"

# --- the counting was unharmed
wait $BENCH
made=$(awk '/Total writes made/{print $4}' "$W/bench")
W1=$(perf_counter "$ID" osd op_w)
n=$(oh_snap)
check "a scrape after the snapshot is complete" scrape "$W/m1" 5
want=$((W1 - W0))
got=$(awk -v k="osdhist_op_latency_seconds_count{$SERIES}" '$1 == k { print $2 }' "$W/m1")
check_eq "scraped write _count = op_w delta ($want, bench made $made)" "$got" "$want"
check_eq "JSON write counts add up to the op_w delta" "$(oh_count 0 "$n" "$ID" write)" "$want"
check "the bench wrote ($made >= 100)" [ "${made:-0}" -ge 100 ]
lost=$(awk '/^osdhist_ops_lost_total\{/ { n += $2 } END { print n + 0 }' "$W/m1")
check_eq "no op lost (osdhist_ops_lost_total)" "$lost" 0

# --- the rejections are counted, by reason, in /metrics and in JSON
rej() { awk -v k="osdhist_http_rejected_total{reason=\"$1\"}" '$1 == k { print $2 }' "$W/m1"; }
health=$(sed -n "${n}p" "$TOUT")
for r in per_ip_limit request_timeout incomplete bad_request; do
	v=$(rej $r)
	j=$(jq -r ".http_rejected_$r" <<<"$health")
	echo "# rejected $r: $v in /metrics, $j in JSON"
	check "osdhist_http_rejected_total{reason=\"$r\"} > 0 ($v)" [ "${v:-0}" -gt 0 ]
	check "... the JSON health line has it too ($j)" [ "$j" -ge "$v" ]
done
echo "# rejected connection_limit: $(rej connection_limit), idle_timeout: $(rej idle_timeout)"
check_eq "connection_limit: none (one peer cannot reach it)" "$(rej connection_limit)" 0
check "promtool check metrics passes" promtool check metrics <"$W/m1"

# --- no crash
check "osdhist is alive" kill -0 "$TPID"
check "the OSD is alive" kill -0 "$PID"
kill -INT "$TPID"
wait "$TPID"
check_eq "osdhist exits 0 on SIGINT" "$?" 0
check "nothing alarming on osdhist's stderr" \
	bash -c "! grep -Eiv '^osdhist: (serving metrics|attached to ceph-osd|tracing)' '$TERR' | grep -q ."
finish
