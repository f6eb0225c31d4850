# shellcheck shell=bash
# Sourced by .ci/swarm3-up.sh, .ci/swarm3-down.sh and .ci/swarm3-node.sh: a Docker Swarm of three
# nodes on this one machine, each node a dockerd in its own network, mount and UTS namespaces.
#
# Layout (all names start with platform-swarm3 / ps3- so that down removes exactly these):
#   netns platform-swarm3-hub      a bridge br0 joining the nodes (and the host), nothing else
#   netns platform-swarm3-nodeN    eth0 = $NET.1N/24 (veth to the hub's nodeN), its own dockerd
#   host link ps3-host             $NET.254/24, a veth into the hub bridge: the host reaches the
#                                  nodes' host-mode published ports at $NET.1N:PORT
#   $STATE_DIR/nodeN/              docker.sock, data/ (--data-root), exec/ (--exec-root), dockerd.pid,
#                                  dockerd.log, flags (the dockerd flags that worked, reused on restart)
#   cgroups /platform-swarm3-nodeN/<container> in each v1 hierarchy (--cgroup-parent), beside the
#                                  main engine's /docker
#
# Why this shape (Debian 12, kernel 6.18, cgroup v1, docker.io 20.10.24, 2026-11):
# - The bridge lives in its own netns, not on the host: the host has br_netfilter on
#   (net.bridge.bridge-nf-call-iptables=1) and the main engine's FORWARD policy DROP, so traffic
#   bridged on the host between two nodes would be dropped by the host's firewall. In the hub's
#   netns there are no rules. The host's own traffic to the nodes (ps3-host) is local (OUTPUT/INPUT),
#   which the main engine does not filter.
# - 198.18.0.0/15 (RFC 2544, benchmarking) is used by nobody here: not the main engine's pools
#   (172.17-31/16, 192.168/20), not swarm's overlay pool (10.0.0.0/8), not Kubernetes' usual ranges.
# - `ip netns exec` mounts a fresh sysfs on /sys (so /sys/class/net shows the node's links), which
#   hides the cgroup mounts under /sys/fs/cgroup: they are mounted again inside (same hierarchies
#   as on the host, so cgroup paths mean the same thing inside and out).
# - Every dockerd has its own --data-root, --exec-root (its containerd's socket and state are under
#   it), --pidfile, -H unix socket and --config-file (an empty one: /etc/docker/daemon.json is the
#   main engine's), and --cgroup-parent=/platform-swarm3-nodeN, so that its containers' cgroups do
#   not mix with the main engine's /docker/<id> and a node's processes can all be found.
# - overlay2 works on the ext4 /tmp (so does iptables, nf_tables backend, inside each netns: the
#   engines' rules live and die with their netns). vfs and --iptables=false are fallbacks only.
# - The kernel has no IPVS: services need endpoint mode dnsrr, and ports published in host mode
#   (no routing mesh, no VIPs). Overlay networks (VXLAN, built in) work between the nodes.
# - The nodes have no default route: the only way out is the hub. The swarm agent tries to pull a
#   service's image before using the local one (no digest could be recorded without a registry);
#   with no route that fails at once instead of waiting on DNS timeouts.
# - UTS namespace: each node's hostname is platform-swarm3-nodeN, which `docker node ls` and
#   `docker service ps` show.

