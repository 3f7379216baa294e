#!/bin/bash
# Issue 14: the Grafana dashboard and the Prometheus rules, proven on a real
# Prometheus (Debian's) scraping a real osdhist during rados bench on a
# throwaway cluster.  promtool accepts the rules; Prometheus loads and
# evaluates them without error; EVERY PromQL expression of the dashboard
# (panels and variables) and of the rules returns a non-empty, finite result
# with the variables substituted; every alert's value exists and the alerts
# on osdhist's own health do not fire; the coverage panel's two series move
# by exactly the same number of ops over the bench; Prometheus' p99 of the
# exported buckets' S1 -> S2 difference agrees with osdhist's own p99 for
# the same ops to within one exported bucket.  Ceph's own exporter (a second
# ceph-mgr running the prometheus module) is scraped too, for the panels
# that join on ceph_daemon.
# packages: prometheus (promtool, prometheus) curl jq python3-yaml ceph-mgr
#   ceph-mgr-modules-core (the prometheus module)
. "$(dirname "$0")/../lib.sh"

OSDHIST=${OSDHIST:-$LIB_ROOT/osdhist}
RULES=$LIB_ROOT/dist/prometheus/osdhist.rules.yml
DASH=$LIB_ROOT/dist/grafana/osdhist.json
PY=/usr/bin/python3	# Debian's, with python3-yaml

check "promtool check rules passes on $(basename "$RULES")" promtool check rules "$RULES"
check "the dashboard is valid JSON" jq -e .panels "$DASH"

cluster_up --osds 1
PID0=$(osd_pid 0)
W=$CLUSTER_DIR/grafana
mkdir -p "$W"

# Ceph's own exporter, for the panels that join on ceph_daemon: the
# cluster's mgr.x runs no python module, so a second mgr (ours, a job of
# this shell, killed on exit) runs the prometheus module alone, on a port of
# its own, and takes over.
MPORT=$((20000 + RANDOM % 30000))
mkdir -p "$W/mods" "$W/mgr.y"
for m in prometheus mgr_module.py mgr_util.py; do ln -s "/usr/share/ceph/mgr/$m" "$W/mods/$m"; done
ceph config set mgr mgr/prometheus/server_addr 127.0.0.1 --force >/dev/null 2>&1
ceph config set mgr mgr/prometheus/server_port "$MPORT" --force >/dev/null 2>&1
ceph config set mgr mgr/prometheus/scrape_interval 1 --force >/dev/null 2>&1
ceph mgr module enable prometheus --force >/dev/null 2>&1
ceph auth get-or-create mgr.y mon 'allow profile mgr' osd 'allow *' mds 'allow *' >"$W/mgr.y/keyring"
ceph-mgr -f -c "$CEPH_CONF" -i y --mgr_module_path="$W/mods" --mgr_data="$W/mgr.y" \
	>"$W/mgr.y.out" 2>&1 &
MGRPID=$!
# a mgr with python modules takes seconds to start, many on a loaded
# machine: 60 s for each step
deadline=$((SECONDS + 60))
until ceph mgr dump 2>/dev/null | jq -e '.standbys | any(.name == "y")' >/dev/null; do
	[ $SECONDS -lt $deadline ] || break
	sleep 0.2
done
ceph mgr fail x >/dev/null 2>&1
deadline=$((SECONDS + 60))
until curl -sf "http://127.0.0.1:$MPORT/metrics" 2>/dev/null | grep -q '^ceph_osd_op_w{'; do
	[ $SECONDS -lt $deadline ] || break
	sleep 0.2
done
check "Ceph's prometheus module serves ceph_osd_op_w on 127.0.0.1:$MPORT" \
	bash -c "curl -sf http://127.0.0.1:$MPORT/metrics | grep -q '^ceph_osd_op_w{ceph_daemon=\"osd.0\"}'"

