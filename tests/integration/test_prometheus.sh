#!/bin/bash
# Issue 7: --prometheus and --textfile on a real throwaway cluster.  The
# exposition passes promtool; a real Prometheus server scrapes osdhist around
# rados bench and computes a p99; the exported write _count equals the OSD's
# op_w delta exactly, also after the HTTP endpoint has been abused (garbage,
# huge requests, POST, idle and 100 parallel connections).
# packages: prometheus (promtool, prometheus) curl python3 jq
. "$(dirname "$0")/../lib.sh"

OSDHIST=${OSDHIST:-$LIB_ROOT/osdhist}
cluster_up --osds 1 || { fail "cluster starts"; finish; }
PID0=$(osd_pid 0)
W=$CLUSTER_DIR/prom
mkdir -p "$W"
SERIES="$(osd_labels 0),class=\"write\",phase=\"total\""

# --- refusals: one line on stderr each, the documented exit codes
out=$("$OSDHIST" -p "$PID0" --prom-buckets 0.1,0.01 1 1 2>&1); rc=$?
check_eq "--prom-buckets not increasing: exit 2" "$rc" 2
check_eq "... with one line ($out)" "$(wc -l <<<"$out")" 1
out=$("$OSDHIST" -p "$PID0" --textfile /nonexistent/osdhist.prom 1 1 2>&1); rc=$?
check_eq "--textfile in a missing directory: exit 1" "$rc" 1
check "... with one line naming the path ($out)" \
	[ "$(wc -l <<<"$out")" = 1 -a -n "$(grep -F /nonexistent/osdhist.prom <<<"$out")" ]

# --- osdhist with JSON on stdout, /metrics on a free port, and a textfile
W0=$(perf_counter 0 osd op_w)
oh_serve -p "$PID0" --textfile "$W/osdhist.prom" 1 ||
	{ fail "osdhist did not start serving and attach"; finish; }
echo "# osdhist serves $URL"

out=$("$OSDHIST" -p "$PID0" --prometheus "127.0.0.1:$PORT" 1 1 2>&1); rc=$?
check_eq "port in use: exit 1" "$rc" 1
check "... one line naming the address and the cause ($out)" \
	[ "$(wc -l <<<"$out")" = 1 -a -n "$(grep -F "127.0.0.1:$PORT: Address already in use" <<<"$out")" ]

# The first snapshot comes after one interval; before it, 503.
for _ in $(seq 300); do
	[ "$(curl -s -o /dev/null -w '%{http_code}' "$URL")" = 200 ] && break
	sleep 0.1
done
check "GET /metrics answers 200 after the first snapshot" \
	curl -sf -D "$W/headers" -o "$W/m0" "$URL"
ctype=$(tr -d '\r' <"$W/headers" | sed -n 's/^[Cc]ontent-[Tt]ype: //p')
check_eq "Content-Type is the 0.0.4 text format" "$ctype" "text/plain; version=0.0.4; charset=utf-8"
check "promtool check metrics passes on /metrics" promtool check metrics <"$W/m0"
check "osdhist_build_info is there" grep -q '^osdhist_build_info{version="[0-9.]*"} 1$' "$W/m0"

# --- a real Prometheus scraping osdhist every 2 s (a timeout as long as
# the interval: a scrape late by 1 s on a loaded machine still counts)
cat >"$W/prometheus.yml" <<EOF
global:
  scrape_interval: 2s
  scrape_timeout: 2s
  evaluation_interval: 2s
scrape_configs:
  - job_name: osdhist
    static_configs:
      - targets: ['127.0.0.1:$PORT']
EOF
if ! start_prometheus; then
	fail "Prometheus did not start"
	finish
fi
API=http://127.0.0.1:$PPORT/api/v1
query() {	# PROMQL [TIME]: the JSON answer of an instant query
	curl -sfG "$API/query" --data-urlencode "query=$1" ${2:+--data-urlencode "time=$2"}
}
echo "# prometheus on 127.0.0.1:$PPORT"

