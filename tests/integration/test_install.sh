#!/bin/bash
# Issue 7: `make install` puts the binary, the systemd unit and the man page
# in place (issue 14: and the dashboard and rules in DATADIR); the unit
# passes systemd-analyze verify and names the installed binary; the man page
# renders without a warning and documents every option of --help.  No
# cluster needed.
# packages: make systemd (systemd-analyze) man-db groff-base
. "$(dirname "$0")/../lib.sh"

cd "$LIB_ROOT" || exit 1
lib_mktemp D -d
unit=$D/usr/lib/systemd/system/osdhist.service
man8=$D/usr/share/man/man8/osdhist.8

check "make install DESTDIR=... PREFIX=/usr" make -s install DESTDIR="$D" PREFIX=/usr
check_eq "exactly five files installed" "$(cd "$D" && find . -type f | sort | tr '\n' ' ')" \
	"./usr/bin/osdhist ./usr/lib/systemd/system/osdhist.service ./usr/share/man/man8/osdhist.8 \
./usr/share/osdhist/grafana/osdhist.json ./usr/share/osdhist/prometheus/osdhist.rules.yml "
for f in grafana/osdhist.json prometheus/osdhist.rules.yml; do
	check "dist/$f installed as is, mode 0644" \
		bash -c "cmp -s dist/$f '$D/usr/share/osdhist/$f' && [ \$(stat -c %a '$D/usr/share/osdhist/$f') = 644 ]"
done
check_eq "binary mode 0755" "$(stat -c %a "$D/usr/bin/osdhist")" 755
check "binary is the one built" cmp -s osdhist "$D/usr/bin/osdhist"
check_eq "unit mode 0644" "$(stat -c %a "$unit")" 644
check_eq "man page mode 0644" "$(stat -c %a "$man8")" 644
check_eq "ExecStart runs the installed binary" \
	"$(sed -n 's/^ExecStart=\([^ ]*\).*/\1/p' "$unit")" /usr/bin/osdhist
check_eq "no @placeholder@ left in the unit" "$(grep -c @ "$unit")" 0
# --help first: the options are parsed (exit 2 if one is wrong), nothing runs
args=$(sed -n 's/^ExecStart=[^ ]* //p' "$unit")
# shellcheck disable=SC2086
check "the unit's ExecStart options parse ($args)" ./osdhist --help $args

# systemd-analyze verify resolves the unit's dependencies and ExecStart
# inside --root: give that root systemd's own units next to ours.
cp -rn /usr/lib/systemd/system/. "$D/usr/lib/systemd/system/"
out=$(systemd-analyze verify --man=no --root="$D" osdhist.service 2>&1); rc=$?
check_eq "systemd-analyze verify: exit 0" "$rc" 0
check_eq "systemd-analyze verify: no message" "$out" ""
# and it would complain if ExecStart named a missing binary (the check bites)
mv "$D/usr/bin/osdhist" "$D/usr/bin/osdhist.away"
out=$(systemd-analyze verify --man=no --root="$D" osdhist.service 2>&1); rc=$?
check "... which fails when the binary is missing" [ "$rc" != 0 ]
mv "$D/usr/bin/osdhist.away" "$D/usr/bin/osdhist"

# Another PREFIX, and UNITDIR on its own.
lib_mktemp D2 -d
make -s install DESTDIR="$D2" PREFIX=/opt/oh UNITDIR=/etc/systemd/system >/dev/null
check "PREFIX=/opt/oh: binary and man page under it" \
	[ -x "$D2/opt/oh/bin/osdhist" -a -f "$D2/opt/oh/share/man/man8/osdhist.8" ]
check_eq "UNITDIR=/etc/systemd/system: ExecStart=/opt/oh/bin/osdhist" \
	"$(sed -n 's/^ExecStart=\([^ ]*\).*/\1/p' "$D2/etc/systemd/system/osdhist.service")" \
	/opt/oh/bin/osdhist

# The man page: no warning from man or groff, every section, every option.
out=$(MANWIDTH=80 man -l "$man8" 2>&1 >/dev/null)
check_eq "man -l renders without a warning" "$out" ""
out=$(MANWIDTH=80 man --warnings -l "$man8" 2>&1 >/dev/null)
check_eq "man --warnings -l renders without a warning" "$out" ""
text=$(MANWIDTH=80 man -l "$man8" 2>/dev/null)
for s in NAME SYNOPSIS DESCRIPTION OPTIONS OUTPUT SIGNALS "EXIT STATUS" FILES EXAMPLES "SEE ALSO"; do
	check "man page section $s" grep -qx "$s" <<<"$text"
done
missing=""
for o in $(./osdhist --help | grep -oE -- '--[a-z][a-z-]+' | sort -u); do
	grep -qF -- "$o" <<<"$text" || missing="$missing $o"
done
check_eq "every option of --help is in the man page" "$missing" ""
for m in osdhist_op_latency_seconds osdhist_ops_lost_total osdhist_build_info; do
	check "man page documents $m" grep -qF "$m" <<<"$text"
done
finish
