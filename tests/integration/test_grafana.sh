#!/bin/bash
# Issue 14: the Grafana dashboard and the Prometheus rules, proven on a real
# Prometheus (Debian's) scraping a real osdhist during rados bench on a
# throwaway cluster.  promtool accepts the rules; Prometheus loads and
# evaluates them without error; EVERY PromQL expression of the dashboard
# (panels and variables) and of the rules returns a non-empty, finite result
# with the variables substituted; every alert's value exists and the alert
# does not fire on a healthy cluster; the cluster-wide p99 of the recording
# rule agrees with osdhist's own p99 for the same ops to within one exported
# bucket.  Ceph's own exporter (a second ceph-mgr running the prometheus
# module) is scraped too, for the panels that join on ceph_daemon.
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
for _ in $(seq 50); do
	ceph mgr dump 2>/dev/null | jq -e '.standbys | any(.name == "y")' >/dev/null && break
	sleep 0.2
done
ceph mgr fail x >/dev/null 2>&1
for _ in $(seq 100); do
	curl -sf "http://127.0.0.1:$MPORT/metrics" 2>/dev/null | grep -q '^ceph_osd_op_w{' && break
	sleep 0.2
done
check "Ceph's prometheus module serves ceph_osd_op_w on 127.0.0.1:$MPORT" \
	bash -c "curl -sf http://127.0.0.1:$MPORT/metrics | grep -q '^ceph_osd_op_w{ceph_daemon=\"osd.0\"}'"

# One snapshot per SIGUSR1 only (INTERVAL 1 h): the metrics Prometheus sees
# step once from snapshot S1 to S2, and the JSON interval S1 -> S2 holds
# exactly the ops of that step: osdhist's own p99 for the same window.
"$OSDHIST" --json -p "$PID0" --prometheus 127.0.0.1:0 3600 >"$W/out" 2>"$W/err" &
OHPID=$!
for _ in $(seq 100); do
	grep -q "attached to ceph-osd" "$W/err" && break
	sleep 0.1
done
PORT=$(sed -n 's|^osdhist: serving metrics on http://127\.0\.0\.1:\([0-9]*\)/metrics$|\1|p' "$W/err")
if [ -z "$PORT" ] || ! grep -q "attached to ceph-osd" "$W/err"; then
	cat "$W/err" >&2
	fail "osdhist did not start serving and attach"
	finish
fi
snap() {	# SIGUSR1, wait for the snapshot's health line
	local n
	n=$(grep -c '"type":"health"' "$W/out")
	kill -USR1 $OHPID
	for _ in $(seq 100); do
		[ "$(grep -c '"type":"health"' "$W/out")" -gt "$n" ] && return 0
		sleep 0.1
	done
	return 1
}

# Warm-up: reads and writes, so that their series exist in Prometheus
# before the measured window starts (rate() needs a sample before the step).
head -c 4096 /dev/urandom >"$W/obj"
for i in 1 2 3; do
	rados -p "$POOL" put "warm$i" "$W/obj" && rados -p "$POOL" get "warm$i" "$W/got"
done
check "snapshot S1 (after the warm-up)" snap

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
scraped_after() {	# T: wait until Prometheus has a sample of osdhist newer than T
	local ts
	for _ in $(seq 100); do
		ts=$(curl -sfG "$API/query" --data-urlencode 'query=timestamp(osdhist_build_info)' |
			jq -r '.data.result[0].value[1] // 0')
		jq -ne "$ts > $1" >/dev/null && return 0
		sleep 0.2
	done
	return 1
}
check "Prometheus scrapes osdhist" scraped_after "$(date +%s.%N)"
sleep 2	# a few samples of S1's values

# The measured window: writes, then reads of them.
rados -p "$POOL" bench 12 write -b 4096 -t 16 --no-cleanup >"$W/bench-w" 2>&1
rados -p "$POOL" bench 6 seq -t 16 >"$W/bench-r" 2>&1
check "snapshot S2 (after the bench)" snap
check "Prometheus scraped S2" scraped_after "$(date +%s.%N)"
sleep 3	# and evaluated the rules on it
T=$(date +%s.%N)

