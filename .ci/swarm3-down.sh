#!/usr/bin/env bash
# Stops the three-node swarm .ci/swarm3-up.sh started and removes all it made: each node leaves the
# swarm and its dockerd is stopped (with its containers), the nodes' and hub's network namespaces
# go (and with them the veths, the bridge and the iptables rules the engines added inside them),
# then the host's ps3-host link, the nodes' cgroups and the state directory (data roots, logs).
# The main engine is not touched. Safe to run when nothing is up.
set -euo pipefail
SWARM3_TAG=swarm3-down
# shellcheck source=.ci/swarm3-lib.sh
source "$(dirname "$0")/swarm3-lib.sh"
[ "$(id -u)" = 0 ] || die "needs root"

start=$SECONDS
if [ ! -d "$STATE_DIR" ] && ! netns_exists "$HUB" && ! ip link show "$HOST_LINK" >/dev/null 2>&1; then
  log "nothing to stop"
  exit 0
fi
take_lock

# Leaving first, one node after the other (3, 2, 1: the swarm's first manager last), each bounded:
# leaving all three at once took 20s+ (each waits on a raft that is going away), in turn ~3s.
for n in 3 2 1; do
  if engine_answers "$n" && [ "$(swarm_state "$n")" = active ]; then
    timeout 20 docker -H "unix://$(node_sock "$n")" swarm leave --force >/dev/null 2>&1 || log "node$n: swarm leave failed or timed out"
  fi
done
log "left the swarm in $((SECONDS - start))s"
for n in "${NODES[@]}"; do stop_engine "$n" & done
wait
log "engines stopped in $((SECONDS - start))s"
network_down
for n in "${NODES[@]}"; do remove_cgroups "$n"; done
# Mounts die with the nodes' mount namespaces; check before deleting their data roots.
if grep -qF "$STATE_DIR/" /proc/self/mounts; then die "mounts left under $STATE_DIR: $(grep -F "$STATE_DIR/" /proc/self/mounts)"; fi
rm -rf "$STATE_DIR"
log "stopped and removed in $((SECONDS - start))s"