# One snapshot per SIGUSR1 only (INTERVAL 1 h): the metrics Prometheus sees
# step once from snapshot S1 to S2, and the JSON interval S1 -> S2 holds
# exactly the ops of that step: osdhist's own p99 for the same window.
oh_serve -p "$PID0" 3600 || { fail "osdhist did not start serving and attach"; finish; }
# A snapshot read after the call (oh_snap): SNAP_LINES, the output's lines
# up to its health line, and SNAP_TIME, its time, which /metrics serves as
# osdhist_last_snapshot_timestamp_seconds once it is published.
snap() {
	SNAP_LINES=$(oh_snap) || return 1
	SNAP_TIME=$(head -n "$SNAP_LINES" "$TOUT" | grep '"type":"health"' | tail -n 1 | jq .time)
}

# Warm-up: reads and writes, so that their series exist in Prometheus
# before the measured window starts (rate() needs a sample before the step).
head -c 4096 /dev/urandom >"$W/obj"
for i in 1 2 3; do
	rados -p "$POOL" put "warm$i" "$W/obj" && rados -p "$POOL" get "warm$i" "$W/got"
done
if snap; then pass "snapshot S1 (after the warm-up)"; else fail "snapshot S1 (after the warm-up)"; fi
S1_LINES=$SNAP_LINES S1_TIME=$SNAP_TIME

cat >"$W/prometheus.yml" <<EOF
global:
  scrape_interval: 1s
  scrape_timeout: 1s
  evaluation_interval: 1s
rule_files:
  - $RULES
scrape_configs:
  - job_name: osdhist
    static_configs:
      - targets: ['127.0.0.1:$PORT']
  - job_name: ceph
    honor_labels: true
    static_configs:
      - targets: ['127.0.0.1:$MPORT']
EOF
check "promtool check config passes (with the rules file)" promtool check config "$W/prometheus.yml"
if ! start_prometheus; then
	fail "Prometheus did not start"
	finish
fi
API=http://127.0.0.1:$PPORT/api/v1
echo "# prometheus on 127.0.0.1:$PPORT, osdhist on 127.0.0.1:$PORT"
prom_value() {	# EXPR: the value of its (first) result now, or nothing
	curl -sfG "$API/query" --data-urlencode "query=$1" | jq -r '.data.result[0].value[1] // empty'
}
wait_prom() {	# EXPR WANT SECONDS: until EXPR's value is WANT (as numbers)
	local v deadline=$((SECONDS + $3))
	while [ $SECONDS -lt $deadline ]; do
		v=$(prom_value "$1")
		[ -n "$v" ] && jq -ne "$v == $2" >/dev/null 2>&1 && return 0
		sleep 0.2
	done
	echo "$1 = ${v:-none} after $3 s, want $2"
	return 1
}
# Ceph's exporter serves what the OSD last reported to the mgr (every 5 s,
# mgr_stats_period): wait until Prometheus' ceph_osd_op_w and ceph_osd_op_r
# of osd.0 are perf dump's (nothing else does ops meanwhile).
ceph_caught_up() {	# SECONDS
	wait_prom 'ceph_osd_op_w{ceph_daemon="osd.0"}' "$(perf_counter 0 osd op_w)" "$1" &&
		wait_prom 'ceph_osd_op_r{ceph_daemon="osd.0"}' "$(perf_counter 0 osd op_r)" "$1"
}
# The recording rules evaluated on S2: their p99 of reads and writes is
# finite only if the 1m window of that evaluation held the S1 -> S2 step.
recorded_on_s2() {	# SECONDS
	local deadline=$((SECONDS + $1))
	while [ $SECONDS -lt $deadline ]; do
		curl -sfG "$API/query" --data-urlencode 'query=class:osdhist_op_latency_seconds:p99_rate1m{class=~"read|write"}' |
			jq -e '[.data.result[] | .value[1] | select(test("^[0-9.e+-]+$"))] | length == 2' >/dev/null && return 0
		sleep 0.2
	done
	return 1
}
check "Prometheus scraped S1" wait_prom osdhist_last_snapshot_timestamp_seconds "$S1_TIME" 60
check "Ceph's exporter, in Prometheus, caught up with perf dump before the bench" ceph_caught_up 60
TPRE=$(date +%s.%N)

