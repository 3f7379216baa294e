#!/bin/sh
# make image: an OCI image archive holding the static binary alone (FROM
# scratch), for cephadm and Kubernetes (docs/deploy.md).
#   scripts/image.sh BIN OUT      (the Makefile: build/osdhist-static,
#                                  build/osdhist-image.tar)
# Built with umoci, without running a container: nothing executes in the
# image while it is made (no RUN step), so no container engine is needed.
# Reproducible: the same BIN gives the same archive, byte for byte.  Every
# time stamp is SOURCE_DATE_EPOCH (default: the date of the last
# debian/changelog entry), owners are 0, modes and order are fixed, and
# nothing of the build host (user, umask, time) gets in.
#
# The layer is written by GNU tar and added verbatim (umoci raw add-layer):
# umoci 0.4.7's own `insert` (Debian 12) leaves out the tar footer
# (umoci issue 436, fixed after 0.4.7), which GNU tar then rejects.
#
# The version, description and licenses come from loader/util/version.h
# and dist/osdhist.spec (the RPM: the same static binary, the same
# licenses); IMAGE_SOURCE=URL adds org.opencontainers.image.source.
set -eu

[ $# = 2 ] || { echo "usage: scripts/image.sh BIN OUT" >&2; exit 2; }
bin=$1 out=$2
UMOCI=${UMOCI:-umoci}
top=$(cd "$(dirname "$0")/.." && pwd)

for t in "$UMOCI:umoci" strip:binutils; do
	command -v "${t%%:*}" >/dev/null 2>&1 || {
		echo "make image: ${t%%:*} missing: apt-get install ${t##*:}" \
			"(or run 'sudo scripts/setup.sh')" >&2
		exit 1
	}
done

ver=$(sed -n 's/^#define OSDHIST_VERSION "\(.*\)"$/\1/p' "$top/loader/util/version.h")
summary=$(sed -n 's/^Summary: *//p' "$top/dist/osdhist.spec")
licenses=$(sed -n 's/^License: *//p' "$top/dist/osdhist.spec")
epoch=${SOURCE_DATE_EPOCH:-$(dpkg-parsechangelog -l "$top/debian/changelog" -S Timestamp)}
created=$(date -u -d "@$epoch" +%Y-%m-%dT%H:%M:%SZ)
# the port of the unit (dist/osdhist.service.in), on every address: in a
# container, the pod's or the host's network decides who reaches it
port=$(sed -n 's/^ExecStart=.*--prometheus [0-9.]*:\([0-9]*\) .*/\1/p' \
	"$top/dist/osdhist.service.in")
[ -n "$ver" ] && [ -n "$summary" ] && [ -n "$licenses" ] && [ -n "$port" ] || {
	echo "make image: could not read the version, summary, licenses or port" \
		"(loader/util/version.h, dist/osdhist.spec, dist/osdhist.service.in)" >&2
	exit 1
}

w=$(mktemp -d "$out.XXXXXX")
trap 'rm -rf "$w"' EXIT
mkdir "$w/root"
# stripped as the .deb and the RPM strip it (same build-id)
strip -o "$w/root/osdhist" "$bin"
tar_fixed() {	# TAR ARGS...: owners, time stamps and order of the build host left out
	tar --create --format=ustar --sort=name --mtime="@$epoch" --owner=0 --group=0 \
		--numeric-owner "$@"
}
tar_fixed --file "$w/layer.tar" --mode=0755 -C "$w/root" osdhist

L=$w/oci
"$UMOCI" init --layout "$L"
"$UMOCI" new --image "$L:$ver"
"$UMOCI" raw add-layer --image "$L:$ver" --history.created "$created" \
	--history.created_by "make image: $(basename "$bin"), stripped, as /osdhist" "$w/layer.tar"
# root: loading BPF programs and attaching uprobes need the capabilities
# dist/osdhist.service.in names, which the runtime grants (docs/deploy.md)
"$UMOCI" config --image "$L:$ver" --no-history --created "$created" \
	--architecture amd64 --os linux --config.user 0:0 \
	--config.entrypoint /osdhist \
	--config.cmd=--quiet --config.cmd=--prometheus --config.cmd="0.0.0.0:$port" --config.cmd=5 \
	--config.exposedports "$port/tcp" \
	--config.label org.opencontainers.image.title=osdhist \
	--config.label "org.opencontainers.image.description=$summary" \
	--config.label "org.opencontainers.image.version=$ver" \
	--config.label "org.opencontainers.image.licenses=$licenses" \
	${IMAGE_SOURCE:+--config.label "org.opencontainers.image.source=$IMAGE_SOURCE"}
"$UMOCI" gc --layout "$L"

tar_fixed --file "$w/image.tar" --mode=u=rwX,go=rX -C "$L" oci-layout index.json blobs
mv "$w/image.tar" "$out"
echo "make image: $out (tag $ver)"