# osdhist's own p99 per class for S1 -> S2: the lines after S1's health line.
awk 'f; /"type":"health"/ { f = 1 }' "$W/out" |
	jq -c 'select(.type == "hist" and .phase == "total") | {class, count, p99_ns}' >"$W/own"
echo "# osdhist's own S1 -> S2: $(tr '\n' ' ' <"$W/own")"
BOUNDS=$(curl -sf "http://127.0.0.1:$PORT/metrics" |
	sed -n 's/^osdhist_op_latency_seconds_bucket{[^}]*class="write",phase="total",le="\([0-9.e+-]*\)"}.*/\1/p' |
	tr '\n' ',')

"$PY" - "$API" "$T" "$DASH" "$RULES" "$W/own" "$BOUNDS" >"$W/eval" 2>&1 <<'EOF'
import json, math, re, sys, urllib.parse, urllib.request
import yaml

api, t, dash_path, rules_path, own_path, bounds = sys.argv[1:7]
bounds = [float(b) for b in bounds.split(",") if b]

def say(ok, msg):
    print(("PASS " if ok else "FAIL ") + msg)

def get(path, **params):
    url = api + path + "?" + urllib.parse.urlencode(params, doseq=True)
    with urllib.request.urlopen(url, timeout=30) as r:
        return json.load(r)

def query(expr):
    return get("/query", query=expr, time=t)["data"]["result"]

def finite(result):
    vals = [float(s["value"][1]) for s in result]
    return bool(vals) and all(math.isfinite(v) for v in vals), vals

# Variables the way Grafana fills them: every value of the label, regex-
# escaped, joined by | (its multi-value format for =~).  Time macros: 1m,
# a value Grafana picks for a few hours' range, and long enough to hold
# the one S1 -> S2 step ($__rate_interval of a 1 s scrape would not).
def label_values(selector, label):
    return sorted({s["metric"].get(label) for s in query(selector)} - {None})

dash = json.load(open(dash_path))
macros = {"__rate_interval": "1m", "__interval": "1m", "__range": "5m"}
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

# The coverage panel is a check in itself: osdhist followed every op Ceph
# counted, give or take rate()'s extrapolation of two targets (10 %).
for where, e in exprs:
    if "Coverage" in where:
        ok, vals = finite(query(substitute(e)))
        say(ok and all(0.9 < v < 1.1 for v in vals),
            "%s: %s, each within 10 %% of 1" % (where, [round(v, 4) for v in vals]))

rules = yaml.safe_load(open(rules_path))
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
        say(not fired, "alert %s does not fire on a healthy cluster (%s)" % (r["alert"], fired))

# Every rule loaded, evaluated, no error.
groups = get("/rules")["data"]["groups"]
loaded = [r for g in groups for r in g["rules"]]
nrules = sum(len(g["rules"]) for g in rules["groups"])
say(len(loaded) == nrules, "Prometheus loaded all %d rules (%d)" % (nrules, len(loaded)))
bad = [(r["name"], r.get("lastError")) for r in loaded if r.get("health") != "ok"]
say(not bad, "every rule evaluated with health ok %s" % bad)

# The recording rule's cluster-wide p99 against osdhist's own.
def bucket(x):	# index k of the exported bucket (le[k-1], le[k]] holding x
    return sum(1 for b in bounds if b < x)
own = [json.loads(l) for l in open(own_path) if l.strip()]
p99 = {s["metric"]["class"]: float(s["value"][1])
       for s in recorded.get("class:osdhist_op_latency_seconds:p99_rate1m", [])}
compared = 0
for o in own:
    if o["count"] < 1000:
        continue
    c = o["class"]
    mine = o["p99_ns"] / 1e9
    if c not in p99:
        say(False, "class %s: no recorded cluster-wide p99" % c)
        continue
    d = abs(bucket(p99[c]) - bucket(mine))
    say(d <= 1, "class %s (%d ops): recorded p99 %.6f s, osdhist's p99 %.6f s: %d exported bucket(s) apart"
        % (c, o["count"], p99[c], mine, d))
    compared += 1
say(compared >= 2, "p99 compared for reads and writes (%d classes with >= 1000 ops)" % compared)
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
check "osdhist still running" kill -0 $OHPID
kill $MGRPID 2>/dev/null; wait $MGRPID 2>/dev/null
finish
