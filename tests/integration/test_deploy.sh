#!/bin/bash
# Issue 41: what deploys the image (`make image`, test_image) on cephadm and
# on Rook / Kubernetes, checked here without either (neither can run on
# these VMs; docs/deploy.md says what that leaves unproven).
# - dist/cephadm/osdhist.yaml: Ceph's own parser, as `ceph orch apply` runs
#   it, accepts it in 16.2.15 (the host), 18.2.7 and 20.2.4 (the release
#   chroots) and refuses it with one field misspelled; the fields it uses
#   are among CustomContainerSpec's, whose list is kept below with its
#   source; cephadm's own code (Debian's 16.2.15 package) turns it into a
#   `podman run` with the host PID namespace and the unit's capabilities,
#   and the image's own command.
# - dist/cephadm/prometheus-osdhist.yml passes promtool check config.
# - dist/kubernetes/*.yaml: every field of the DaemonSet and the Service
#   against the Kubernetes API schema (python3-kubernetes' models), of the
#   ServiceMonitor and the PrometheusRule against prometheus-operator's CRD
#   field lists (tests/integration/deploy_check.py); a misspelled field, a
#   bad duration, a rule without expr are each refused.  The pieces fit:
#   selectors, port names, namespaces, the capabilities, port and version
#   of the unit and the image, Rook's example labels.
# - dist/kubernetes/osdhist-rules.yaml is what scripts/k8s_rules.sh makes
#   from dist/prometheus/osdhist.rules.yml: the same file again, the same
#   groups, and promtool accepts its rules.
# packages: python3-yaml python3-kubernetes cephadm prometheus (promtool) jq
#   debootstrap (chroot_dir)
. "$(dirname "$0")/../lib.sh"

PY=/usr/bin/python3	# Debian's, with python3-yaml, python3-kubernetes, python3-ceph-common
CHECK=$LIB_ROOT/tests/integration/deploy_check.py
D=$LIB_ROOT/dist
SPEC=$D/cephadm/osdhist.yaml
K=$D/kubernetes
version=$(sed -n 's/^#define OSDHIST_VERSION "\(.*\)"$/\1/p' "$LIB_ROOT/loader/util/version.h")
UNIT=$D/osdhist.service.in
port=$(sed -n 's/^ExecStart=.*--prometheus 127\.0\.0\.1:\([0-9]*\) .*/\1/p' "$UNIT")
# the unit's capabilities as a container engine and Kubernetes name them
caps=$(sed -n 's/^CapabilityBoundingSet=//p' "$UNIT" | tr ' ' '\n' | sed 's/^CAP_//' | jq -Rsc 'split("\n") | map(select(. != ""))')
lib_mktemp B -d
yaml2json() { "$PY" -c 'import json, sys, yaml; print(json.dumps(list(yaml.safe_load_all(open(sys.argv[1])))))' "$1"; }

for f in "$SPEC" "$D"/cephadm/prometheus-osdhist.yml "$K"/*.yaml; do
	check "${f#"$LIB_ROOT"/} parses as YAML ($(yaml2json "$f" 2>&1 | jq 'length' 2>&1) documents)" \
		bash -c "$(declare -f yaml2json); PY=$PY; yaml2json '$f' | jq -e 'length > 0 and all(. != null)'"
done

# --- cephadm: Ceph's parser in each release
spec=$(yaml2json "$SPEC" | jq -c '.[0]')
bad=$(jq -c '.spec.argz = .spec.args | del(.spec.args)' <<<"$spec")
ceph_spec() {	# RELEASE-ROOT ("" = the host) JSON: deploy_check.py ceph-spec there
	if [ -z "$1" ]; then
		"$PY" -B "$CHECK" ceph-spec "$2"
	else	# nothing written in the chroot: -B, no mount
		chroot "$1" env -i PATH=/usr/bin:/bin python3 -B - ceph-spec "$2" <"$CHECK"
	fi
}
for rel in host reef tentacle; do
	root=""
	if [ "$rel" != host ] && ! root=$(chroot_dir "$rel"); then
		fail "$rel: no release chroot (scripts/chroots.sh $rel failed, see above)"
		continue
	fi
	if [ -n "$root" ]; then
		ceph=$(chroot_version "$rel" | awk '{print $3}')
	else
		ceph=$(dpkg-query -W -f '${Version}' python3-ceph-common | sed 's/[+-].*//')
	fi
	out=$(ceph_spec "$root" "$spec" 2>&1); rc=$?
	check_eq "Ceph $ceph's ServiceSpec.from_json + validate accept $(basename "$SPEC")" "$rc" 0
	[ "$rc" = 0 ] || { sed 's/^/    /' <<<"$out"; continue; }
	echo "$out" >"$B/parsed.$rel"
	check_eq "... as a CustomContainerSpec named container.osdhist" \
		"$(jq -r '[.class, .service_name] | join(" ")' <<<"$out")" "CustomContainerSpec container.osdhist"
	check_eq "... handing cephadm the image, the args and the port as written" \
		"$(jq -c '.config_json | {image, args, ports}' <<<"$out")" "$(jq -c '.spec | {image, args, ports}' <<<"$spec")"
	check_eq "... every field of the spec is one CustomContainerSpec takes" \
		"$(jq -r --argjson s "$spec" '[($s | keys[]), ($s.spec | keys[])] - .accepts - ["spec"] | join(" ")' <<<"$out")" ""
	out=$(ceph_spec "$root" "$bad" 2>&1); rc=$?
	check_eq "... and refuse it with 'args' misspelled ($out)" "$rc $(grep -c "unexpected keyword argument 'argz'" <<<"$out")" "1 1"
