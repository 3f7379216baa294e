#!/bin/sh
# tracefs.sh CMD [ARG ...]: runs CMD in a mount namespace of its own with
# tracefs at /sys/kernel/tracing: the host's where it has one mounted
# (systemd hosts mount it at boot; mounting it there again fails), else
# one mounted for CMD alone, gone with its namespace.
[ $# -gt 0 ] || { echo "usage: tracefs.sh CMD [ARG ...]" >&2; exit 2; }
exec unshare -m sh -c 'mountpoint -q /sys/kernel/tracing ||
	mount -t tracefs nodev /sys/kernel/tracing || exit 1
exec "$@"' sh "$@"