# The measured window: writes, then reads of them.
rados -p "$POOL" bench 12 write -b 4096 -t 16 --no-cleanup >"$W/bench-w" 2>&1
rados -p "$POOL" bench 6 seq -t 16 >"$W/bench-r" 2>&1
if snap; then pass "snapshot S2 (after the bench)"; else fail "snapshot S2 (after the bench)"; fi
S2_TIME=$SNAP_TIME
# 30 s each, so that T is less than 60 s after S2: the stale-snapshot alert
# (120 s) cannot fire on a correct osdhist
check "Prometheus scraped S2" wait_prom osdhist_last_snapshot_timestamp_seconds "$S2_TIME" 30
check "the recording rules evaluated on S2 (p99 of reads and writes finite)" recorded_on_s2 30
# T: that evaluation's time; every expression is evaluated there
T=$(prom_value 'max(timestamp(class:osdhist_op_latency_seconds:p99_rate1m))')
T=${T:-$(date +%s.%N)}
check "Ceph's exporter, in Prometheus, caught up with perf dump after the bench" ceph_caught_up 60
T2=$(date +%s.%N)	# the coverage is compared at TPRE and T2

# osdhist's own p99 per class for S1 -> S2: the lines after S1's health line.
sed -n "$((S1_LINES + 1)),\$p" "$TOUT" |
	jq -c 'select(.type == "hist" and .phase == "total") | {class, count, p99_ns}' >"$W/own"
echo "# osdhist's own S1 -> S2: $(tr '\n' ' ' <"$W/own")"
BOUNDS=$(curl -sf "http://127.0.0.1:$PORT/metrics" |
	sed -n 's/^osdhist_op_latency_seconds_bucket{[^}]*class="write",phase="total",le="\([0-9.e+-]*\)"}.*/\1/p' |
	tr '\n' ',')

"$PY" - "$API" "$T" "$DASH" "$RULES" "$W/own" "$BOUNDS" "$TPRE" "$T2" >"$W/eval" 2>&1 <<'EOF'
import json, math, re, sys, urllib.parse, urllib.request
import yaml

api, t, dash_path, rules_path, own_path, bounds, tpre, t2 = sys.argv[1:9]
bounds = [float(b) for b in bounds.split(",") if b]

def say(ok, msg):
    print(("PASS " if ok else "FAIL ") + msg)

def get(path, **params):
    url = api + path + "?" + urllib.parse.urlencode(params, doseq=True)
    with urllib.request.urlopen(url, timeout=30) as r:
        return json.load(r)

def query(expr, at=None):
    return get("/query", query=expr, time=at or t)["data"]["result"]

def finite(result):
    vals = [float(s["value"][1]) for s in result]
    return bool(vals) and all(math.isfinite(v) for v in vals), vals

# Variables the way Grafana fills them: every value of the label, regex-
# escaped, joined by | (its multi-value format for =~).  Time macros: 1m,
# a value Grafana picks for a few hours' range, or longer if the bench took
# longer: the windows must hold samples from before the bench (TPRE, when
# Ceph's exporter had caught up and osdhist's S1 was scraped) so that
# osdhist's one S1 -> S2 step and Ceph's counters' moves are in them
# ($__rate_interval of a 1 s scrape would not).
def label_values(selector, label):
    return sorted({s["metric"].get(label) for s in query(selector)} - {None})

dash = json.load(open(dash_path))
ri = "%ds" % max(60, math.ceil(float(t) - float(tpre)) + 5)
print("rate interval %s (T - TPRE = %.1f s)" % (ri, float(t) - float(tpre)))
macros = {"__rate_interval": ri, "__interval": ri, "__range": "5m"}
values = {}

