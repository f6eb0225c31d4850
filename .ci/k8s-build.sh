#!/usr/bin/env bash
# Builds the Kubernetes 1.20 server binaries (kube-apiserver, kube-controller-manager,
# kube-scheduler, kubelet) and the matching kubectl from Debian's `kubernetes` source package,
# into a cache outside the checkout keyed by the package's version:
#   ${PLATFORM_K8S_CACHE:-/var/cache/platform-k8s}/<debian-version>/bin
# Prints that bin directory (alone, on stdout; progress goes to stderr). With --cached it only
# answers whether the binaries are there (exit 0 and the path, or exit 1) and builds nothing.
# Idempotent and flock-protected: a second run, or one started while another builds, finds the
# binaries and does nothing. A new Debian revision of the package (a security update) is a new
# cache key, so the next run builds again. Nothing is fetched but Debian packages (no dl.k8s.io,
# no GitHub, no Go proxy).
#
# Why build: Debian 12 ships only kubernetes-client (kubectl) as a binary package; the server
# parts are in the source package. The machine's /usr/bin/kubectl (Google Cloud SDK, v1.32) is
# three minor versions off a 1.20 apiserver; the kubectl built here is the exact match, and the
# scripts and test helper use it.
#
# Measured on these machines (2 cores, 2026-11): apt-get source 4 s, the build of the five
# binaries 7 min 40 s (427 s of make). Only the binaries (~390 MB) are kept; the source tree and
# Go's build cache (in a temporary dir under /var/tmp) are removed afterwards.
set -euo pipefail

CACHE=${PLATFORM_K8S_CACHE:-/var/cache/platform-k8s}
BINARIES=(kube-apiserver kube-controller-manager kube-scheduler kubelet kubectl)
SOURCES_FILE=/etc/apt/sources.list.d/platform-k8s-src.sources
log() { echo "k8s-build: $*" >&2; }

# The version of the `kubernetes` source package apt would fetch (the cache key). Needs a
# deb-src entry for bookworm main: added beside the machine's `deb` one when missing.
source_version() {
  { apt-cache showsrc --only-source kubernetes 2>/dev/null || true; } | awk '/^Version:/ {print $2}' | sort -V | tail -n 1
}
complete() {
  local b
  for b in "${BINARIES[@]}"; do [ -x "$1/$b" ] || return 1; done
}
version=${PLATFORM_K8S_DEB_VERSION:-$(source_version)}
if [ "${1:-}" = --cached ]; then
  # Without apt's source lists (no deb-src entry yet) the version is unknown: any complete build.
  for bin in ${version:+"$CACHE/$version/bin"} ${version:-"$CACHE"/*/bin}; do
    if complete "$bin"; then echo "$bin"; exit 0; fi
  done
  exit 1
fi
if [ -z "$version" ]; then
  if [ ! -e "$SOURCES_FILE" ]; then
    log "adding a deb-src entry for bookworm main ($SOURCES_FILE)"
    cat >"$SOURCES_FILE" <<'EOF'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
  fi
  apt-get update -q >/dev/null
  version=$(source_version)
  [ -n "$version" ] || { log "apt knows no source package 'kubernetes'"; exit 1; }
fi

BIN=$CACHE/$version/bin
if complete "$BIN"; then echo "$BIN"; exit 0; fi

mkdir -p "$CACHE"
exec 9>"$CACHE/build.lock"
flock 9 # two jobs building at once would each take ~8 min, for the same binaries
if complete "$BIN"; then echo "$BIN"; exit 0; fi

# Build tools: Go 1.19 from Debian (the toolchain Debian builds this package with), and the
# package's Build-Depends that the build runs (rsync, jq), make, and dpkg-dev for apt-get source.
missing=()
for pkg in golang-go rsync jq make gcc libc6-dev dpkg-dev; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'ok installed' || missing+=("$pkg")
done
if [ ${#missing[@]} -gt 0 ]; then
  log "installing ${missing[*]}"
  apt-get update -q >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
    -o DPkg::Lock::Timeout=300 "${missing[@]}" >/dev/null
fi

work=$(mktemp -d /var/tmp/platform-k8s-build-XXXXXX)
trap 'rm -rf "$work"' EXIT
start=$(date +%s)
log "fetching the source of kubernetes $version"
(cd "$work" && apt-get source -q "kubernetes=$version" >"$work/source.log" 2>&1) ||
  { tail -n 20 "$work/source.log" >&2; exit 1; }
src=$(find "$work" -mindepth 1 -maxdepth 1 -type d -name 'kubernetes-*' | head -n 1)

# As debian/rules does: a GOPATH inside the tree, no cgo (static binaries), module mode off
# (hack/lib/init.sh sets that too). GOCACHE inside $work so that nothing stays in ~/.cache.
log "building ${BINARIES[*]} with $(go version | awk '{print $3}') (about 8 min on 2 cores)"
mkdir -p "$src/.go/src/k8s.io"
ln -sfn ../../.. "$src/.go/src/k8s.io/kubernetes"
if ! (cd "$src" && env GOPATH="$src/.go" GOCACHE="$work/gocache" GO111MODULE=off CGO_ENABLED=0 \
  HOME="$work" make WHAT="${BINARIES[*]/#/cmd/}" >"$work/build.log" 2>&1); then
  tail -n 40 "$work/build.log" >&2
  log "build failed"
  exit 1
fi

# Into a temporary directory first, renamed into place: a half-copied cache never counts.
tmp=$(mktemp -d "$CACHE/.bin-XXXXXX")
for b in "${BINARIES[@]}"; do install -m 0755 "$src/_output/bin/$b" "$tmp/$b"; done
mkdir -p "$CACHE/$version"
rm -rf "$BIN"
mv "$tmp" "$BIN"
chmod 755 "$BIN"
log "built in $(($(date +%s) - start)) s: $("$BIN/kube-apiserver" --version) in $BIN"
echo "$BIN"
