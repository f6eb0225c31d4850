#!/usr/bin/env bash
# Starts a Docker engine for the tests (when none answers) and builds the local test image
# platform-test/busybox:latest from Debian's busybox-static. Idempotent: safe to run again.
#
# What was found on these machines (Debian 12, kernel 6.18, cgroup v1, ext4 root, 2026-11):
# - docker.io is 20.10.24 (API 1.41); /usr/local/bin/docker is a newer client (28.x) that comes
#   first in PATH and negotiates the API version down, so both clients work.
# - `dockerd` with no flags works: storage driver overlay2 (native diff), iptables (nf_tables
#   backend) and the docker0 bridge are fine. vfs and --iptables=false are kept below only as
#   fallbacks for a machine where overlay2 or iptables fail.
# - Publishing a port on 127.0.0.1 (`-p 127.0.0.1:PORT:80`) is reachable from the host, and
#   containers on a user-defined network resolve each other by --network-alias (busybox wget).
# - No registry is reachable: images are never pulled, the test image is `docker import`ed.
# dockerd's log and pidfile are under $STATE_DIR; .ci/docker-down.sh stops what this started.
set -euo pipefail

STATE_DIR=${PLATFORM_DOCKERD_DIR:-/tmp/platform-dockerd}
IMAGE=platform-test/busybox:latest
mkdir -p "$STATE_DIR"
exec 9>"$STATE_DIR/lock"
flock 9 # two jobs starting the engine at once would race for the socket

engine_answers() { docker version --format '{{.Server.Version}}' >/dev/null 2>&1; }

install_packages() {
  local missing=()
  command -v dockerd >/dev/null 2>&1 || missing+=(docker.io)
  [ -x /bin/busybox ] || missing+=(busybox-static)
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "docker-up: installing ${missing[*]}"
  apt-get update -q >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
    -o DPkg::Lock::Timeout=300 "${missing[@]}" >/dev/null
}

# Starts dockerd with the given extra flags; returns 0 once `docker version` reaches it.
try_start() {
  echo "docker-up: starting dockerd $*"
  : >"$STATE_DIR/dockerd.log"
  # setsid: the engine must outlive this script and the shell that ran it; 9>&- so that it
  # does not hold the lock.
  setsid dockerd --pidfile "$STATE_DIR/dockerd.pid" "$@" </dev/null >>"$STATE_DIR/dockerd.log" 2>&1 9>&- &
  local pid=$! i
  for i in $(seq 1 60); do
    if engine_answers; then echo "docker-up: engine ready (pid $pid)"; return 0; fi
    if ! kill -0 "$pid" 2>/dev/null; then
      echo "docker-up: dockerd $* exited:"; tail -n 5 "$STATE_DIR/dockerd.log"; return 1
    fi
    sleep 1
  done
  echo "docker-up: dockerd $* did not answer within 60s"; tail -n 5 "$STATE_DIR/dockerd.log"
  kill "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  return 1
}

build_image() {
  docker image inspect "$IMAGE" >/dev/null 2>&1 && return 0
  echo "docker-up: building $IMAGE from /bin/busybox"
  local rootfs
  rootfs=$(mktemp -d)
  mkdir -p "$rootfs"/{bin,etc,tmp,root,var/www,proc,sys,dev}
  chmod 1777 "$rootfs/tmp"
  cp /bin/busybox "$rootfs/bin/busybox"
  # Every applet (sh, httpd, wget, echo, sleep, cat, ls, env, nc, ...) as a symlink in /bin.
  chroot "$rootfs" /bin/busybox --install -s /bin
  echo 'root:x:0:0:root:/root:/bin/sh' >"$rootfs/etc/passwd"
  echo 'root:x:0:' >"$rootfs/etc/group"
  tar -C "$rootfs" -c . | docker import --change 'CMD ["/bin/sh"]' - "$IMAGE" >/dev/null
  rm -rf "$rootfs"
}

install_packages
if ! engine_answers; then
  try_start ||
    try_start --storage-driver=vfs ||
    try_start --storage-driver=vfs --iptables=false ||
    { echo "docker-up: could not start dockerd (log: $STATE_DIR/dockerd.log)"; exit 1; }
fi
build_image
echo "docker-up: $(docker version --format 'engine {{.Server.Version}} (API {{.Server.APIVersion}})'), image $IMAGE present"