def substitute(expr):
    def one(m):
        name = m.group(1) or m.group(2)
        if name in macros:
            return macros[name]
        vals = values[name]
        return "|".join(re.sub(r"([\\.^$*+?()\[\]{}|])", r"\\\\\1", v) for v in vals)
    return re.sub(r"\$\{(\w+)\}|\$(\w+)", one, expr)

for v in dash["templating"]["list"]:
    if v["type"] != "query":
        continue
    q = v["query"]["query"] if isinstance(v["query"], dict) else v["query"]
    m = re.fullmatch(r"label_values\((.*),\s*(\w+)\)", q.strip())
    if not m:
        say(False, "variable %s: not label_values(SELECTOR, LABEL): %s" % (v["name"], q))
        continue
    sel = substitute(m.group(1))
    vals = label_values(sel, m.group(2))
    values[v["name"]] = vals
    say(bool(vals), "variable $%s = %s (from %s)" % (v["name"], vals, sel))

exprs = []
def walk(p):
    for tg in p.get("targets", []):
        exprs.append(("panel '%s'" % p["title"], tg["expr"]))
    for sub in p.get("panels", []):
        walk(sub)
for p in dash["panels"]:
    walk(p)
for where, e in exprs:
    s = substitute(e)
    if "$" in s:
        say(False, "%s: unsubstituted variable in %s" % (where, s))
        continue
    ok, vals = finite(query(s))
    say(ok, "%s: %d series, all finite %s" % (where, len(vals), [round(x, 6) for x in vals[:4]]))

# The coverage panel is a check in itself, but its ratio of two rate()s
# extrapolates two targets scraped at different times: it is only checked
# finite above.  Exactly: its numerator and denominator without rate(), raw
# counters, moved by the same number of ops from TPRE to T2.  osdhist steps
# once, S1 -> S2, and both times are after Ceph's exporter showed perf
# dump's counters: both differences are the bench's ops.
def by_daemon(res):
    return {s["metric"].get("ceph_daemon"): float(s["value"][1]) for s in res}

for where, e in exprs:
    if "Coverage" not in where:
        continue
    raw = re.sub(r"rate\((.*?)\[\$__rate_interval\]\)", r"\1", e)
    # group_left: osdhist's series carry the cluster label, Ceph's not
    parts = re.split(r" / on \(ceph_daemon\) (?:group_left(?:\(\))? )?", raw)
    if len(parts) != 2 or "rate(" in raw:
        say(False, "%s: not SUM(rate(OSDHIST)) / on (ceph_daemon) [group_left] SUM(rate(CEPH)): %s" % (where, e))
        continue
    num, den = (substitute(x) for x in parts)
    n0, n1 = by_daemon(query(num, tpre)), by_daemon(query(num, t2))
    d0, d1 = by_daemon(query(den, tpre)), by_daemon(query(den, t2))
    dn = {k: v - n0.get(k, 0) for k, v in n1.items()}
    dd = {k: v - d0.get(k, 0) for k, v in d1.items()}
    say(bool(dn) and dn == dd and all(v > 0 for v in dn.values()),
        "%s: osdhist's ops %s = Ceph's %s over the bench, exactly" % (where, dn, dd))

