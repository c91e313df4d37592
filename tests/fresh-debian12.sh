#!/bin/sh
# tests/fresh-debian12.sh: the README's commands as a new user meets them,
# on a fresh Debian 12 that has nothing installed by hand.
#
#   sudo tests/fresh-debian12.sh ['./quickstart demo' './quickstart test' ...]
#
# Makes a minimal Debian 12 root with debootstrap (--variant=minbase, plus
# git and ca-certificates), clones the checkout's committed HEAD into it,
# gives it what an installed system has and debootstrap does not (a / of
# mode 755, the host's name in /etc/hosts), and runs each command there in
# turn from the clone's top folder, as root, saying for each its exit
# status and how long it took; it stops at
# the first that fails and shows the end of its output.  The default
# commands are './quickstart demo' then './quickstart test'.  Nothing of
# this machine is used but its network, its DNS settings and its local
# certificate authorities (/usr/local/share/ca-certificates: a network
# that needs a proxy's).
#
# Environment: FRESH_DIR (default /var/tmp/taskreplay-fresh) holds the base
# root, built once and kept as base.tar (remove it for a newer Debian),
# the roots of the runs (removed when they end) and fresh.log, the whole
# output.  FRESH_MIRROR: the Debian mirror (default deb.debian.org).
set -u
if [ "$(id -u)" -ne 0 ]; then
    echo "fresh-debian12: run it as root (debootstrap and chroot need it)" >&2
    exit 2
fi
top=$(git -C "$(dirname "$0")" rev-parse --show-toplevel 2>/dev/null) || {
    echo "fresh-debian12: run it from a git checkout of the project" >&2
    exit 2
}
[ $# -gt 0 ] || set -- './quickstart demo' './quickstart test'
dir=${FRESH_DIR:-/var/tmp/taskreplay-fresh}
mirror=${FRESH_MIRROR:-http://deb.debian.org/debian}
mkdir -p "$dir" || exit 1
if ! command -v debootstrap >/dev/null 2>&1; then
    echo "fresh-debian12: installing debootstrap"
    apt-get install -y -q debootstrap >/dev/null 2>&1 || {
        echo "fresh-debian12: cannot install debootstrap (apt-get install debootstrap)" >&2
        exit 1
    }
fi

# trust the host's local certificate authorities (Node.js too, which
# reads its own list otherwise), and its DNS settings
cas=""
if ls /usr/local/share/ca-certificates/*.crt >/dev/null 2>&1; then
    cas=/etc/ssl/certs/ca-certificates.crt
fi
setup_net() {
    cp /etc/resolv.conf "$1/etc/resolv.conf"
    if [ -n "$cas" ]; then
        mkdir -p "$1/usr/local/share/ca-certificates"
        cp /usr/local/share/ca-certificates/*.crt \
            "$1/usr/local/share/ca-certificates/"
        chroot "$1" update-ca-certificates >/dev/null 2>&1
    fi
}

base=$dir/base.tar
if [ ! -f "$base" ]; then
    echo "fresh-debian12: making the base root (once; a few minutes)"
    b=$(mktemp -d "$dir/base.XXXXXX") || exit 1
    if ! debootstrap --variant=minbase bookworm "$b" "$mirror" \
        > "$dir/debootstrap.log" 2>&1; then
        echo "fresh-debian12: debootstrap failed; see $dir/debootstrap.log" >&2
        rm -rf "$b"
        exit 1
    fi
    setup_net "$b"
    chroot "$b" sh -c 'apt-get -q update && apt-get -q install -y git ca-certificates' \
        > "$dir/base.log" 2>&1 || {
        echo "fresh-debian12: cannot install git in the base root; see $dir/base.log" >&2
        rm -rf "$b"
        exit 1
    }
    tar -C "$b" -cf "$base.part" . && mv "$base.part" "$base"
    rm -rf "$b"
fi

root=$(mktemp -d "$dir/root.XXXXXX") || exit 1
cleanup() {
    umount "$root/proc" 2>/dev/null
    rm -rf "$root"
}
trap cleanup EXIT
trap 'exit 130' HUP INT TERM
tar -C "$root" -xf "$base" || exit 1
# as on an installed Debian: a / that every user may enter (mktemp made it
# 700, and munge's install runs as the user munge), and the host's own
# name in /etc/hosts (the installer writes it; slurmctld binds to it)
chmod 755 "$root" || exit 1
printf '127.0.1.1\t%s\n' "$(uname -n)" >> "$root/etc/hosts" || exit 1
setup_net "$root"
mount -t proc proc "$root/proc" || exit 1
git clone -q "$top" "$root/root/project" || exit 1
log=$dir/fresh.log
: > "$log"
echo "fresh-debian12: $(git -C "$top" log -1 --format='%h %s' | cut -c 1-70)"
i=0
for cmd in "$@"; do
    i=$((i + 1))
    began=$(date +%s)
    chroot "$root" /usr/bin/env ${cas:+NODE_EXTRA_CA_CERTS=$cas} \
        /bin/sh -c "cd /root/project && $cmd" >> "$log" 2>&1
    status=$?
    echo "fresh-debian12: command $i ($(($(date +%s) - began)) s): exit $status: $cmd"
    if [ "$status" -ne 0 ]; then
        tail -n 25 "$log"
        exit 1
    fi
done
echo "fresh-debian12: the whole output is in $log"