# "TIME VALUE" of Prometheus' latest sample of the write _count once that
# value is above ABOVE (60 s at most: osdhist snapshots every second, and
# Prometheus scrapes every 2 s); nothing if it never is.
sample_above() { # ABOVE
	local r deadline=$((SECONDS + 60))
	while [ $SECONDS -lt $deadline ]; do
		r=$(query "osdhist_op_latency_seconds_count{$SERIES}" |
			jq -r --argjson a "$1" '.data.result[0].value // empty
				| select((.[1] | tonumber) > $a) | "\(.[0]) \(.[1])"')
		[ -n "$r" ] && { echo "$r"; return 0; }
		sleep 0.2
	done
	return 1
}
# One write first, so that the series has a sample from before the bench;
# then a rate() over a window from that sample to one taken after the
# bench's writes were counted holds the bench, whatever the scrapes missed
# or how long the bench took: two samples, the second one higher.
echo "before the bench" >"$W/obj"
rados -p "$POOL" put before-bench "$W/obj"
pre=$(sample_above 0) || pre=
made=$(rados -p "$POOL" bench 8 write -b 4096 -t 16 --no-cleanup | awk '/Total writes made/{print $4}')
post=
[ -z "$pre" ] || post=$(sample_above "${pre#* }") || post=
check "Prometheus has a write _count before ($pre) and after ($post) the bench" [ -n "$pre" -a -n "$post" ]
t0=${pre%% *} t=${post%% *}
win=$(jq -n "($t - $t0 | ceil) + 1")s
q="histogram_quantile(0.99, rate(osdhist_op_latency_seconds_bucket{class=\"write\",phase=\"total\"}[$win]))"
p99=$(query "$q" "$t" | jq -r '.data.result | if length == 1 then .[0].value[1] else "none" end')
echo "# Prometheus: $q at $t = $p99 s ($made writes made)"
check "Prometheus' p99 of writes is finite and positive ($p99 s)" \
	jq -ne "\"$p99\" | test(\"^[0-9.e+-]+\$\") and (tonumber > 0) and (tonumber < 100)"
up=$(query "max_over_time(up{job=\"osdhist\"}[$win])" "$t" | jq -r '.data.result[0].value[1]')
check_eq "Prometheus sees the target up (over the bench)" "$up" 1

# The count: a snapshot read after op_w's reading holds every op up to it
# (oh_snap); its time, also in osdhist_last_snapshot_timestamp_seconds.
snap() {	# prints the time of a snapshot read after the call
	local l
	l=$(oh_snap) || return 1
	head -n "$l" "$TOUT" | grep '"type":"health"' | tail -n 1 | jq .time
}
# /metrics into FILE once it serves the snapshot of TIME or a later one: the
# health line is printed before the exposition is published (30 s at most)
published() { # FILE TIME
	local deadline=$((SECONDS + 30))
	until curl -sf -o "$1" "$URL" && awk -v t="$2" '
		$1 == "osdhist_last_snapshot_timestamp_seconds" { ok = $2 + 0 >= t + 0 }
		END { exit !ok }' "$1"; do
		[ $SECONDS -lt $deadline ] || return 1
		sleep 0.05
	done
}
metric() {	# FILE NAME{LABELS}: the value of one sample
	awk -v k="$2" '$1 == k { print $2 }' "$1"
}
W1=$(perf_counter 0 osd op_w)
t_snap=$(snap)
check "/metrics serves a snapshot read after op_w's reading (${t_snap:-none})" published "$W/m1" "${t_snap:-9e99}"
want=$((W1 - W0))
got=$(metric "$W/m1" "osdhist_op_latency_seconds_count{$SERIES}")
check_eq "scraped write _count = op_w delta ($want)" "$got" "$want"
check "op_w delta covers the bench ($want >= $made)" [ "$want" -ge "$made" ]
jsum=$(jq -s "[.[] | select(.type==\"hist\" and .osd==0 and .class==\"write\" and .phase==\"total\") | .count] | add" "$TOUT")
check_eq "JSON on stdout alongside: write counts add up to op_w delta" "$jsum" "$want"
check "promtool check metrics passes after the bench" promtool check metrics <"$W/m1"

# Shape of the exported histogram: increasing le ending with +Inf, counts
# never decreasing, +Inf = _count, _sum = the JSON sum_ns in seconds.
shape=$(awk -v s="osdhist_op_latency_seconds_bucket{$SERIES,le=\"" '
	index($1, s) == 1 {
		le = substr($1, length(s) + 1); sub(/"}$/, "", le)
		if (le == "+Inf") { inf = $2; n++; next }
		if (n && le + 0 <= last) bad = "le not increasing at " le
		if ($2 < prev) bad = "count decreasing at " le
		last = le + 0; prev = $2; n++
	}
	END { if (inf == "") bad = bad " no +Inf"; if (inf < prev) bad = bad " +Inf below last"
	      print (bad == "" ? "ok " n " " inf : bad) }' "$W/m1")
check "buckets: $shape" [ "${shape%% *}" = ok ]
check_eq "+Inf bucket = _count" "$(cut -d' ' -f3 <<<"$shape")" "$got"
check_eq "19 buckets with the default bounds" "$(cut -d' ' -f2 <<<"$shape")" 19
sum_ns=$(jq -s "[.[] | select(.type==\"hist\" and .osd==0 and .class==\"write\" and .phase==\"total\") | .sum_ns] | add" "$TOUT")
check_eq "_sum = JSON sum_ns / 1e9, exactly" \
	"$(metric "$W/m1" "osdhist_op_latency_seconds_sum{$SERIES}")" \
	"$(awk -v n="$sum_ns" 'BEGIN { s = sprintf("%d.%09d", n / 1e9, n % 1e9); sub(/0+$/, "", s); sub(/\.$/, "", s); print s }')"

# Prometheus' own latest value, once it has scraped that snapshot or a
# later one (60 s at most for a 2 s scrape interval).
for _ in $(seq 300); do
	ts=$(query "osdhist_last_snapshot_timestamp_seconds" | jq -r '.data.result[0].value[1] // 0')
	jq -ne "$ts >= ${t_snap:-9e99}" >/dev/null && break
	sleep 0.2
done
pcount=$(query "osdhist_op_latency_seconds_count{$SERIES}" | jq -r '.data.result[0].value[1]')
check_eq "Prometheus' latest write _count = op_w delta" "$pcount" "$want"

# --- abuse of the endpoint: bounded, loopback only
python3 - "$PORT" >"$W/abuse" 2>&1 <<'EOF'
import socket, sys, threading, time
port = int(sys.argv[1])

def talk(data, timeout=15):
    """Send data, read until the server closes: the status line, or '' if
    it closed without answering."""
    s = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    out = b""
    try:
        s.sendall(data)
        while True:
            b = s.recv(65536)
            if not b:
                break
            out += b
    except OSError as e:
        out = out or ("error " + str(e)).encode()
    s.close()
    return out.split(b"\r\n")[0].decode("latin1"), out

def status(data):
    return talk(data)[0]

print("garbage", status(b"\x00\xff\x13\x10 garbage \xfe\r\n\r\n") or "closed")
print("hugeheader", status(b"GET /metrics HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 70000 + b"\r\n\r\n") or "closed")
print("hugeurl", status(b"GET /metrics?" + b"a" * 100000 + b" HTTP/1.1\r\nHost: x\r\n\r\n") or "closed")
print("post", status(b"POST /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello"))
print("other", status(b"GET /other HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"))
line, raw = talk(b"HEAD /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
print("head", line, "body", len(raw.split(b"\r\n\r\n", 1)[1]))
print("getbody", status(b"GET /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello") or "closed")
line, raw = talk(b"GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n"
                 b"GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
print("keepalive", raw.count(b"HTTP/1.1 200 OK\r\n"))

# 20 idle clients (more than the 16 connections served at once): a scrape
# still gets through once their 5 s timeout frees the slots.
idle = [socket.create_connection(("127.0.0.1", port), timeout=30) for _ in range(20)]
time.sleep(0.5)
t0 = time.time()
print("scrape_while_idle", status(b"GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"))
closed = 0
for s in idle[:16]:
    s.settimeout(10)
    try:
        closed += s.recv(1) == b""
    except OSError:
        pass
print("idle_closed_by_server", closed)
for s in idle:
    s.close()

res = []
def get():
    try:
        res.append(status(b"GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"))
    except OSError as e:
        res.append("error " + str(e))
threads = [threading.Thread(target=get) for _ in range(100)]
for t in threads:
    t.start()
for t in threads:
    t.join()
print("parallel_ok", sum(r.startswith("HTTP/1.1 200") for r in res))
EOF
sed 's/^/# abuse: /' "$W/abuse"
ab() { sed -n "s/^$1 //p" "$W/abuse"; }
check "garbage bytes: refused (4xx or closed): $(ab garbage)" \
	grep -Eq '^garbage (HTTP/1.1 4|closed)' "$W/abuse"
check_eq "headers > 64 KiB: 431" "$(ab hugeheader)" "HTTP/1.1 431 Request Header Fields Too Large"
check_eq "100 KiB URL: 414" "$(ab hugeurl)" "HTTP/1.1 414 URI Too Long"
check_eq "POST /metrics: 405" "$(ab post)" "HTTP/1.1 405 Method Not Allowed"
check_eq "GET /other: 404" "$(ab other)" "HTTP/1.1 404 Not Found"
check_eq "HEAD /metrics: 200, no body" "$(ab head)" "HTTP/1.1 200 OK body 0"
check_eq "GET with a body: connection dropped" "$(ab getbody)" closed
check_eq "two GETs on one kept-alive connection: two 200" "$(ab keepalive)" 2
check_eq "a scrape gets through 20 idle connections" "$(ab scrape_while_idle)" "HTTP/1.1 200 OK"
check_eq "idle connections are closed by the server" "$(ab idle_closed_by_server)" 16
check_eq "100 parallel scrapes: all 200" "$(ab parallel_ok)" 100

# --- after the abuse: alive, serving, and still counting exactly
check "osdhist survived" kill -0 $TPID
rados -p "$POOL" bench 3 write -b 4096 -t 16 --no-cleanup >/dev/null
W2=$(perf_counter 0 osd op_w)
t_snap=$(snap)
check "after the abuse: /metrics serves a snapshot read after op_w's reading" published "$W/m2" "${t_snap:-9e99}"
want=$((W2 - W0))
check_eq "after the abuse: write _count = op_w delta ($want)" \
	"$(metric "$W/m2" "osdhist_op_latency_seconds_count{$SERIES}")" "$want"
lost=$(awk '/^osdhist_ops_lost_total\{/ { n += $2 } END { print n + 0 }' "$W/m2")
check_eq "no op lost (osdhist_ops_lost_total)" "$lost" 0
check "promtool check metrics passes after the abuse" promtool check metrics <"$W/m2"

# --- SIGINT: the final snapshot lands in the textfile too
kill -INT $TPID
wait $TPID
check_eq "osdhist exits 0 on SIGINT" "$?" 0
check "the textfile passes promtool" promtool check metrics <"$W/osdhist.prom"
check_eq "textfile write _count = op_w delta" \
	"$(metric "$W/osdhist.prom" "osdhist_op_latency_seconds_count{$SERIES}")" "$want"
check_eq "the textfile is mode 0644" "$(stat -c %a "$W/osdhist.prom")" 644
check_eq "no temp file left beside it" "$(ls "$W" | grep -c '^osdhist\.prom\.')" 0

kill $PROMPID 2>/dev/null
wait $PROMPID 2>/dev/null
finish