done
# The fields a custom container spec takes in Ceph 20.2.4 (the tentacle
# chroot, Debian's python3-ceph-common 20.2.4+ds-2, Ceph commit
# 7f793731f1b39eb4f465e960113d2363c311b964): the parameters of
# CustomContainerSpec.__init__ in src/python-common/ceph/deployment/
# service_spec.py.  Kept here so a release that changes them is noticed.
FIELDS_20='["service_type","service_id","config","networks","placement","unmanaged","preview_only","image","entrypoint","uid","gid","volume_mounts","args","envs","privileged","bind_mounts","ports","dirs","files","extra_container_args","extra_entrypoint_args","custom_configs","init_containers"]'
[ -f "$B/parsed.tentacle" ] &&
	check_eq "Ceph 20.2.4's CustomContainerSpec takes the fields listed here" \
		"$(jq -c .accepts "$B/parsed.tentacle")" "$FIELDS_20"
check_eq "the spec's fields are among them" \
	"$(jq -r --argjson f "$FIELDS_20" '[(keys[]), (.spec | keys[])] - $f - ["spec"] | join(" ")' <<<"$spec")" ""

# --- cephadm: the command its own code makes of the spec
cfg=$(jq -c .config_json "$B/parsed.host" 2>/dev/null)
out=$("$PY" -B "$CHECK" cephadm-cmd /usr/sbin/cephadm "$cfg" 2>&1); rc=$?
check_eq "cephadm $(dpkg-query -W -f '${Version}' cephadm 2>/dev/null)'s get_container() makes a podman run of it" "$rc" 0
[ "$rc" = 0 ] && echo "# $(jq -r 'join(" ")' <<<"$out")"
cmd=$(jq -c . <<<"$out" 2>/dev/null)
check_eq "... with every arg of the spec, in order" \
	"$(jq -c --argjson a "$(jq -c .spec.args <<<"$spec")" '[.[] | select(IN($a[]))] == $a' <<<"$cmd")" true
check_eq "... the host's PID namespace, all capabilities dropped, then the unit's $(jq -r 'join(" ")' <<<"$caps")" \
	"$(jq -c '[.[] | select(startswith("--pid") or startswith("--cap-"))]' <<<"$cmd")" \
	"$(jq -c '["--pid=host", "--cap-drop=ALL"] + map("--cap-add=" + .)' <<<"$caps")"
check_eq "... not privileged, no --entrypoint, the image last: its own command runs" \
	"$(jq -c '[any(.[]; . == "--privileged" or . == "--entrypoint"), .[-1]]' <<<"$cmd")" \
	"[false,$(jq -c .spec.image <<<"$spec")]"
check_eq "the spec's image is this version's ($version), its port the unit's ($port)" \
	"$(jq -r '[(.spec.image | split(":") | last), (.spec.ports | tostring)] | join(" ")' <<<"$spec")" \
	"$version [$port]"

# --- cephadm's Prometheus
P=$D/cephadm/prometheus-osdhist.yml
check "promtool check config $(basename "$P")" promtool check config "$P"
check_eq "its service discovery asks for this spec's service" \
	"$(yaml2json "$P" | jq -r '.[0].scrape_configs[0].http_sd_configs[0].url | sub(".*service="; "")')" \
	"$(jq -r '.service_type + "." + .service_id' <<<"$spec")"

