#!/bin/bash
# scripts/bpf_helpers_used.sh PID: what the BPF programs process PID holds
# really contain, as the kernel kept them after verification: one
# "PROGRAM call HELPER COUNT" line per helper called, then one
# "PROGRAM xlated_insns N" line per program.  For tests: which helpers a
# loaded variant of bpf/ calls, whatever its source says.  The verifier
# inlines a bpf_loop call whose flags are 0 into a loop whose first test is
# its bound, BPF_MAX_LOOPS (0x800000): counted as "call bpf_loop" too.
set -euo pipefail
pid=$1
for fi in /proc/"$pid"/fdinfo/*; do
	awk '/^prog_id:/ {print $2}' "$fi" 2>/dev/null
done | sort -un | while read -r id; do
	name=$(bpftool -j prog show id "$id" | jq -r .name)
	bytes=$(bpftool -j prog show id "$id" | jq -r .bytes_xlated)
	bpftool prog dump xlated id "$id" |
		sed -nE 's/.*(call [a-z_0-9]+).*/\1/p; s/.*if r[0-9]+ [<>]=? 0x800000 goto.*/call bpf_loop/p' |
		sed 's/^call //' | sort | uniq -c | awk -v n="$name" '{print n, "call", $2, $1}'
	echo "$name xlated_insns $((bytes / 8))"
done
