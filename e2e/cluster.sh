#!/bin/bash
# A real Kubernetes cluster of machines that really reboot, on this one machine:
#   - the control plane here (etcd, kube-apiserver, kube-controller-manager, kube-scheduler) from $KUBE_BIN;
#   - three nodes, master-0 (labelled master and control-plane, tainted as a control-plane node), worker-0 and
#     worker-1, each a machine of its own: a Debian bookworm root booted by systemd-nspawn with its own systemd as PID
#     1, its own network namespace (a veth on the bridge $BRIDGE), running containerd, the kubelet and kube-proxy as
#     systemd units; `systemctl reboot` in a node stops them all, the node goes NotReady, and it boots again (a new
#     boot id, an empty /run) and rejoins;
#   - a pod network: each node's pods on a bridge of their own ($POD_NET_PREFIX.<i>.0/24), routed between the nodes;
#     the API server's `kubernetes` Service through each node's kube-proxy;
#   - a registry for the cluster's images on $REGISTRY (plain HTTP; the nodes' containerd is told so).
#
# Usage (as root, from anywhere):
#   e2e/cluster.sh up            a fresh cluster (wipes what a previous one left); prints the admin kubeconfig's path
#   e2e/cluster.sh down          stops it all (nodes powered off, control plane, registry, bridge, routes)
#   e2e/cluster.sh exec NODE -- CMD...   runs CMD on the node (in all its namespaces, as its root)
#   e2e/cluster.sh status        the nodes, their boot ids and boots
#   e2e/cluster.sh kubeconfig    prints the admin kubeconfig's path
# Env: KUBE_BIN (folder of kube-apiserver, kube-controller-manager, kube-scheduler, kubelet, kube-proxy, etcd;
#      default: ../shared/kube unpacked), E2E_STATE (default /var/lib/upshift-e2e), E2E_CACHE (the node root made by
#      debootstrap, made once), and the addresses and ports of lib.sh.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

need() { for c in "$@"; do command -v "$c" >/dev/null || die "$c is missing (Debian: apt-get install systemd-container debootstrap skopeo docker-registry iptables busybox-static openssl kubectl)"; done; }

# start NAME CMD...: a process of its own session, its PID in $RUN/NAME.pid, its output in $LOGS/NAME.log
start() {
  local name=$1; shift
  setsid bash -c 'echo $$ > "$0"; exec "$@"' "$RUN/$name.pid" "$@" > "$LOGS/$name.log" 2>&1 < /dev/null &
  for _ in $(seq 50); do [ -s "$RUN/$name.pid" ] && break; sleep 0.1; done
}
# waitfor NAME SECONDS CMD...
waitfor() {
  local name=$1 secs=$2; shift 2
  for _ in $(seq $((secs * 2))); do
    "$@" >/dev/null 2>&1 && return 0
    kill -0 "$(cat "$RUN/$name.pid")" 2>/dev/null || { tail -20 "$LOGS/$name.log" >&2; die "$name died (log: $LOGS/$name.log)"; }
    sleep 0.5
  done
  die "$name not ready after ${secs}s (log: $LOGS/$name.log)"
}

kubeconfig() {  # FILE USER CERTNAME
  local f=$1
  cat > "$f" <<EOF
apiVersion: v1
kind: Config
clusters:
- name: upshift-e2e
  cluster:
    server: $API_URL
    certificate-authority-data: $(base64 -w0 "$PKI/ca.crt")
users:
- name: $2
  user:
    client-certificate-data: $(base64 -w0 "$PKI/$3.crt")
    client-key-data: $(base64 -w0 "$PKI/$3.key")
contexts:
- name: upshift-e2e
  context: {cluster: upshift-e2e, user: $2}
current-context: upshift-e2e
EOF
  chmod 600 "$f"
}

