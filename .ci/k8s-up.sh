#!/usr/bin/env bash
# Starts a one-node Kubernetes 1.20 cluster for the tests: etcd (Debian's etcd-server 3.4),
# kube-apiserver, kube-controller-manager, kube-scheduler and a kubelet whose dockershim runs the
# pods on the machine's Docker engine (the one .ci/docker-up.sh starts). The binaries come from
# Debian's `kubernetes` source package, built once per machine by .ci/k8s-build.sh into
# /var/cache/platform-k8s/<debian-version>/bin. Idempotent: when the cluster answers and its node
# is Ready it only prints the kubeconfig path. .ci/k8s-down.sh stops it and leaves nothing behind.
#
#   bash .ci/k8s-up.sh     -> last line: the admin kubeconfig, /tmp/platform-k8s/admin.kubeconfig
#   export KUBECONFIG=/tmp/platform-k8s/admin.kubeconfig
#   /tmp/platform-k8s/bin/kubectl get nodes   (the kubectl built with the cluster, v1.20)
#
# The cluster (all on 127.0.0.1, all state under $PLATFORM_K8S_DIR, default /tmp/platform-k8s):
# - apiserver https://127.0.0.1:16443, authn by client certificate (the admin is in
#   system:masters), authz Node,RBAC, admission defaults + NodeRestriction. etcd on :16379 (http).
# - one node, named `localhost`; kubelet on :16250 (webhook authn/authz), healthz :16248.
# - a default StorageClass `platform-k8s-hostpath` (provisioner kubernetes.io/host-path, the
#   controller-manager's test provisioner) so that a PVC without storageClassName is bound.
# - pod infra image platform-k8s/pause:1.20, made locally from busybox (never pulled).
#
# What works (checked on these machines, 2026-11, Debian 12, docker.io 20.10.24, cgroup v1):
# - Pods with env/command/args run; `kubectl logs`, `kubectl exec` and `kubectl port-forward` work
#   (through the kubelet; port-forward needs socat on the host, installed here).
#   Images must be local: use imagePullPolicy Never (or IfNotPresent) — `:latest` defaults to
#   Always, which tries a registry and fails.
# - A missing image with IfNotPresent/Always: ErrImagePull, then ImagePullBackOff (no registry is
#   reachable, the pull fails fast). With Never: ErrImageNeverPull.
# - A crashing command: CrashLoopBackOff, restartCount rising.
# - Deployments roll out (ReplicaSets, scaling, a rolling update to a new pod template).
# - PVCs: a PVC without storageClassName gets the default class and is provisioned (a hostPath PV
#   under /tmp/hostpath_pv/<uuid>, deleted with the PVC: reclaim policy Delete); a pod mounting it
#   writes there. Statically made hostPath PVs also bind (storageClassName "" on both, or a
#   matching class name). Pre-made PVs with a StorageClass that has
#   provisioner kubernetes.io/no-provisioner bind too (WaitForFirstConsumer binds at scheduling).
# - Services get a ClusterIP from 127.10.0.0/16 (a loopback range on purpose: nothing routes
#   ClusterIPs — there is no kube-proxy — and a mistaken connect to one stays on this machine) and
#   Endpoints with the pods' IPs (docker0 addresses, 172.17.x, reachable from the host).
#   hostPort works (dockershim publishes it on the pod's sandbox container, like `docker run -p`),
#   so `hostPort` with `hostIP: 127.0.0.1` is how a test reaches a pod from the host (or
#   `kubectl port-forward`). NodePorts are allocated (30000-32767) but, like ClusterIPs, unrouted.
# - No cluster DNS (pods use the host's resolv.conf; events say MissingClusterDNS), no CNI, no
#   NetworkPolicy, no kube-proxy (NodePort/LoadBalancer/ClusterIP are not routed).
# What the sandbox needs worked around (all here, nothing global is changed on the engine):
# - No CAP_SYS_RESOURCE: the kubelet's negative oom_score_adj (-998 for every pod sandbox) makes
#   runc fail. The kubelet talks to the engine through .ci/k8s-docker-proxy.js, which clamps it to
#   0 and labels every container it creates `platform-k8s=kubelet` (the dockershim names them
#   k8s_*). Every 5 min the dockershim also tries to set -999 on the dockerd/containerd processes:
#   that fails the same way and is only logged.
# - The kubelet sets host sysctls (vm.overcommit_memory, vm.panic_on_oom, kernel.panic,
#   kernel.panic_on_oops, kernel.keys.root_maxkeys/maxbytes): their values before are saved and
#   k8s-down restores them. Its iptables chains are off (makeIPTablesUtilChains: false), and so is
#   image garbage collection (imageGCHighThresholdPercent: 100: the engine's images belong to
#   others too).
# - It writes outside its root dir: /var/lib/kubelet/device-plugins, /var/log/pods,
#   /var/log/containers, cgroups /kubepods (the provisioner: /tmp/hostpath_pv); k8s-down removes
#   those that were not there before. Its sockets (dockershim, docker proxy) are in $STATE.
# - Its ports are not the usual ones (10250, 6443, 2379...), so that nothing else on the machine
#   that might use those clashes with it.
#
# Timings (2 cores): the build, once per machine and package version, ~8 min (.ci/k8s-build.sh);
# k8s-up with the binaries cached 15-20 s until the node is Ready and a check pod Running; again
# when already up 0.2 s; k8s-down ~2 s.
set -euo pipefail
cd "$(dirname "$0")"
CI_DIR=$(pwd)

