#!/usr/bin/env bash
# Starts a Docker Swarm of three nodes on this one machine, for tests of the swarm adapter across
# nodes: three dockerd, each in its own network, mount and UTS namespaces, on a bridge of their own
# (layout and findings: .ci/swarm3-lib.sh). Idempotent: starts only what is missing (a node stopped
# by `.ci/swarm3-node.sh stop N` is started again), then waits for three Ready nodes. Prints, and
# writes to $PLATFORM_SWARM3_DIR/env (default /tmp/platform-swarm3/env):
#   DOCKER_HOST=unix:///tmp/platform-swarm3/node1/docker.sock       node 1, a manager
#   PLATFORM_SWARM3_HOSTS=unix://.../node1/docker.sock,...node2...,...node3...   every node's engine
#   PLATFORM_SWARM3_ADDRS=198.18.213.11,198.18.213.12,198.18.213.13 the nodes' addresses (host-mode
#                                                                  published ports answer there)
# All three nodes are managers: losing any one of them (`.ci/swarm3-node.sh stop N`) keeps the raft
# quorum (2 of 3), so the swarm keeps scheduling and any remaining node's socket takes API calls.
# With one manager and two workers, losing the manager would stop the swarm, so only workers could
# be "lost" in tests. Managers also run tasks (availability active), so services spread over all 3.
# The main engine (/var/run/docker.sock) is only read: `docker save` of the test image.
# Needs root. .ci/swarm3-down.sh removes everything this makes.
set -euo pipefail
SWARM3_TAG=swarm3-up
# shellcheck source=.ci/swarm3-lib.sh
source "$(dirname "$0")/swarm3-lib.sh"
[ "$(id -u)" = 0 ] || die "needs root (network namespaces, mounts, cgroups)"

start=$SECONDS
take_lock
install_packages
network_up
for n in "${NODES[@]}"; do start_engine "$n"; done
for n in "${NODES[@]}"; do load_image "$n"; done
form_swarm
wait_ready "${NODES[@]}"
write_env
log "3 managers ready ($(dk 1 info --format 'engine {{.ServerVersion}}, storage {{.Driver}}'), heartbeat $HEARTBEAT) in $((SECONDS - start))s"
cat "$STATE_DIR/env"
