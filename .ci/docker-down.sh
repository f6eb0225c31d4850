#!/usr/bin/env bash
# Stops the dockerd that .ci/docker-up.sh started (and only that one: an engine found already
# running is left alone), then removes what dockerd leaves behind on the host: the docker0 and
# docker_gwbridge bridges, user-network bridges (br-*) and its iptables chains and rules.
set -euo pipefail

STATE_DIR=${PLATFORM_DOCKERD_DIR:-/tmp/platform-dockerd}
PIDFILE=$STATE_DIR/dockerd.pid

if [ ! -s "$PIDFILE" ] || ! kill -0 "$(cat "$PIDFILE")" 2>/dev/null; then
  echo "docker-down: no dockerd started by docker-up is running"
  exit 0
fi
pid=$(cat "$PIDFILE")

# A swarm manager keeps raft state and the ingress network; leaving first lets the next start
# come up as a plain engine.
if [ "$(docker info --format '{{.Swarm.LocalNodeState}}' 2>/dev/null || true)" = active ]; then
  docker swarm leave --force >/dev/null 2>&1 || true
fi

kill -TERM "$pid"
for _ in $(seq 1 60); do
  kill -0 "$pid" 2>/dev/null || break
  sleep 1
done
if kill -0 "$pid" 2>/dev/null; then
  echo "docker-down: dockerd $pid still running after 60s, killing it"
  kill -KILL "$pid" 2>/dev/null || true
  sleep 1
fi
rm -f "$PIDFILE"

# Links: the bridges dockerd made (it recreates them from its state on the next start).
for link in $(ip -o link show 2>/dev/null | awk -F': ' '{print $2}' | cut -d@ -f1 |
  grep -E '^(docker0|docker_gwbridge|br-[0-9a-f]{12})$' || true); do
  ip link delete "$link" 2>/dev/null || true
done

# Firewall: every rule that jumps to or mentions a docker chain or bridge, then the chains.
if command -v iptables >/dev/null 2>&1; then
  for table in filter nat; do
    iptables -t "$table" -S 2>/dev/null | grep '^-A' |
      grep -E 'DOCKER|docker0|docker_gwbridge|br-[0-9a-f]{12}' |
      grep -vE '^-A DOCKER' | while read -r rule; do
        eval "iptables -t $table -D ${rule#-A }" 2>/dev/null || true
      done
    for chain in $(iptables -t "$table" -S 2>/dev/null | awk '$1 == "-N" && $2 ~ /^DOCKER/ {print $2}'); do
      iptables -t "$table" -F "$chain" 2>/dev/null || true
    done
    for chain in $(iptables -t "$table" -S 2>/dev/null | awk '$1 == "-N" && $2 ~ /^DOCKER/ {print $2}'); do
      iptables -t "$table" -X "$chain" 2>/dev/null || true
    done
  done
fi
echo "docker-down: dockerd stopped and cleaned up"