STATE_DIR=${PLATFORM_SWARM3_DIR:-/tmp/platform-swarm3}
PREFIX=platform-swarm3
NET=${PLATFORM_SWARM3_NET:-198.18.213} # first three octets of the /24
HOST_LINK=ps3-host
HUB=$PREFIX-hub
# The dispatcher heartbeat: a node is marked down after about 3 missed heartbeats. Docker's default
# is 5s (a lost node is seen after ~15s); 1s makes node-loss tests ~12s faster.
HEARTBEAT=${PLATFORM_SWARM3_HEARTBEAT:-1s}
IMAGE=platform-test/busybox:latest
# Where the test image comes from: the main engine (made there by .ci/docker-up.sh).
MAIN_ENGINE=${PLATFORM_SWARM3_IMAGE_SOURCE:-unix:///var/run/docker.sock}
NODES=(1 2 3)
LIB=${BASH_SOURCE[0]}

log() { echo "${SWARM3_TAG:-swarm3}: $*" >&2; }
die() { log "$*"; exit 1; }

node_ns() { echo "$PREFIX-node$1"; }
node_dir() { echo "$STATE_DIR/node$1"; }
node_sock() { echo "$STATE_DIR/node$1/docker.sock"; }
node_addr() { echo "$NET.1$1"; }
dk() { local n=$1; shift; docker -H "unix://$(node_sock "$n")" "$@"; }

# One flock for up, down and node: they change the same namespaces and engines. Down removes the
# lock file with the rest, so a waiter checks that the file it locked is still the lock file.
take_lock() {
  mkdir -p "$STATE_DIR"
  for _ in $(seq 1 100); do
    exec 9>>"$STATE_DIR/lock"
    flock 9
    if [ "$(stat -c %d:%i "$STATE_DIR/lock" 2>/dev/null)" = "$(stat -L -c %d:%i /proc/self/fd/9)" ]; then return 0; fi
    exec 9>&-
    mkdir -p "$STATE_DIR"
  done
  die "could not take the lock $STATE_DIR/lock"
}

install_packages() {
  local missing=()
  command -v ip >/dev/null 2>&1 || missing+=(iproute2)
  command -v dockerd >/dev/null 2>&1 || missing+=(docker.io)
  command -v unshare >/dev/null 2>&1 || missing+=(util-linux)
  [ ${#missing[@]} -eq 0 ] && return 0
  log "installing ${missing[*]}"
  apt-get update -q >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
    -o DPkg::Lock::Timeout=300 "${missing[@]}" >/dev/null
}

netns_exists() { [ -e "/run/netns/$1" ]; }

# The hub, the host's link into it and each node's netns with its eth0; each piece only if missing.
network_up() {
  if ! netns_exists "$HUB"; then
    # /run/netns is made (a shared bind mount on itself) by the first `ip netns add`; down undoes
    # that only if it was not there before.
    [ -d /run/netns ] || touch "$STATE_DIR/made-run-netns"
    ip netns add "$HUB"
    ip -n "$HUB" link set lo up
    ip -n "$HUB" link add br0 type bridge
    ip -n "$HUB" link set br0 up
  fi
  if ! ip link show "$HOST_LINK" >/dev/null 2>&1; then
    ip link add "$HOST_LINK" type veth peer name host netns "$HUB"
    ip -n "$HUB" link set host master br0 up
    ip addr add "$NET.254/24" dev "$HOST_LINK"
    ip link set "$HOST_LINK" up
  fi
  local n ns
  for n in "${NODES[@]}"; do
    ns=$(node_ns "$n")
    netns_exists "$ns" || ip netns add "$ns"
    if ! ip -n "$ns" link show eth0 >/dev/null 2>&1; then
      ip -n "$HUB" link del "node$n" 2>/dev/null || true
      ip -n "$HUB" link add "node$n" type veth peer name eth0 netns "$ns"
      ip -n "$HUB" link set "node$n" master br0 up
      ip -n "$ns" link set lo up
      ip -n "$ns" addr add "$(node_addr "$n")/24" dev eth0
      ip -n "$ns" link set eth0 up
    fi
  done
}

network_down() {
  local ns
  for ns in "$(node_ns 3)" "$(node_ns 2)" "$(node_ns 1)" "$HUB"; do
    netns_exists "$ns" && ip netns del "$ns"
  done
  # Deleting the hub's netns destroys the veth pair asynchronously; do not leave before it is gone.
  ip link del "$HOST_LINK" 2>/dev/null || true
  for _ in $(seq 1 50); do ip link show "$HOST_LINK" >/dev/null 2>&1 || break; sleep 0.1; done
  if [ -e "$STATE_DIR/made-run-netns" ] && [ -z "$(ls -A /run/netns 2>/dev/null)" ]; then
    umount /run/netns 2>/dev/null || true
    rmdir /run/netns 2>/dev/null || true
  fi
}

# The pid of node n's dockerd, if it runs (checked against its command line: pids are reused).
engine_pid() {
  local pidfile pid
  pidfile="$(node_dir "$1")/dockerd.pid"
  [ -s "$pidfile" ] || return 1
  pid=$(cat "$pidfile")
  kill -0 "$pid" 2>/dev/null || return 1
  tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -qF -- "--data-root $(node_dir "$1")/data" || return 1
  echo "$pid"
}

engine_answers() { dk "$1" version --format '{{.Server.Version}}' >/dev/null 2>&1; }

# Every process of node n: those in its netns (dockerd, containerd, shims, docker-proxy) and those
# in its containers' cgroups (the containers have netns of their own).
node_pids() {
  local n=$1
  {
    netns_exists "$(node_ns "$n")" && ip netns pids "$(node_ns "$n")" 2>/dev/null
    find /sys/fs/cgroup -path "*/$PREFIX-node$n/*" -name cgroup.procs -exec cat {} + 2>/dev/null
  } | sort -un
}

# rmdir of node n's cgroups, deepest first (docker leaves its containers' after a hard stop).
remove_cgroups() {
  local dir
  find /sys/fs/cgroup -maxdepth 2 -type d -name "$PREFIX-node$1" 2>/dev/null | while read -r dir; do
    find "$dir" -depth -type d -exec rmdir {} \; 2>/dev/null || true
  done
}

# SIGKILL every process of node n at once, as when the machine loses power, until none is left.
kill_node() {
  local n=$1 pids
  for _ in $(seq 1 100); do
    pids=$(node_pids "$n")
    [ -z "$pids" ] && break
    # shellcheck disable=SC2086
    kill -KILL $pids 2>/dev/null || true
    sleep 0.1
  done
  [ -z "$(node_pids "$n")" ] || die "node$n: processes left after SIGKILL: $(node_pids "$n" | tr '\n' ' ')"
  remove_cgroups "$n"
}

# SIGTERM to dockerd (it stops its containers, then containerd), then SIGKILL to what is left.
stop_engine() {
  local n=$1 pid
  if pid=$(engine_pid "$n"); then
    kill -TERM "$pid"
    for _ in $(seq 1 300); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  fi
  kill_node "$n"
}

# Runs inside the node's namespaces (see start_engine): mounts the cgroup hierarchies again and
# becomes dockerd.
engine_exec() {
  local n=$1 type dir opts
  shift
  hostname "$PREFIX-node$n"
  while read -r type dir opts; do
    mkdir -p "$dir"
    mount -t "$type" -o "$opts" "$type" "$dir"
  done <"$STATE_DIR/cgroup-mounts"
  exec dockerd "$@"
}

# Starts node n's dockerd with the flags that worked before (or tries overlay2 + iptables, then vfs,
# then vfs without iptables); returns once its socket answers.
start_engine() {
  local n=$1 dir pid flags
  dir=$(node_dir "$n")
  if engine_pid "$n" >/dev/null && engine_answers "$n"; then return 0; fi
  kill_node "$n" # a half-started or hung engine
  mkdir -p "$dir/data"
  # The exec root is run-time state (/run on a real machine), empty after a restart.
  rm -rf "$dir/exec" "$dir/dockerd.pid"
  mkdir -p "$dir/exec"
  echo '{}' >"$dir/daemon.json"
  awk '$2 ~ "^/sys/fs/cgroup" && ($3 == "tmpfs" || $3 == "cgroup" || $3 == "cgroup2") { print $3, $2, $4 }' \
    /proc/self/mounts >"$STATE_DIR/cgroup-mounts"
  if [ -e "$dir/flags" ]; then
    read -ra flags <"$dir/flags" || true
    try_engine "$n" "${flags[@]}" && return 0
    die "node$n: dockerd ${flags[*]} did not start again (log: $dir/dockerd.log)"
  fi
  local choice
  for choice in "" "--storage-driver=vfs" "--storage-driver=vfs --iptables=false"; do
    # shellcheck disable=SC2206
    flags=($choice)
    if try_engine "$n" "${flags[@]}"; then
      echo "$choice" >"$dir/flags"
      return 0
    fi
    rm -rf "$dir/data" && mkdir -p "$dir/data"
  done
  die "node$n: could not start dockerd (log: $dir/dockerd.log)"
}

try_engine() {
  local n=$1 dir pid
  shift
  dir=$(node_dir "$n")
  log "node$n: starting dockerd $*"
  # setsid: the engine outlives this script; 9>&-: it must not hold the lock.
  # shellcheck disable=SC2016 # expanded by the inner bash
  setsid ip netns exec "$(node_ns "$n")" unshare --uts -- \
    bash -c 'source "$1"; shift; engine_exec "$@"' _ "$LIB" "$n" \
    --config-file "$dir/daemon.json" --data-root "$dir/data" --exec-root "$dir/exec" \
    --pidfile "$dir/dockerd.pid" -H "unix://$dir/docker.sock" --cgroup-parent "/$PREFIX-node$n" "$@" \
    </dev/null >>"$dir/dockerd.log" 2>&1 9>&- &
  pid=$!
  for _ in $(seq 1 600); do
    if engine_answers "$n"; then return 0; fi
    if ! kill -0 "$pid" 2>/dev/null; then
      log "node$n: dockerd $* exited:"; tail -n 5 "$dir/dockerd.log" >&2; return 1
    fi
    sleep 0.1
  done
  log "node$n: dockerd $* did not answer within 60s"; tail -n 5 "$dir/dockerd.log" >&2
  kill_node "$n"
  return 1
}

# The test image as a `docker save` archive, once: from the main engine, or (no main engine or no
# image there) made on node 1 from /bin/busybox as .ci/docker-up.sh does. Loading one archive
# everywhere gives every node the same image ID.
image_archive() {
  local tar=$STATE_DIR/busybox.tar
  [ -s "$tar" ] && { echo "$tar"; return 0; }
  if docker -H "$MAIN_ENGINE" image inspect "$IMAGE" >/dev/null 2>&1; then
    docker -H "$MAIN_ENGINE" save -o "$tar.tmp" "$IMAGE"
  else
    log "$IMAGE is not on $MAIN_ENGINE: building it on node1 from /bin/busybox"
    [ -x /bin/busybox ] || {
      apt-get update -q >/dev/null
      DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends -o DPkg::Lock::Timeout=300 busybox-static >/dev/null
    }
    local rootfs
    rootfs=$(mktemp -d)
    mkdir -p "$rootfs"/{bin,etc,tmp,root,var/www,proc,sys,dev}
    chmod 1777 "$rootfs/tmp"
    cp /bin/busybox "$rootfs/bin/busybox"
    chroot "$rootfs" /bin/busybox --install -s /bin
    echo 'root:x:0:0:root:/root:/bin/sh' >"$rootfs/etc/passwd"
    echo 'root:x:0:' >"$rootfs/etc/group"
    tar -C "$rootfs" -c . | dk 1 import --change 'CMD ["/bin/sh"]' - "$IMAGE" >/dev/null
    rm -rf "$rootfs"
    dk 1 save -o "$tar.tmp" "$IMAGE"
  fi
  mv "$tar.tmp" "$tar"
  echo "$tar"
}

load_image() {
  local n=$1
  dk "$n" image inspect "$IMAGE" >/dev/null 2>&1 && return 0
  dk "$n" load -q -i "$(image_archive)" >/dev/null
}

swarm_state() { dk "$1" info --format '{{.Swarm.LocalNodeState}}' 2>/dev/null; }
cluster_id() { dk "$1" info --format '{{.Swarm.Cluster.ID}}' 2>/dev/null; }

# Node 1 initialises the swarm; 2 and 3 join as managers (see swarm3-up.sh for why three managers).
form_swarm() {
  local n
  # Engines restarted over an earlier run's data come back "pending" while their raft reconnects:
  # give them time, and start afresh if the old swarm does not come back (say, after a reboot).
  local waited=0
  while [ "$(swarm_state 1)" = pending ] && [ $waited -lt 30 ]; do sleep 1; waited=$((waited + 1)); done
  if [ "$(swarm_state 1)" != active ] && [ "$(swarm_state 1)" != inactive ]; then
    log "node1: swarm $(swarm_state 1) after ${waited}s, leaving it on every node to start afresh"
    for n in "${NODES[@]}"; do dk "$n" swarm leave --force >/dev/null 2>&1 || true; done
  fi
  if [ "$(swarm_state 1)" != active ]; then
    log "node1: swarm init --advertise-addr $(node_addr 1)"
    dk 1 swarm init --advertise-addr "$(node_addr 1)" --listen-addr "$(node_addr 1):2377" \
      --dispatcher-heartbeat "$HEARTBEAT" >/dev/null
  fi
  local token cluster
  token=$(dk 1 swarm join-token -q manager)
  cluster=$(cluster_id 1)
  for n in 2 3; do
    if [ "$(swarm_state "$n")" = active ] && [ "$(cluster_id "$n")" != "$cluster" ]; then
      log "node$n: in another swarm ($(cluster_id "$n")), leaving it"
      dk "$n" swarm leave --force >/dev/null
    elif [ "$(swarm_state "$n")" != active ] && [ "$(swarm_state "$n")" != inactive ]; then
      log "node$n: swarm $(swarm_state "$n"), leaving it"
      dk "$n" swarm leave --force >/dev/null
    fi
    if [ "$(swarm_state "$n")" != active ]; then
      log "node$n: swarm join --advertise-addr $(node_addr "$n")"
      dk "$n" swarm join --token "$token" --advertise-addr "$(node_addr "$n")" \
        --listen-addr "$(node_addr "$n"):2377" "$(node_addr 1):2377" >/dev/null
    fi
  done
  local current
  current=$(dk 1 info --format '{{.Swarm.Cluster.Spec.Dispatcher.HeartbeatPeriod}}')
  if [ "$current" != "$(heartbeat_ns)" ]; then dk 1 swarm update --dispatcher-heartbeat "$HEARTBEAT" >/dev/null; fi
}

heartbeat_ns() {
  local v=$HEARTBEAT
  case $v in
    *ms) echo $((${v%ms} * 1000000)) ;;
    *s) echo $((${v%s} * 1000000000)) ;;
    *) echo "$v" ;;
  esac
}

