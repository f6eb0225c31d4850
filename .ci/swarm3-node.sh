#!/usr/bin/env bash
# Loses and brings back one node of the three-node swarm (.ci/swarm3-up.sh), to test what the swarm
# adapter sees when a machine goes away:
#   .ci/swarm3-node.sh stop N             SIGKILL to everything of node N at once (dockerd, containerd,
#                                         shims, its containers): a machine losing power. The managers
#                                         mark it down after ~3 missed heartbeats (heartbeat 1s here,
#                                         see PLATFORM_SWARM3_HEARTBEAT) and reschedule its tasks.
#   .ci/swarm3-node.sh stop N --graceful  SIGTERM to dockerd (it stops its containers first): a shutdown.
#   .ci/swarm3-node.sh start N            starts node N's dockerd again (same data root, so the same
#                                         swarm node ID); returns once it is Ready in the swarm.
#   .ci/swarm3-node.sh status             each node: engine running or not, and the swarm's view.
# Node N keeps its network namespace while stopped (its address just stops answering).
#
# Measured here (3 managers, a 3-replica dnsrr service of sleep 3600, restart condition any; node 3
# stopped): stop ~0.4s; node 3 marked down 1.6-2.8s later with heartbeat 1s (12-13s with Docker's
# default 5s: the dispatcher's grace is 3 heartbeats); 3 tasks running on nodes 1 and 2 again
# 7.2-8.3s after the stop, of which 5s is the service's restart delay (default 5s; 1.9-3.1s with
# --restart-delay 0s); start ~2-8s until Ready (raft catching up). Losing node 1, the raft leader
# at first: a new leader after ~10s (raft election timeout: 10 ticks of 1s, not settable from the
# CLI), node 1 marked down ~16s and the 3 tasks running on nodes 2 and 3 ~22s after the stop; use
# another node's socket meanwhile (node 1's is gone). A heartbeat changed by
# `docker swarm update --dispatcher-heartbeat` applies to a node from its next heartbeat on.
set -euo pipefail
SWARM3_TAG=swarm3-node
# shellcheck source=.ci/swarm3-lib.sh
source "$(dirname "$0")/swarm3-lib.sh"
[ "$(id -u)" = 0 ] || die "needs root"

usage() { die "usage: $0 stop N [--graceful] | start N | status"; }
node_arg() { case ${1:-} in 1 | 2 | 3) echo "$1" ;; *) usage ;; esac; }

case ${1:-} in
  stop)
    n=$(node_arg "${2:-}")
    take_lock
    if [ "${3:-}" = --graceful ]; then stop_engine "$n"; else kill_node "$n"; fi
    log "node$n stopped"
    ;;
  start)
    n=$(node_arg "${2:-}")
    [ -s "$STATE_DIR/env" ] || die "the swarm is not up: run .ci/swarm3-up.sh"
    take_lock
    start=$SECONDS
    network_up
    start_engine "$n"
    load_image "$n"
    wait_ready "$n"
    log "node$n ready in the swarm in $((SECONDS - start))s"
    ;;
  status)
    for n in "${NODES[@]}"; do
      if pid=$(engine_pid "$n"); then echo "node$n $(node_addr "$n"): dockerd $pid, swarm $(swarm_state "$n")"; else echo "node$n $(node_addr "$n"): stopped"; fi
    done
    echo "swarm view (addr state manager-reachability):"
    node_table || echo "  no manager answers"
    ;;
  *) usage ;;
esac
