#!/usr/bin/env bash
# Stops the Kubernetes cluster .ci/k8s-up.sh started and removes what it left: the pod containers
# the kubelet made on the Docker engine (labelled platform-k8s=kubelet by the docker proxy; the
# dockershim names them k8s_*), the pause image, the kubelet's mounts and cgroups, the paths it
# writes outside its root dir (only those that were not there before), the host sysctls it changed
# (restored to the values saved before it started), and the state dir. Safe to run when nothing
# is up. The binaries' cache (/var/cache/platform-k8s) is kept: it is what makes the next up fast.
set -euo pipefail

STATE=${PLATFORM_K8S_DIR:-/tmp/platform-k8s}
CACHE=${PLATFORM_K8S_CACHE:-/var/cache/platform-k8s}
PAUSE_IMAGE=platform-k8s/pause:1.20
log() { echo "k8s-down: $*" >&2; }

if [ -z "${PLATFORM_K8S_LOCKED:-}" ]; then # k8s-up calls this holding the lock already
  mkdir -p "$CACHE"
  exec 9>"$CACHE/run.lock"
  flock 9
fi

# Running: the pid exists, is not a zombie (exited, not yet reaped by this sandbox's init), and is
# still ours: every command line k8s-up starts names $STATE, so a pid reused by another process
# (after a reboot, or once the machine's processes were ended) is never signalled.
running() {
  kill -0 "$1" 2>/dev/null && ! grep -q '^[0-9]* ([^)]*) Z' "/proc/$1/stat" 2>/dev/null &&
    grep -qaF "$STATE" "/proc/$1/cmdline" 2>/dev/null
}

# stop NAME...: TERM to each, up to 20 s for all of them, then KILL; only the processes whose
# pids k8s-up recorded.
stop() {
  local name pid pids=() i left
  for name in "$@"; do
    [ -s "$STATE/$name.pid" ] || continue
    pid=$(cat "$STATE/$name.pid")
    rm -f "$STATE/$name.pid"
    running "$pid" || continue
    kill -TERM "$pid" 2>/dev/null || true
    pids+=("$pid")
  done
  for ((i = 0; i < 100; i++)); do
    left=0
    for pid in "${pids[@]}"; do running "$pid" && left=1; done
    [ "$left" = 0 ] && return 0
    sleep 0.2
  done
  for pid in "${pids[@]}"; do
    running "$pid" || continue
    log "pid $pid ($*) still running after 20 s, killing it"
    kill -KILL "$pid" 2>/dev/null || true
  done
}

if [ ! -d "$STATE" ]; then
  log "nothing to stop ($STATE does not exist)"
  exit 0
fi

# The kubelet first, so that it restarts no container while they are removed.
stop kubelet
if docker version >/dev/null 2>&1; then
  ids=$(docker ps -aq --filter label=platform-k8s=kubelet)
  if [ -n "$ids" ]; then
    log "removing $(echo "$ids" | wc -l) pod container(s)"
    # shellcheck disable=SC2086
    docker rm -f -v $ids >/dev/null 2>&1 || true
  fi
  docker image rm "$PAUSE_IMAGE" >/dev/null 2>&1 || true
else
  log "no Docker engine answers: pod containers (label platform-k8s=kubelet) may be left"
fi
stop docker-proxy kube-scheduler kube-controller-manager kube-apiserver
stop etcd

# The kubelet's mounts (secret and service account token tmpfs, bind mounts), deepest first.
awk -v dir="$STATE/" 'index($2, dir) == 1 {print $2}' /proc/self/mounts | sort -r | while read -r mnt; do
  umount "$mnt" 2>/dev/null || umount -l "$mnt" 2>/dev/null || log "could not unmount $mnt"
done

if [ -s "$STATE/sysctl-before" ]; then
  while IFS= read -r line; do
    sysctl -q -w "$line" >/dev/null 2>&1 || log "could not restore sysctl $line"
  done <"$STATE/sysctl-before"
fi

# The kubelet's QoS cgroups (/kubepods in every v1 hierarchy), children before parents.
for hierarchy in /sys/fs/cgroup/*/; do
  [ -d "$hierarchy/kubepods" ] || continue
  find "$hierarchy/kubepods" -depth -type d -exec rmdir {} \; 2>/dev/null || true
  [ -d "$hierarchy/kubepods" ] && log "cgroup $hierarchy/kubepods still has processes"
done

for path in /var/lib/kubelet /var/log/pods /var/log/containers /tmp/hostpath_pv; do
  [ -e "$path" ] || continue
  grep -qxF "$path" "$STATE/outside-before" 2>/dev/null && continue
  rm -rf "$path"
done

rm -rf "$STATE"
log "stopped and cleaned up"
