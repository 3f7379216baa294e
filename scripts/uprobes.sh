#!/bin/bash
# uprobes.sh PID: the uprobes process PID holds, one line each:
#   KIND DEV:INODE OFFSET
# KIND is multi (a uprobe_multi link, from the link's fdinfo) or perf (a
# perf-event uprobe, from bpftool perf); DEV:INODE is the probed file's, or
# "gone" when that file has been deleted or cannot be resolved from here.
# bpftool cannot tell which process owns a link; the process's own fds can.
set -u
pid=${1:?usage: uprobes.sh PID}

resolve() { stat -L -c %d:%i "$1" 2>/dev/null || echo gone; }

for fd in /proc/"$pid"/fdinfo/*; do
	awk '
		/^link_type:/ { multi = ($2 == "uprobe_multi") }
		/^path:/ { sub(/^path:[ \t]*/, ""); path = $0 }
		multi && /^[0-9]+[ \t]+0x/ { print path "\t" $2 }
	' "$fd" 2>/dev/null
done | while IFS=$'\t' read -r path off; do
	case $path in *" (deleted)") ino=gone ;; *) ino=$(resolve "$path") ;; esac
	echo "multi $ino $off"
done

bpftool perf -j 2>/dev/null | jq -r --argjson p "$pid" \
	'.[] | select(.pid == $p and .fd_type == "uprobe") | "\(.filename)\t\(.offset)"' |
while IFS=$'\t' read -r f off; do
	# the path osdhist attached through: its own /proc/self/fd/N
	echo "perf $(resolve "${f/#\/proc\/self\//\/proc\/$pid\/}") $(printf 0x%x "$off")"
done