# The node root every node is copied from, made once: debootstrap of bookworm with the node's packages.
base_root() {
  local key; key=$(echo "$NODE_PACKAGES $DEBIAN_MIRROR" | sha256sum | cut -c1-12)
  local base=$E2E_CACHE/bookworm-$key
  if [ ! -f "$base/.complete" ]; then
    need debootstrap
    say "making the node root once (debootstrap bookworm into $base; a minute or a few)" >&2
    rm -rf "$base.tmp"; mkdir -p "$E2E_CACHE"
    debootstrap --variant=minbase --include="$NODE_PACKAGES" bookworm "$base.tmp" "$DEBIAN_MIRROR" > "$E2E_CACHE/debootstrap.log" 2>&1 \
      || { tail -20 "$E2E_CACHE/debootstrap.log" >&2; die "debootstrap failed (log: $E2E_CACHE/debootstrap.log)"; }
    # what every node has in common: networkd for its address, no getty, containerd enabled (the package's unit)
    chroot "$base.tmp" systemctl enable systemd-networkd.service >/dev/null 2>&1
    chroot "$base.tmp" systemctl mask console-getty.service getty@.service e2scrub_reap.service >/dev/null 2>&1 || true
    rm -f "$base.tmp/etc/machine-id"
    touch "$base.tmp/.complete"
    rm -rf "$base"; mv "$base.tmp" "$base"
  fi
  echo "$base"
}

# Writes what makes a copy of the base root node NAME.
node_root() {
  local name=$1 root=$2 ip; ip=$(node_ip "$name")
  local idx; idx=$(node_index "$name")
  echo "$name" > "$root/etc/hostname"
  printf '127.0.0.1 localhost\n%s %s\n' "$ip" "$name" > "$root/etc/hosts"
  od -An -N16 -tx1 /dev/urandom | tr -d ' \n' > "$root/etc/machine-id"; echo >> "$root/etc/machine-id"

  # its address on the bridge; the other nodes' pods are routed to their nodes directly
  mkdir -p "$root/etc/systemd/network"
  {
    printf '[Match]\nName=host0\n\n[Network]\nAddress=%s/24\nGateway=%s\nIPForward=yes\n' "$ip" "$HOST_IP"
    for other in "${NODES[@]}"; do
      [ "$other" = "$name" ] && continue
      printf '\n[Route]\nDestination=%s\nGateway=%s\n' "$(node_pod_cidr "$other")" "$(node_ip "$other")"
    done
  } > "$root/etc/systemd/network/10-host0.network"

  # what the kubelet needs of a machine in a container: the cgroup v1 controllers writable (nspawn mounts them
  # read-only), /proc/sys writable (the kubelet sets its kernel tunables), a /dev/kmsg (its OOM watcher)
  install -m 0755 /dev/stdin "$root/usr/local/sbin/upshift-e2e-node-prep" <<'EOF'
#!/bin/sh
set -e
while read -r src dir fstype opts _; do
  [ "$fstype" = cgroup ] || continue
  case ",$opts," in *,ro,*) ;; *) continue;; esac
  ctl=$(echo "$opts" | tr ',' '\n' | grep -v -x -E 'ro|rw|nosuid|nodev|noexec|relatime' | paste -sd, -)
  umount -l "$dir"
  mount -t cgroup -o "rw,nosuid,nodev,noexec,$ctl" cgroup "$dir"
done < /proc/self/mounts
mount -o remount,rw /sys/fs/cgroup 2>/dev/null || true
mount -o remount,bind,rw /proc/sys 2>/dev/null || true
[ -e /dev/kmsg ] || ln -s /dev/console /dev/kmsg
EOF
  cat > "$root/etc/systemd/system/upshift-e2e-node-prep.service" <<'EOF'
[Unit]
Description=Make this machine fit for the kubelet (cgroups and /proc/sys writable, /dev/kmsg)
DefaultDependencies=no
Before=containerd.service kubelet.service
After=local-fs.target

[Service]
Type=oneshot
RemainAfterExit=yes
ExecStart=/usr/local/sbin/upshift-e2e-node-prep