rules = yaml.safe_load(open(rules_path))
# Alerts on the cluster's latency: a loaded test machine may well have a
# p99 above 500 ms, and a correct osdhist then reports it.  Their value is
# checked (finite); whether they fire says nothing of osdhist.
CLUSTER_ALERTS = {"OsdhistOpLatencyP99High"}
recorded = {}
for g in rules["groups"]:
    for r in g["rules"]:
        e = r["expr"]
        if "record" in r:
            ok, vals = finite(query(e))
            say(ok, "rule %s: %d series, all finite" % (r["record"], len(vals)))
            recorded[r["record"]] = query(r["record"])
            continue
        # "VALUE > THRESHOLD": the value exists and is finite; the alert is quiet.
        m = re.fullmatch(r"(.*\S)\s*>\s*([0-9.]+)", e.strip(), re.S)
        if not m:
            say(False, "alert %s: not of the form VALUE > THRESHOLD" % r["alert"])
            continue
        ok, vals = finite(query(m.group(1)))
        say(ok, "alert %s: its value has %d series, all finite %s" % (r["alert"], len(vals), vals[:4]))
        fired = query(e)
        if r["alert"] in CLUSTER_ALERTS:
            print("alert %s (about the cluster, not osdhist): %s" % (r["alert"], fired or "quiet"))
            continue
        say(not fired, "alert %s does not fire on a healthy cluster (%s)" % (r["alert"], fired))

# Every rule loaded, evaluated, no error.
groups = get("/rules")["data"]["groups"]
loaded = [r for g in groups for r in g["rules"]]
nrules = sum(len(g["rules"]) for g in rules["groups"])
say(len(loaded) == nrules, "Prometheus loaded all %d rules (%d)" % (nrules, len(loaded)))
bad = [(r["name"], r.get("lastError")) for r in loaded if r.get("health") != "ok"]
say(not bad, "every rule evaluated with health ok %s" % bad)

# Prometheus' p99 against osdhist's own, for the same ops: the S1 -> S2
# difference of the exported buckets (raw, at T2 and at TPRE: no rate()
# extrapolation, which scales each bucket a little differently).  Both
# take rank 0.99 * N: Prometheus lands in the exported bucket k holding
# the fine bucket F where osdhist lands (an exported le counts a fine
# bucket only once wholly below it), and osdhist's value lies in F, which
# reaches at most one exported bucket below k, or 1 ns above le[k]: at most
# one bucket apart, for any N.  The recording rule's p99 (rate[1m]) is shown.
def bucket(x):	# index k of the exported bucket (le[k-1], le[k]] holding x
    return sum(1 for b in bounds if b < x)
own = [json.loads(l) for l in open(own_path) if l.strip()]
p99 = {s["metric"]["class"]: float(s["value"][1])
       for s in recorded.get("class:osdhist_op_latency_seconds:p99_rate1m", [])}
sel = 'osdhist_op_latency_seconds_bucket{phase="total"}'
step = {s["metric"]["class"]: float(s["value"][1]) for s in query(
    "histogram_quantile(0.99, sum by (le, class) (%s - %s @ %s))" % (sel, sel, tpre), t2)}
compared = set()
for o in own:
    c = o["class"]
    if o["count"] == 0 or c not in ("read", "write"):
        continue
    mine = o["p99_ns"] / 1e9
    if c not in step or not math.isfinite(step[c]):
        say(False, "class %s: no p99 of the S1 -> S2 buckets (%s)" % (c, step.get(c)))
        continue
    d = abs(bucket(step[c]) - bucket(mine))
    say(d <= 1, "class %s (%d ops): Prometheus' p99 of S1 -> S2 %.6f s, osdhist's p99 %.6f s: "
        "%d exported bucket(s) apart (recording rule's rate1m p99 %s)"
        % (c, o["count"], step[c], mine, d, p99.get(c)))
    compared.add(c)
say(compared == {"read", "write"}, "p99 compared for reads and writes (%s)" % sorted(compared))
EOF
rc=$?
while IFS= read -r line; do
	case $line in
	"PASS "*) pass "${line#PASS }" ;;
	"FAIL "*) fail "${line#FAIL }" ;;
	*) echo "    $line" ;;
	esac
done <"$W/eval"
check_eq "the evaluator ran to its end" "$rc" 0
check "osdhist still running" kill -0 $TPID
kill $MGRPID 2>/dev/null; wait $MGRPID 2>/dev/null
finish
