#!/bin/bash
# --top (issue 40) in a real terminal: tmux runs `osdhist --top 1` in a
# detached session of fixed size against a throwaway cluster of 12 OSDs
# under rados bench.  On the captured screen: every OSD's row, and every
# OSD's ops moving from a capture to a later one; after `p` the rows by
# p99; Enter shows the selected OSD's text output (its "osd.N CLASS
# total:" lines) and Esc brings the table back; h shows that OSD's latency
# heatmap, whose columns grow with the snapshots, c moves to the next
# class, Esc back to the table.  The terminal is given back after
# q and after SIGTERM: osdhist exits 0, the pane has left the alternate
# screen and shows its cursor again.  No timing is asserted: every wait
# is for a screen, with a generous timeout.
. "$(dirname "$0")/../lib.sh"

OSDHIST=${OSDHIST:-$LIB_ROOT/osdhist}
N=12
if ! command -v tmux >/dev/null; then
	fail "tmux is missing: apt-get install tmux (scripts/setup.sh installs it)"
	finish
fi
lib_mktemp WORK -d
TM=(tmux -L "osdhist-top-$$" -f /dev/null)
lib_on_exit "tmux -L osdhist-top-$$ kill-server"

FIRST=$(random_first_id $N) || { fail "no free OSD ids"; finish; }
cluster_up --osds $N --first-id "$FIRST" --pg 64 --timeout 240 || { fail "cluster start"; finish; }
echo "# OSD ids: $OSD_IDS"

# osdhist shows every ceph-osd of the host: room for every row of every
# one (6 classes each) besides ours, so none of ours is off screen.
H=$(( $(pgrep -c -x ceph-osd) * 6 + 16 ))
[ "$H" -ge 50 ] || H=50

# wait_screen NAME PYTHON-CONDITION: capture the pane into $WORK/NAME
# until the condition on its parse (s) holds, 60 s at most.
wait_screen() {
	local i
	for i in $(seq 600); do
		"${TM[@]}" capture-pane -p -t top >"$WORK/$1" 2>/dev/null &&
			python3 "$LIB_ROOT/tests/integration/top_screen.py" "$WORK/$1" \
				>"$WORK/$1.json" 2>>"$WORK/parse.err" &&
			python3 -c "import json,sys; s=json.load(open(sys.argv[1])); sys.exit(0 if ($2) else 1)" \
				"$WORK/$1.json" && return 0
		sleep 0.1
	done
	echo "# last screen ($1):" >&2; sed 's/^/#   /' "$WORK/$1" >&2
	return 1
}
pane() { "${TM[@]}" display -p -t top "$1"; }
# start_top: a new session running osdhist --top 1 (its pid in $WORK/pid,
# its exit status in $WORK/rc), then the shell waits: a dead pane would
# not tell whether the cursor was shown again.
start_top() {
	"${TM[@]}" kill-session -t top 2>/dev/null
	rm -f "$WORK/pid" "$WORK/rc"
	"${TM[@]}" new-session -d -s top -x 160 -y "$H" \
		"sh -c 'echo \$\$ >$WORK/pid; exec $OSDHIST --top 1 2>>$WORK/err'; echo \$? >$WORK/rc; sleep 3600"
}
wait_dead() { for _ in $(seq 600); do [ -s "$WORK/rc" ] && return 0; sleep 0.1; done; return 1; }
# the terminal as before: out of the alternate screen, the cursor shown
restored() {
	check_eq "$1: osdhist exits 0" "$(cat "$WORK/rc")" 0
	check_eq "$1: the pane left the alternate screen" "$(pane '#{alternate_on}')" 0
	check_eq "$1: the cursor is shown again" "$(pane '#{cursor_flag}')" 1
}