STATE=${PLATFORM_K8S_DIR:-/tmp/platform-k8s}
CACHE=${PLATFORM_K8S_CACHE:-/var/cache/platform-k8s}
KUBECONFIG_PATH=$STATE/admin.kubeconfig
PAUSE_IMAGE=platform-k8s/pause:1.20
TEST_IMAGE=platform-test/busybox:latest
ETCD_PORT=16379 ETCD_PEER_PORT=16380 API_PORT=16443 KUBELET_PORT=16250 KUBELET_HEALTHZ_PORT=16248
CM_PORT=16257 SCHEDULER_PORT=16259
SERVICE_CIDR=127.10.0.0/16 FIRST_SERVICE_IP=127.10.0.1
ENGINE_SOCKET=/var/run/docker.sock
case "${DOCKER_HOST:-}" in unix://*) ENGINE_SOCKET=${DOCKER_HOST#unix://} ;; esac
# Paths the kubelet uses whatever its --root-dir: k8s-down removes the ones that were not there.
OUTSIDE_PATHS=(/var/lib/kubelet /var/log/pods /var/log/containers /tmp/hostpath_pv)
SYSCTLS=(vm.overcommit_memory vm.panic_on_oom kernel.panic kernel.panic_on_oops
  kernel.keys.root_maxkeys kernel.keys.root_maxbytes)
log() { echo "k8s-up: $*" >&2; }

mkdir -p "$CACHE"
exec 9>"$CACHE/run.lock"
flock 9 # an up and a down (or two ups) at once would fight over the same ports and state