[Install]
WantedBy=multi-user.target
EOF

  # containerd: cgroupfs, the cluster's registry over plain HTTP, the pause image from it, the CNI bridge
  mkdir -p "$root/etc/containerd/certs.d/$REGISTRY"
  cat > "$root/etc/containerd/config.toml" <<EOF
version = 2
disabled_plugins = ["io.containerd.snapshotter.v1.btrfs", "io.containerd.snapshotter.v1.zfs", "io.containerd.snapshotter.v1.aufs", "io.containerd.snapshotter.v1.devmapper"]
[plugins."io.containerd.grpc.v1.cri"]
  sandbox_image = "$REGISTRY/e2e/pause:1"
  tolerate_missing_hugetlb_controller = true
  # this machine lacks CAP_SYS_RESOURCE: no oom_score_adj below the parent's
  restrict_oom_score_adj = true
  [plugins."io.containerd.grpc.v1.cri".containerd]
    snapshotter = "overlayfs"
    default_runtime_name = "runc"
    [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]
      runtime_type = "io.containerd.runc.v2"
      [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]
        SystemdCgroup = false
  [plugins."io.containerd.grpc.v1.cri".cni]
    bin_dir = "/usr/lib/cni"
    conf_dir = "/etc/cni/net.d"
  [plugins."io.containerd.grpc.v1.cri".registry]
    config_path = "/etc/containerd/certs.d"
EOF
  cat > "$root/etc/containerd/certs.d/$REGISTRY/hosts.toml" <<EOF
server = "http://$REGISTRY"
[host."http://$REGISTRY"]
  capabilities = ["pull", "resolve"]
EOF
  mkdir -p "$root/etc/cni/net.d"
  cat > "$root/etc/cni/net.d/10-pods.conflist" <<EOF
{
  "cniVersion": "0.4.0",
  "name": "pods",
  "plugins": [
    {
      "type": "bridge",
      "bridge": "cni0",
      "isGateway": true,
      "isDefaultGateway": true,
      "ipMasq": false,
      "hairpinMode": true,
      "ipam": {"type": "host-local", "ranges": [[{"subnet": "$(node_pod_cidr "$name")"}]]}
    },
    {"type": "portmap", "capabilities": {"portMappings": true}}
  ]
}
EOF

  # the kubelet and kube-proxy, as the node's systemd units
  local k=$root/etc/kubernetes
  mkdir -p "$k/pki"
  cp "$PKI/ca.crt" "$k/pki/ca.crt"
  cp "$PKI/kubelet-server-$name.crt" "$k/pki/kubelet.crt"; cp "$PKI/kubelet-server-$name.key" "$k/pki/kubelet.key"
  kubeconfig "$k/kubelet.kubeconfig" "system:node:$name" "kubelet-client-$name"
  kubeconfig "$k/kube-proxy.kubeconfig" system:kube-proxy kube-proxy
  cat > "$k/kubelet.yaml" <<EOF
apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
address: $ip
port: 10250
readOnlyPort: 0
healthzBindAddress: 127.0.0.1
healthzPort: 10248
tlsCertFile: /etc/kubernetes/pki/kubelet.crt
tlsPrivateKeyFile: /etc/kubernetes/pki/kubelet.key
authentication:
  anonymous: {enabled: false}
  webhook: {enabled: true}
  x509: {clientCAFile: /etc/kubernetes/pki/ca.crt}
authorization: {mode: Webhook}
containerRuntimeEndpoint: unix:///run/containerd/containerd.sock
cgroupDriver: cgroupfs
failSwapOn: false
failCgroupV1: false
clusterDomain: cluster.local
resolvConf: /etc/resolv.conf
serializeImagePulls: false
maxPods: 40
evictionHard: {memory.available: 100Mi, nodefs.available: 2%, imagefs.available: 2%, nodefs.inodesFree: 2%}
imageGCHighThresholdPercent: 98
imageGCLowThresholdPercent: 95
containerLogMaxSize: 10Mi
containerLogMaxFiles: 3
# a reboot stops the pods first (through logind's inhibitor lock), as a node's kubelet should; critical pods (the
# node agent) last
shutdownGracePeriod: 20s
shutdownGracePeriodCriticalPods: 10s
EOF
  # and what still runs after that is not waited for longer than this
  mkdir -p "$root/etc/systemd/system.conf.d"
  printf '[Manager]\nDefaultTimeoutStopSec=20s\n' > "$root/etc/systemd/system.conf.d/10-upshift-e2e.conf"
  cat > "$root/etc/systemd/system/kubelet.service" <<EOF