# "addr state reachability" of every node the swarm knows, asked of the first manager that answers.
node_table() {
  local n
  for n in "${NODES[@]}"; do
    if [ "$(swarm_state "$n")" = active ]; then
      dk "$n" node ls -q 2>/dev/null | xargs -r docker -H "unix://$(node_sock "$n")" node inspect \
        --format '{{.Status.Addr}} {{.Status.State}} {{if .ManagerStatus}}{{.ManagerStatus.Reachability}}{{end}}' 2>/dev/null &&
        return 0
    fi
  done
  return 1
}

# Waits until each of the given nodes is ready (and, as a manager, reachable) in the swarm.
wait_ready() {
  local deadline=$((SECONDS + ${WAIT_SECONDS:-120})) n table ok
  while :; do
    table=$(node_table || true)
    ok=1
    for n in "$@"; do
      grep -q "^$(node_addr "$n") ready reachable$" <<<"$table" || ok=0
    done
    [ $ok = 1 ] && return 0
    [ $SECONDS -ge $deadline ] && { log "nodes not ready after ${WAIT_SECONDS:-120}s:"; echo "$table" >&2; return 1; }
    sleep 0.2
  done
}

write_env() {
  local hosts=() addrs=() n
  for n in "${NODES[@]}"; do hosts+=("unix://$(node_sock "$n")"); addrs+=("$(node_addr "$n")"); done
  {
    echo "DOCKER_HOST=unix://$(node_sock 1)"
    echo "PLATFORM_SWARM3_HOSTS=$(IFS=,; echo "${hosts[*]}")"
    echo "PLATFORM_SWARM3_ADDRS=$(IFS=,; echo "${addrs[*]}")"
  } >"$STATE_DIR/env.tmp"
  mv "$STATE_DIR/env.tmp" "$STATE_DIR/env"
}