# --cache-dir: kubectl would otherwise leave its discovery cache in ~/.kube.
kubectl_() { "$STATE/bin/kubectl" --kubeconfig "$KUBECONFIG_PATH" --cache-dir "$STATE/kubectl-cache" "$@"; }
# Alive: the recorded pid runs, is not a zombie (exited, not yet reaped by this sandbox's init),
# and is still ours (every command line here names $STATE; a pid reused after a reboot is not).
alive() {
  local pid
  pid=$(cat "$STATE/$1.pid" 2>/dev/null) && [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null &&
    ! grep -q '^[0-9]* ([^)]*) Z' "/proc/$pid/stat" 2>/dev/null &&
    grep -qaF "$STATE" "/proc/$pid/cmdline" 2>/dev/null
}
node_ready() {
  [ "$(kubectl_ get node localhost -o jsonpath='{.status.conditions[?(@.type=="Ready")].status}' 2>/dev/null)" = True ]
}

if [ -s "$KUBECONFIG_PATH" ] && alive etcd && alive kube-apiserver && alive kube-controller-manager &&
  alive kube-scheduler && alive kubelet && alive docker-proxy && node_ready; then
  log "already up"
  echo "$KUBECONFIG_PATH"
  exit 0
fi
if [ -d "$STATE" ]; then
  log "a partial cluster is in $STATE: stopping it first"
  PLATFORM_K8S_LOCKED=1 bash "$CI_DIR/k8s-down.sh" 9>&-
fi
started=$(date +%s)

# --- packages, binaries, images -------------------------------------------------------------
missing=()
for pkg in etcd-server openssl curl socat; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'ok installed' || missing+=("$pkg")
done
if [ ${#missing[@]} -gt 0 ]; then
  log "installing ${missing[*]}"
  apt-get update -q >/dev/null
  # policy-rc.d may or may not stop the package's own etcd service from starting: it is not used
  # (it would listen on 2379); ours runs on $ETCD_PORT with its data in $STATE.
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
    -o DPkg::Lock::Timeout=300 "${missing[@]}" >/dev/null
fi
BIN=$(bash "$CI_DIR/k8s-build.sh" 9>&-)
docker version --format '{{.Server.Version}}' >/dev/null 2>&1 ||
  { log "no Docker engine answers (run .ci/docker-up.sh first)"; exit 1; }
docker image inspect "$TEST_IMAGE" >/dev/null 2>&1 ||
  { log "$TEST_IMAGE is missing (run .ci/docker-up.sh first)"; exit 1; }

mkdir -p "$STATE"/{pki,log,kubelet,dockershim,etcd,pv}
chmod 700 "$STATE/etcd"
ln -sfn "$BIN" "$STATE/bin"
for path in "${OUTSIDE_PATHS[@]}"; do [ -e "$path" ] && echo "$path"; done >"$STATE/outside-before" || true

# The pod sandbox ("pause") image: a shell that sleeps until it is told to stop. busybox sleep as
# PID 1 would ignore SIGTERM and make every pod deletion wait the 10 s stop timeout.
if ! docker image inspect "$PAUSE_IMAGE" >/dev/null 2>&1; then
  log "making $PAUSE_IMAGE from $TEST_IMAGE"
  id=$(docker create --label platform-k8s=pause-build "$TEST_IMAGE" true)
  docker export "$id" | docker import \
    --change 'ENTRYPOINT ["/bin/sh", "-c", "trap \"exit 0\" TERM INT; while :; do sleep 3600 & wait $!; done"]' \
    --change 'LABEL platform-k8s=pause' - "$PAUSE_IMAGE" >/dev/null
  docker rm -f "$id" >/dev/null
fi

# --- certificates -----------------------------------------------------------------------------
# The address the apiserver advertises in the `kubernetes` Endpoints, which may not be loopback:
# the machine's address on its default route, else docker0's.
advertise=$(ip -4 -o addr show dev "$(ip -4 route show default | awk '{print $5; exit}')" 2>/dev/null |
  awk '{split($4, a, "/"); print a[1]; exit}')
[ -n "$advertise" ] || advertise=$(ip -4 -o addr show dev docker0 | awk '{split($4, a, "/"); print a[1]; exit}')
[ -n "$advertise" ] || { log "no IPv4 address to advertise (no default route, no docker0)"; exit 1; }

pki=$STATE/pki
openssl req -x509 -newkey rsa:2048 -nodes -days 3650 -subj /CN=platform-k8s-ca \
  -keyout "$pki/ca.key" -out "$pki/ca.crt" 2>/dev/null
# cert NAME SUBJECT [SANS]: a key and a certificate signed by the CA, for a client, or for a
# server when SANS is given.
cert() {
  local name=$1 subject=$2 sans=${3:-} ext=$pki/$1.ext
  if [ -n "$sans" ]; then
    printf 'basicConstraints=CA:FALSE\nkeyUsage=digitalSignature,keyEncipherment\nextendedKeyUsage=serverAuth,clientAuth\nsubjectAltName=%s\n' "$sans" >"$ext"
  else
    printf 'basicConstraints=CA:FALSE\nkeyUsage=digitalSignature,keyEncipherment\nextendedKeyUsage=clientAuth\n' >"$ext"
  fi
  openssl req -new -newkey rsa:2048 -nodes -subj "$subject" -keyout "$pki/$name.key" -out "$pki/$name.csr" 2>/dev/null
  openssl x509 -req -in "$pki/$name.csr" -CA "$pki/ca.crt" -CAkey "$pki/ca.key" -CAcreateserial \
    -days 3650 -extfile "$ext" -out "$pki/$name.crt" 2>/dev/null
  rm -f "$pki/$name.csr" "$ext"
}
cert apiserver /CN=kube-apiserver \
  "DNS:localhost,DNS:kubernetes,DNS:kubernetes.default,DNS:kubernetes.default.svc,DNS:kubernetes.default.svc.cluster.local,IP:127.0.0.1,IP:$FIRST_SERVICE_IP,IP:$advertise"
cert admin '/O=system:masters/CN=platform-k8s-admin'
cert controller-manager /CN=system:kube-controller-manager
cert scheduler /CN=system:kube-scheduler
cert kubelet '/O=system:nodes/CN=system:node:localhost'
cert apiserver-kubelet-client '/O=system:masters/CN=kube-apiserver-kubelet-client'
openssl genrsa -out "$pki/sa.key" 2048 2>/dev/null
openssl rsa -in "$pki/sa.key" -pubout -out "$pki/sa.pub" 2>/dev/null
chmod 600 "$pki"/*.key

# kubeconfig NAME USER: certificates embedded, so the file can be copied or read alone.
kubeconfig() {
  cat >"$STATE/$1.kubeconfig" <<EOF
apiVersion: v1
kind: Config
clusters:
- name: platform-k8s
  cluster:
    server: https://127.0.0.1:$API_PORT
    certificate-authority-data: $(base64 -w0 "$pki/ca.crt")
users:
- name: $2
  user:
    client-certificate-data: $(base64 -w0 "$pki/$1.crt")
    client-key-data: $(base64 -w0 "$pki/$1.key")
contexts:
- name: platform-k8s
  context: {cluster: platform-k8s, user: $2}
current-context: platform-k8s
EOF
  chmod 600 "$STATE/$1.kubeconfig"
}
kubeconfig controller-manager system:kube-controller-manager
kubeconfig scheduler system:kube-scheduler
kubeconfig kubelet system:node:localhost

# --- processes --------------------------------------------------------------------------------
# start NAME COMMAND...: in its own session (it outlives this script), log and pid file in $STATE.
start() {
  local name=$1
  shift
  setsid "$@" </dev/null >>"$STATE/log/$name.log" 2>&1 9>&- &
  echo $! >"$STATE/$name.pid"
}
# wait_for WHAT SECONDS PROCESS COMMAND...: until COMMAND succeeds; fails early if PROCESS died.
wait_for() {
  local what=$1 seconds=$2 process=$3 i
  shift 3
  for ((i = 0; i < seconds * 2; i++)); do
    if "$@" >/dev/null 2>&1; then return 0; fi
    if ! alive "$process"; then
      log "$process exited while waiting for $what:"
      tail -n 15 "$STATE/log/$process.log" >&2
      return 1
    fi
    sleep 0.5
  done
  log "$what: not within ${seconds}s (log: $STATE/log/$process.log)"
  tail -n 15 "$STATE/log/$process.log" >&2
  return 1
}
fail() { log "failed; the logs are in $STATE/log (bash .ci/k8s-down.sh cleans up)"; exit 1; }

log "starting etcd on 127.0.0.1:$ETCD_PORT"
start etcd etcd --name platform-k8s --data-dir "$STATE/etcd" \
  --listen-client-urls "http://127.0.0.1:$ETCD_PORT" --advertise-client-urls "http://127.0.0.1:$ETCD_PORT" \
  --listen-peer-urls "http://127.0.0.1:$ETCD_PEER_PORT" --initial-advertise-peer-urls "http://127.0.0.1:$ETCD_PEER_PORT" \
  --initial-cluster "platform-k8s=http://127.0.0.1:$ETCD_PEER_PORT" --initial-cluster-state new
wait_for "etcd health" 30 etcd curl -fsS "http://127.0.0.1:$ETCD_PORT/health" || fail

log "starting kube-apiserver on https://127.0.0.1:$API_PORT"
start kube-apiserver "$BIN/kube-apiserver" \
  --etcd-servers "http://127.0.0.1:$ETCD_PORT" \
  --bind-address 127.0.0.1 --secure-port "$API_PORT" --insecure-port 0 --advertise-address "$advertise" \
  --cert-dir "$STATE/apiserver" --tls-cert-file "$pki/apiserver.crt" --tls-private-key-file "$pki/apiserver.key" \
  --client-ca-file "$pki/ca.crt" \
  --authorization-mode Node,RBAC --enable-admission-plugins NodeRestriction \
  --service-cluster-ip-range "$SERVICE_CIDR" \
  --service-account-key-file "$pki/sa.pub" --service-account-signing-key-file "$pki/sa.key" \
  --service-account-issuer https://kubernetes.default.svc.cluster.local \
  --kubelet-client-certificate "$pki/apiserver-kubelet-client.crt" \
  --kubelet-client-key "$pki/apiserver-kubelet-client.key" \
  --kubelet-preferred-address-types Hostname,InternalIP \
  --allow-privileged=true --profiling=false
cert_args=(--cacert "$pki/ca.crt" --cert "$pki/admin.crt" --key "$pki/admin.key")
wait_for "apiserver /readyz" 90 kube-apiserver curl -fsS "${cert_args[@]}" "https://127.0.0.1:$API_PORT/readyz" || fail
kubeconfig admin platform-k8s-admin

log "starting kube-controller-manager and kube-scheduler"
start kube-controller-manager "$BIN/kube-controller-manager" \
  --kubeconfig "$STATE/controller-manager.kubeconfig" \
  --authentication-kubeconfig "$STATE/controller-manager.kubeconfig" \
  --authorization-kubeconfig "$STATE/controller-manager.kubeconfig" \
  --bind-address 127.0.0.1 --secure-port "$CM_PORT" --port 0 --cert-dir "$STATE/controller-manager" \
  --leader-elect=false --use-service-account-credentials \
  --service-account-private-key-file "$pki/sa.key" --root-ca-file "$pki/ca.crt" \
  --cluster-signing-cert-file "$pki/ca.crt" --cluster-signing-key-file "$pki/ca.key" \
  --service-cluster-ip-range "$SERVICE_CIDR" --allocate-node-cidrs=false \
  --enable-hostpath-provisioner --profiling=false
start kube-scheduler "$BIN/kube-scheduler" \
  --kubeconfig "$STATE/scheduler.kubeconfig" \
  --authentication-kubeconfig "$STATE/scheduler.kubeconfig" \
  --authorization-kubeconfig "$STATE/scheduler.kubeconfig" \
  --bind-address 127.0.0.1 --secure-port "$SCHEDULER_PORT" --port 0 --cert-dir "$STATE/scheduler" \
  --leader-elect=false --profiling=false

log "starting the docker proxy and the kubelet (node localhost)"
start docker-proxy node "$CI_DIR/k8s-docker-proxy.js" "$STATE/docker.sock" "$ENGINE_SOCKET"
wait_for "the docker proxy" 10 docker-proxy test -S "$STATE/docker.sock" || fail
if [ ! -e "$STATE/sysctl-before" ]; then
  for key in "${SYSCTLS[@]}"; do
    value=$(sysctl -n "$key" 2>/dev/null) && echo "$key=$value"
  done >"$STATE/sysctl-before"
fi
cat >"$STATE/kubelet-config.yaml" <<EOF
apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
address: 127.0.0.1
port: $KUBELET_PORT
readOnlyPort: 0
healthzBindAddress: 127.0.0.1
healthzPort: $KUBELET_HEALTHZ_PORT
authentication:
  anonymous: {enabled: false}
  webhook: {enabled: true}
  x509: {clientCAFile: $pki/ca.crt}
authorization: {mode: Webhook}
cgroupDriver: $(docker info --format '{{.CgroupDriver}}')
failSwapOn: false
makeIPTablesUtilChains: false
hairpinMode: none
imageGCHighThresholdPercent: 100
imageGCLowThresholdPercent: 99
evictionHard: {memory.available: 100Mi, nodefs.available: 1%, imagefs.available: 1%, nodefs.inodesFree: 1%}
serializeImagePulls: false
clusterDomain: cluster.local
resolvConf: /etc/resolv.conf
nodeStatusUpdateFrequency: 4s
EOF
start kubelet "$BIN/kubelet" \
  --kubeconfig "$STATE/kubelet.kubeconfig" --config "$STATE/kubelet-config.yaml" \
  --container-runtime docker --docker-endpoint "unix://$STATE/docker.sock" \
  --pod-infra-container-image "$PAUSE_IMAGE" \
  --hostname-override localhost \
  --root-dir "$STATE/kubelet" --cert-dir "$STATE/kubelet/pki" \
  --container-runtime-endpoint "unix://$STATE/dockershim.sock" \
  --image-service-endpoint "unix://$STATE/dockershim.sock" \
  --experimental-dockershim-root-directory "$STATE/dockershim"
wait_for "node localhost Ready" 90 kubelet node_ready || fail

# --- the cluster's own objects and a check that a pod really runs ------------------------------
kubectl_ apply -f - >/dev/null <<'EOF'
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata:
  name: platform-k8s-hostpath
  annotations: {storageclass.kubernetes.io/is-default-class: "true"}
provisioner: kubernetes.io/host-path
reclaimPolicy: Delete
volumeBindingMode: Immediate
EOF
# Pods are refused until the service account controller made the namespace's `default` one.
wait_for "the default service account" 60 kube-controller-manager kubectl_ -n default get serviceaccount default || fail
kubectl_ -n default apply -f - >/dev/null <<EOF
apiVersion: v1
kind: Pod
metadata: {name: platform-k8s-up-check}
spec:
  restartPolicy: Never
  terminationGracePeriodSeconds: 0
  containers:
  - name: main
    image: $TEST_IMAGE
    imagePullPolicy: Never
    command: [sh, -c, 'echo up-check-ok; sleep 3600']
EOF
pod_running() { [ "$(kubectl_ -n default get pod platform-k8s-up-check -o jsonpath='{.status.phase}')" = Running ]; }
if ! wait_for "the check pod Running" 90 kubelet pod_running; then
  kubectl_ -n default describe pod platform-k8s-up-check | tail -n 20 >&2 || true
  fail
fi
kubectl_ -n default delete pod platform-k8s-up-check --grace-period=0 --force --wait=false >/dev/null 2>&1 || true

log "up in $(($(date +%s) - started)) s: $(kubectl_ version --short 2>/dev/null | tr '\n' ' ')"
log "export KUBECONFIG=$KUBECONFIG_PATH; kubectl: $STATE/bin/kubectl"
echo "$KUBECONFIG_PATH"