rados -p "$POOL" bench 600 write -b 4096 -t 8 --no-cleanup >/dev/null 2>&1 &
start_top
ours=$(printf '"osd.%s",' $OSD_IDS)
every="all(o in {r[0] for r in s['rows']} for o in [${ours%,}])"
check "the screen shows a row of every OSD (${OSD_IDS// /, })" wait_screen a "$every"
check "in the alternate screen meanwhile" test "$(pane '#{alternate_on}')" = 1
# each of our OSDs' ops (its rows summed): on a later capture, every one
# has other counts (a snapshot a second, the rows redrawn in place)
opsof="{o: sum(r[2] for r in s['rows'] if r[0] == o) for o in [${ours%,}]}"
A=$(python3 -c "import json; s=json.load(open('$WORK/a.json')); print(json.dumps($opsof))")
check "the counts move: a later screen where every OSD's ops differ from the first's" \
	wait_screen b "$every and all(v != ${A}[o] for o, v in ($opsof).items())"

"${TM[@]}" send-keys -t top p
check "p: the title says sort p99" wait_screen p "'sort p99' in s['title']"
check "p: the rows are in p99 order, the largest first ($(python3 -c "import json; print(len(json.load(open('$WORK/p.json'))['rows']))" 2>/dev/null) rows)" \
	wait_screen p2 "'sort p99' in s['title'] and len(s['rows']) >= $N and s['p99_sorted']"

"${TM[@]}" send-keys -t top Enter
check "Enter: one OSD's text output, its histogram lines" \
	wait_screen drill "s['drill'] and any(l.startswith(s['drill'] + ' ') for l in s['drill_lines'])"
D=$(python3 -c "import json; print(json.load(open('$WORK/drill.json'))['drill'])")
echo "# drilled into $D:"; grep -E '^osd\.\S+ \S+ total:' "$WORK/drill" | head -4 | sed 's/^/#   /'
check "Enter: only $D's lines, no other OSD's" python3 -c "import json,sys
s = json.load(open('$WORK/drill.json'))
sys.exit(0 if all(l.startswith('$D ') for l in s['drill_lines']) else 1)"
"${TM[@]}" send-keys -t top Escape
check "Esc: the table again, rows by p99" \
	wait_screen back "not s['drill'] and 'sort p99' in s['title'] and len(s['rows']) >= $N"

"${TM[@]}" send-keys -t top h
check "h: the selected row's heatmap, its OSD the one drilled into ($D), cells shaded" \
	wait_screen heat "s['heat'] and s['heat'][0] == '$D' and s['heat_cols'] >= 1 and s['heat_cells'] >= 1"
read -r HC HK < <(python3 -c "import json; s=json.load(open('$WORK/heat.json')); print(s['heat_cols'], s['heat'][1])")
echo "# the heatmap of $D $HK, $HC intervals:"; sed -n '2,$p' "$WORK/heat" | grep . | head -30 | sed 's/^/#   /'
check "the heatmap lives: more intervals on a later screen than $HC" \
	wait_screen heat2 "s['heat'] and s['heat_cols'] > $HC"
classes=(read write rw error pg subop)
for i in "${!classes[@]}"; do [ "${classes[$i]}" = "$HK" ] && NEXT=${classes[$(( (i + 1) % 6 ))]}; done
"${TM[@]}" send-keys -t top c
check "c: the next class's heatmap ($HK -> $NEXT), same OSD" \
	wait_screen heat3 "s['heat'] == ['$D', '$NEXT']"
"${TM[@]}" send-keys -t top Escape
check "Esc: the table again" wait_screen back2 "not s['heat'] and len(s['rows']) >= $N"

"${TM[@]}" send-keys -t top q
check "q: osdhist ends" wait_dead
restored "q"

start_top
check "again: the table" wait_screen c "$every"
kill -TERM "$(cat "$WORK/pid")"
check "SIGTERM: osdhist ends" wait_dead
restored "SIGTERM"
check "nothing on stderr but its start" \
	bash -c "! grep -v '^osdhist: \(attached\|tracing\|waiting\)' '$WORK/err' | grep -q ."
check "every screen parsed" bash -c "cat '$WORK/parse.err' >&2; test ! -s '$WORK/parse.err'"
finish
