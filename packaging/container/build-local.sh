#!/usr/bin/env bash
# Builds the image of the Containerfile beside this script where no image registry is reachable
# (the development and CI machines): its Node 24 base is made from Debian's own packages
# (mmdebstrap) and the Node binary of the `node` npm package this repository pins, then the same
# Containerfile builds on it with buildah. Elsewhere, build the Containerfile as it is.
#
#   packaging/container/build-local.sh [TAG]        (default localhost/tidings-cloud:latest)
#
# Needs root and Debian's podman, buildah, runc and mmdebstrap (apt-get install -y podman buildah
# runc mmdebstrap): exits 3 saying what is missing. The Debian base (a minbase with
# ca-certificates, about 180 MB, a minute to make) is kept in $TIDINGS_IMAGE_CACHE (default
# ~/.cache/tidings-cloud) and reused. Prints how long each step took.
#
# Three settings these machines need, each of which failed without it (docs/cloud-operations.md):
# a containers.conf with no default ulimits (the runtime cannot set RLIMIT_NOFILE/NPROC here),
# runc rather than crun (crun refuses this hybrid cgroup layout), and host networking to run.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
tag=${1:-localhost/tidings-cloud:latest}
cache=${TIDINGS_IMAGE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/tidings-cloud}
node_bin="$root/node_modules/node/bin/node"

missing=()
for tool in podman buildah runc mmdebstrap; do command -v "$tool" >/dev/null || missing+=("$tool"); done
if [ "${#missing[@]}" -gt 0 ]; then
  echo "build-local.sh: ${missing[*]} missing: apt-get install -y podman buildah runc mmdebstrap" >&2
  exit 3
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "build-local.sh: needs root (mmdebstrap and podman's storage here)" >&2
  exit 3
fi
if [ ! -x "$node_bin" ]; then
  echo "build-local.sh: $node_bin is missing: run npm ci" >&2
  exit 3
fi

mkdir -p "$cache"
export CONTAINERS_CONF="$cache/containers.conf"
printf '[containers]\ndefault_ulimits = []\n' >"$CONTAINERS_CONF"
step() { printf 'build-local.sh: %s (%s s)\n' "$1" "$(( $(date +%s) - started ))"; }

# 1. Debian bookworm, minimal, as an image (made once, then reused).
started=$(date +%s)
debian=localhost/tidings-debian:bookworm-minbase
if ! podman image exists "$debian"; then
  tarball="$cache/debian-bookworm-minbase.tar"
  if [ ! -s "$tarball" ]; then
    mmdebstrap --quiet --format=tar --variant=minbase --include=ca-certificates,libstdc++6 bookworm "$tarball.part"
    mv "$tarball.part" "$tarball"
  fi
  podman import --quiet "$tarball" "$debian" >/dev/null
fi
step "Debian base $debian"

# 2. Node 24 on it, where the official image keeps it (/usr/local/bin/node): the Containerfile's
#    NODE_IMAGE. Named after the Node it holds, so a new pinned Node makes a new base.
started=$(date +%s)
version=$("$node_bin" -p process.versions.node)
node_image="localhost/tidings-node:$version-bookworm"
if ! podman image exists "$node_image"; then
  ctr=$(buildah from --pull=never --quiet "$debian")
  trap 'buildah rm "$ctr" >/dev/null 2>&1 || true' EXIT
  buildah copy --quiet --chmod 0755 "$ctr" "$node_bin" /usr/local/bin/node >/dev/null
  buildah config --env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin "$ctr"
  buildah commit --quiet --rm "$ctr" "$node_image" >/dev/null
  trap - EXIT
fi
step "Node $version base $node_image"

# 3. The package, then the Containerfile on that base.
started=$(date +%s)
context=$(mktemp -d)
trap 'rm -rf "$context"' EXIT
"$node_bin" "$root/scripts/pack-cloud.mjs" --out "$context" >/dev/null
step "package $(basename "$context"/tidings-cloud-*.tgz)"
started=$(date +%s)
buildah bud --quiet --runtime runc --isolation chroot --format docker --pull=never \
  --build-arg "NODE_IMAGE=$node_image" -t "$tag" -f "$here/Containerfile" "$context" >/dev/null
step "image $tag"