[Unit]
Description=Kubernetes kubelet
Requires=containerd.service
After=containerd.service upshift-e2e-node-prep.service network-online.target

[Service]
ExecStart=/usr/local/bin/kubelet --config=/etc/kubernetes/kubelet.yaml --kubeconfig=/etc/kubernetes/kubelet.kubeconfig --hostname-override=$name --node-ip=$ip --v=1
Restart=always
RestartSec=2

[Install]
WantedBy=multi-user.target
EOF
  cat > "$k/kube-proxy.yaml" <<EOF
apiVersion: kubeproxy.config.k8s.io/v1alpha1
kind: KubeProxyConfiguration
clientConnection: {kubeconfig: /etc/kubernetes/kube-proxy.kubeconfig}
mode: iptables
hostnameOverride: $name
clusterCIDR: $POD_CIDR
healthzBindAddress: 127.0.0.1:10256
metricsBindAddress: 127.0.0.1:10249
conntrack: {maxPerCore: 0, min: 0, tcpEstablishedTimeout: 0s, tcpCloseWaitTimeout: 0s}
EOF
  cat > "$root/etc/systemd/system/kube-proxy.service" <<EOF
[Unit]
Description=Kubernetes kube-proxy
After=network-online.target upshift-e2e-node-prep.service

[Service]
ExecStart=/usr/local/bin/kube-proxy --config=/etc/kubernetes/kube-proxy.yaml --v=1
Restart=always
RestartSec=2

[Install]
WantedBy=multi-user.target
EOF
  for u in upshift-e2e-node-prep kubelet kube-proxy; do
    ln -sf "/etc/systemd/system/$u.service" "$root/etc/systemd/system/multi-user.target.wants/$u.service"
  done
}

images() {  # the cluster's own small images, in its registry
  local bin=$1 w=$E2E_STATE/images applets
  rm -rf "$w"; mkdir -p "$w"
  applets=(sh ash cat echo env hostname httpd ls mkdir nc ping ps rm sleep sync test wget date id grep sed awk true false kill mount umount chroot)
  local links=()
  for a in "${applets[@]}"; do links+=(--link "/bin/$a:busybox"); done
  python3 "$E2E_DIR/oci-image.py" "$w/busybox" 1 --file /bin/busybox:/bin/busybox "${links[@]}" -- /bin/sh > /dev/null
  python3 "$E2E_DIR/oci-image.py" "$w/pause" 1 --file "$bin/pause:/pause" -- /pause > /dev/null
  for i in busybox pause; do
    skopeo copy -q --dest-tls-verify=false "oci:$w/$i:1" "docker://$REGISTRY/e2e/$i:1"
  done
}