# --- Kubernetes: the schema of every field
out=$("$PY" -B "$CHECK" k8s "$K"/*.yaml 2>&1); rc=$?
check_eq "every field of dist/kubernetes/*.yaml in its schema ($(tail -1 <<<"$out"))" "$rc" 0
[ "$rc" = 0 ] || sed 's/^/    /' <<<"$out"
"$PY" - "$K" "$B" <<'EOF'
import sys, yaml
k, b = sys.argv[1], sys.argv[2]
ds, svc = yaml.safe_load_all(open(k + '/osdhist.yaml'))
ds['spec']['template']['spec']['hostPid'] = True
ds['spec']['template']['spec']['containers'][0]['securityContext']['allowPrivilegeEscalation'] = False
ds['spec']['template']['spec']['containers'][0]['securityContext']['capabilities']['add'].append('CAP_SYS_ADMIN')
sm = yaml.safe_load(open(k + '/osdhist-monitor.yaml'))
sm['spec']['endpoints'][0]['interval'] = '15 s'
pr = yaml.safe_load(open(k + '/osdhist-rules.yaml'))
del pr['spec']['groups'][0]['rules'][0]['expr']
yaml.safe_dump_all([ds, svc, sm, pr], open(b + '/bad.yaml', 'w'))
EOF
out=$("$PY" -B "$CHECK" k8s "$B/bad.yaml" 2>&1); rc=$?
check_eq "... and with four faults put in: exit 1, four errors" "$rc $(tail -1 <<<"$out")" "1 4 documents, 4 errors"
for e in 'hostPid: no such field in V1PodSpec' "interval: not a duration: '15 s'" \
	'rules[0].expr: required, missing' 'allowPrivilegeEscalation false with privileged or CAP_SYS_ADMIN'; do
	check "... refused: $e" grep -qF -- "$e" <<<"$out"
done

# --- Kubernetes: the pieces fit
m=$(yaml2json "$K/osdhist.yaml")
ds=$(jq -c '.[] | select(.kind == "DaemonSet")' <<<"$m")
svc=$(jq -c '.[] | select(.kind == "Service")' <<<"$m")
sm=$(yaml2json "$K/osdhist-monitor.yaml" | jq -c '.[0]')
pr=$(yaml2json "$K/osdhist-rules.yaml" | jq -c '.[0]')
pod=$(jq -c .spec.template <<<"$ds")
ctr=$(jq -c '.spec.containers[0]' <<<"$pod")
check_eq "DaemonSet: the host's PID namespace" "$(jq .spec.hostPID <<<"$pod")" true
check_eq "... all capabilities dropped, the unit's added" \
	"$(jq -c '.securityContext.capabilities | [.drop, .add]' <<<"$ctr")" "[[\"ALL\"],$caps]"
check_eq "... not privileged, root, read-only root filesystem" \
	"$(jq -c '.securityContext | [.privileged, .runAsUser, .readOnlyRootFilesystem]' <<<"$ctr")" "[false,0,true]"
check_eq "... this version's image, its own command (no command, no args), the unit's port" \
	"$(jq -c '[(.image | split(":") | last), .command, .args, .ports[0].containerPort]' <<<"$ctr")" \
	"[\"$version\",null,null,$port]"
check_eq "... on Rook's example OSD nodes (label role=storage-node, taint storage-node)" \
	"$(jq -c '[.spec.nodeSelector, .spec.tolerations]' <<<"$pod")" \
	'[{"role":"storage-node"},[{"key":"storage-node","operator":"Exists"}]]'
check_eq "... its selector picks its own pods" \
	"$(jq -c --argjson p "$pod" '.spec.selector.matchLabels | to_entries | all($p.metadata.labels[.key] == .value)' <<<"$ds")" true
check_eq "Service: selects the DaemonSet's pods, port $port to the container's named port" \
	"$(jq -c --argjson p "$pod" --argjson c "$ctr" '[(.spec.selector | to_entries | all($p.metadata.labels[.key] == .value)),
		.spec.ports[0].port, (.spec.ports[0].targetPort == $c.ports[0].name)]' <<<"$svc")" "[true,$port,true]"
check_eq "ServiceMonitor: selects the Service, scrapes its port, in its namespace" \
	"$(jq -c --argjson s "$svc" '[(.spec.selector.matchLabels | to_entries | all($s.metadata.labels[.key] == .value)),
		(.spec.endpoints[0].port == $s.spec.ports[0].name), (.spec.namespaceSelector.matchNames == [$s.metadata.namespace])]' <<<"$sm")" \
	"[true,true,true]"
# Rook's example Prometheus (deploy/examples/monitoring/prometheus.yaml):
# serviceMonitorSelector team: rook; ruleSelector role: alert-rules,
# prometheus: rook-prometheus; in its own namespace, rook-ceph
check_eq "... and the rules: what Rook's example Prometheus selects, in rook-ceph" \
	"$(jq -nc --argjson a "$sm" --argjson b "$pr" --argjson d "$ds" --argjson s "$svc" '[$a.metadata.labels, $b.metadata.labels,
		([$a, $b, $d, $s] | map(.metadata.namespace) | unique)]')" \
	'[{"team":"rook"},{"prometheus":"rook-prometheus","role":"alert-rules"},["rook-ceph"]]'

# --- the PrometheusRule is dist/prometheus's rules
"$LIB_ROOT/scripts/k8s_rules.sh" "$B/rules.yaml"
check "scripts/k8s_rules.sh makes osdhist-rules.yaml again, the same (run it after editing the rules)" \
	diff -u "$K/osdhist-rules.yaml" "$B/rules.yaml"
rules=$(yaml2json "$D/prometheus/osdhist.rules.yml" | jq -c '.[0]')
check_eq "its groups are dist/prometheus/osdhist.rules.yml's ($(jq '[.groups[].rules[]] | length' <<<"$rules") rules, every expr)" \
	"$(jq -c .spec <<<"$pr")" "$(jq -c '{groups}' <<<"$rules")"
jq '.spec' <<<"$pr" >"$B/spec.json"
"$PY" -c 'import json, sys, yaml; yaml.safe_dump(json.load(open(sys.argv[1])), open(sys.argv[2], "w"))' \
	"$B/spec.json" "$B/spec.yml"
check "promtool check rules passes on its spec" promtool check rules "$B/spec.yml"
finish