up() {
  [ "$(id -u)" = 0 ] || die "run as root (nspawn, bridges, cgroups)"
  need systemd-nspawn skopeo docker-registry openssl kubectl python3 iptables ip nsenter
  [ -x /bin/busybox ] || die "/bin/busybox is missing (Debian: apt-get install busybox-static)"
  for f in "$RUN"/*.pid; do
    [ -e "$f" ] || continue
    kill -0 "$(cat "$f")" 2>/dev/null && die "a cluster is running ($(basename "$f" .pid) pid $(cat "$f")): e2e/cluster.sh down first"
  done
  local bin; bin=$(kube_bin)
  for b in kube-apiserver kube-controller-manager kube-scheduler kubelet kube-proxy etcd pause; do
    [ -x "$bin/$b" ] || die "$bin/$b is missing (KUBE_BIN)"
  done
  local t0; t0=$(date +%s)
  local base; base=$(base_root)
  rm -rf "$RUN" "$LOGS" "$E2E_STATE/etcd" "$E2E_STATE/registry"
  mkdir -p "$RUN" "$LOGS" "$E2E_STATE/nodes"
  "$E2E_DIR/pki.sh"
  kubeconfig "$KUBECONFIG_PATH" admin admin
  kubeconfig "$E2E_STATE/kube-controller-manager.kubeconfig" system:kube-controller-manager kube-controller-manager
  kubeconfig "$E2E_STATE/kube-scheduler.kubeconfig" system:kube-scheduler kube-scheduler

  # the bridge, and the pods of each node routed to it (this machine reaches every pod)
  ip link show "$BRIDGE" >/dev/null 2>&1 || ip link add "$BRIDGE" type bridge
  ip addr replace "$HOST_IP/24" dev "$BRIDGE"
  ip link set "$BRIDGE" up
  for n in "${NODES[@]}"; do ip route replace "$(node_pod_cidr "$n")" via "$(node_ip "$n")" dev "$BRIDGE"; done

  # the registry
  mkdir -p "$E2E_STATE/registry"
  cat > "$E2E_STATE/registry.yml" <<EOF
version: 0.1
log: {level: warn}
storage:
  filesystem: {rootdirectory: $E2E_STATE/registry}
  delete: {enabled: true}
http: {addr: "$REGISTRY"}
EOF
  start registry docker-registry serve "$E2E_STATE/registry.yml"
  waitfor registry 20 curl -sf "http://$REGISTRY/v2/"
  images "$bin"

  # the control plane
  start etcd "$bin/etcd" --name e2e --data-dir "$E2E_STATE/etcd" \
    --listen-client-urls "http://127.0.0.1:$ETCD_PORT" --advertise-client-urls "http://127.0.0.1:$ETCD_PORT" \
    --listen-peer-urls "http://127.0.0.1:$ETCD_PEER_PORT" --initial-advertise-peer-urls "http://127.0.0.1:$ETCD_PEER_PORT" \
    --initial-cluster "e2e=http://127.0.0.1:$ETCD_PEER_PORT" --quota-backend-bytes=4294967296 \
    --experimental-watch-progress-notify-interval=5s --snapshot-count=10000
  waitfor etcd 30 curl -sf "http://127.0.0.1:$ETCD_PORT/health"
  cat > "$E2E_STATE/audit-policy.yaml" <<EOF
apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: ["RequestReceived"]
rules:
- level: Metadata
EOF
  start kube-apiserver "$bin/kube-apiserver" \
    --bind-address="$HOST_IP" --advertise-address="$HOST_IP" --secure-port="$API_PORT" \
    --etcd-servers="http://127.0.0.1:$ETCD_PORT" \
    --client-ca-file="$PKI/ca.crt" --tls-cert-file="$PKI/apiserver.crt" --tls-private-key-file="$PKI/apiserver.key" \
    --kubelet-client-certificate="$PKI/apiserver-kubelet-client.crt" --kubelet-client-key="$PKI/apiserver-kubelet-client.key" \
    --kubelet-certificate-authority="$PKI/ca.crt" --kubelet-preferred-address-types=InternalIP \
    --service-account-issuer=https://kubernetes.default.svc.cluster.local \
    --service-account-key-file="$PKI/sa.pub" --service-account-signing-key-file="$PKI/sa.key" \
    --service-cluster-ip-range="$SERVICE_CIDR" \
    --authorization-mode=Node,RBAC --enable-admission-plugins=NodeRestriction \
    --requestheader-client-ca-file="$PKI/front-proxy-ca.crt" --requestheader-allowed-names=front-proxy-client \
    --requestheader-username-headers=X-Remote-User --requestheader-group-headers=X-Remote-Group \
    --requestheader-extra-headers-prefix=X-Remote-Extra- \
    --proxy-client-cert-file="$PKI/front-proxy-client.crt" --proxy-client-key-file="$PKI/front-proxy-client.key" \
    --allow-privileged=true --profiling=false \
    --audit-policy-file="$E2E_STATE/audit-policy.yaml" --audit-log-path="$LOGS/audit.log" --audit-log-format=json \
    --audit-log-maxsize=500 --audit-log-maxbackup=5
  waitfor kube-apiserver 90 kubectl --kubeconfig="$KUBECONFIG_PATH" get --raw /readyz
  start kube-controller-manager "$bin/kube-controller-manager" \
    --kubeconfig="$E2E_STATE/kube-controller-manager.kubeconfig" \
    --authentication-kubeconfig="$E2E_STATE/kube-controller-manager.kubeconfig" \
    --authorization-kubeconfig="$E2E_STATE/kube-controller-manager.kubeconfig" \
    --bind-address=127.0.0.1 --secure-port="$KCM_PORT" --leader-elect=false \
    --use-service-account-credentials=true --service-account-private-key-file="$PKI/sa.key" --root-ca-file="$PKI/ca.crt" \
    --cluster-signing-cert-file="$PKI/ca.crt" --cluster-signing-key-file="$PKI/ca.key" \
    --service-cluster-ip-range="$SERVICE_CIDR" --node-monitor-grace-period=20s
  start kube-scheduler "$bin/kube-scheduler" \
    --kubeconfig="$E2E_STATE/kube-scheduler.kubeconfig" \
    --authentication-kubeconfig="$E2E_STATE/kube-scheduler.kubeconfig" \
    --authorization-kubeconfig="$E2E_STATE/kube-scheduler.kubeconfig" \
    --bind-address=127.0.0.1 --secure-port="$SCHEDULER_PORT" --leader-elect=false
  waitfor kube-controller-manager 60 curl -skf "https://127.0.0.1:$KCM_PORT/healthz"
  waitfor kube-scheduler 60 curl -skf "https://127.0.0.1:$SCHEDULER_PORT/healthz"
  say "control plane up: $API_URL ($(( $(date +%s) - t0 )) s)"

  # the nodes
  for n in "${NODES[@]}"; do
    local root=$E2E_STATE/nodes/$n
    rm -rf "$root"; cp -a --reflink=auto "$base" "$root"; rm -f "$root/.complete"
    node_root "$n" "$root"
    # the kubelet is the node's own file, as on any host (a node image may replace it); kube-proxy is bound in
    install -D -m 0755 "$bin/kubelet" "$root/usr/local/bin/kubelet"
    rm -f "$RUN/node-$n.stop" "$LOGS/node-$n.boots"
    start "node-$n" "$E2E_DIR/node-run.sh" "$n" "$root" "$bin"
  done
  local kc=(kubectl --kubeconfig="$KUBECONFIG_PATH")
  for n in "${NODES[@]}"; do
    for _ in $(seq 180); do "${kc[@]}" get node "$n" >/dev/null 2>&1 && break; sleep 1; done
    "${kc[@]}" get node "$n" >/dev/null 2>&1 || die "node $n did not register (its console: $LOGS/node-$n.console; e2e/cluster.sh exec $n -- journalctl -u kubelet)"
    if [ "$(node_role "$n")" = master ]; then
      "${kc[@]}" label node "$n" node-role.kubernetes.io/master= node-role.kubernetes.io/control-plane= --overwrite >/dev/null
      "${kc[@]}" taint node "$n" node-role.kubernetes.io/master:NoSchedule --overwrite >/dev/null
    else
      "${kc[@]}" label node "$n" node-role.kubernetes.io/worker= --overwrite >/dev/null
    fi
  done
  "${kc[@]}" wait --for=condition=Ready node --all --timeout=180s >/dev/null || die "nodes not Ready: $("${kc[@]}" get nodes --no-headers | tr '\n' ';')"
  say "nodes Ready: $("${kc[@]}" get nodes --no-headers | awk '{print $1"("$3")"}' | tr '\n' ' ')in $(( $(date +%s) - t0 )) s"
  echo "admin kubeconfig: $KUBECONFIG_PATH"
}

stop_pid() {  # NAME
  local f=$RUN/$1.pid pid
  [ -f "$f" ] || return 0
  pid=$(cat "$f")
  if kill -0 "$pid" 2>/dev/null; then
    kill -TERM "$pid"
    for _ in $(seq 60); do kill -0 "$pid" 2>/dev/null || break; sleep 0.25; done
    kill -0 "$pid" 2>/dev/null && kill -KILL "$pid"
    say "stopped $1"
  fi
  rm -f "$f"
}

down() {
  # the nodes: powered off by their own systemd (asked again while one is between two boots); nspawn then ends and
  # so does its supervisor, which the stop file keeps from booting it again
  for n in "${NODES[@]}"; do touch "$RUN/node-$n.stop" 2>/dev/null || true; done
  for _ in $(seq 60); do
    local running=0
    for n in "${NODES[@]}"; do
      local f=$RUN/node-$n.pid l
      [ -f "$f" ] && kill -0 "$(cat "$f")" 2>/dev/null || continue
      running=1
      l=$(node_leader "$n")
      [ -n "$l" ] && nsenter -t "$l" -a systemctl poweroff --no-block >/dev/null 2>&1 || true
    done
    [ "$running" = 0 ] && break
    sleep 1
  done
  for n in "${NODES[@]}"; do
    local f=$RUN/node-$n.pid l
    [ -f "$f" ] || continue
    if kill -0 "$(cat "$f")" 2>/dev/null; then  # it would not power off: its PID 1 (and so all of it), then nspawn
      kill -TERM "$(cat "$f")" 2>/dev/null
      l=$(node_leader "$n")
      [ -n "$l" ] && kill -KILL "$l" 2>/dev/null
      [ -s "$RUN/node-$n.nspawn.pid" ] && kill -KILL "$(cat "$RUN/node-$n.nspawn.pid")" 2>/dev/null
    fi
    rm -f "$f"; say "stopped node $n"
  done
  for p in kube-scheduler kube-controller-manager kube-apiserver etcd registry; do stop_pid "$p"; done
  for n in "${NODES[@]}"; do ip route del "$(node_pod_cidr "$n")" 2>/dev/null || true; done
  ip link del "$BRIDGE" 2>/dev/null && say "removed bridge $BRIDGE" || true
  for h in /sys/fs/cgroup/*/upshift-e2e; do
    [ -d "$h" ] || continue
    find "$h" -depth -type d -exec rmdir {} \; 2>/dev/null || true
  done
}

cmd_exec() {
  local node=${1:-}; shift || true
  [ "${1:-}" = -- ] && shift
  [ -n "$node" ] && [ $# -gt 0 ] || die "usage: cluster.sh exec NODE -- CMD..."
  local l; l=$(node_leader "$node")
  [ -n "$l" ] || die "node $node is not running"
  exec nsenter -t "$l" -a -- "$@"
}

status() {
  for n in "${NODES[@]}"; do
    local l; l=$(node_leader "$n")
    if [ -n "$l" ]; then
      echo "$n: up, boot id $(nsenter -t "$l" -a cat /proc/sys/kernel/random/boot_id), boots $(grep -c ' boot$' "$LOGS/node-$n.boots" 2>/dev/null)"
    else
      echo "$n: down"
    fi
  done
  [ -f "$KUBECONFIG_PATH" ] && kubectl --kubeconfig="$KUBECONFIG_PATH" get nodes -o wide 2>/dev/null || true
}

case "${1:-}" in
  up) up ;;
  down) down ;;
  exec) shift; cmd_exec "$@" ;;
  status) status ;;
  kubeconfig) echo "$KUBECONFIG_PATH" ;;
  *) sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; exit 2 ;;
esac
