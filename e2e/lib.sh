# Shared settings of the multi-node cluster scripts (sourced by cluster.sh, node-run.sh, real-nodes.sh).
#
# Everything the cluster writes lives under $E2E_STATE (outside the repository); the node root every node is copied
# from is made once by debootstrap into $E2E_CACHE. Addresses and ports are chosen not to clash with the one-node
# cluster of ../shared/realcluster (127.0.0.1:2379, :6443, :5000, bridge 10.88.0.0/24).

E2E_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$E2E_DIR/.." && pwd)
E2E_STATE=${E2E_STATE:-/var/lib/upshift-e2e}
E2E_CACHE=${E2E_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/upshift-e2e}
KUBECONFIG_PATH=$E2E_STATE/admin.kubeconfig

# the machines' network: a bridge on this machine, one address per node, one pod subnet per node
BRIDGE=${E2E_BRIDGE:-upsbr0}
HOST_IP=${E2E_HOST_IP:-10.133.0.1}            # this machine on the bridge: API server, registry
NODE_NET_PREFIX=${E2E_NODE_NET_PREFIX:-10.133.0}
POD_NET_PREFIX=${E2E_POD_NET_PREFIX:-10.134}   # node i's pods: $POD_NET_PREFIX.<i>.0/24
POD_CIDR=$POD_NET_PREFIX.0.0/16
SERVICE_CIDR=${E2E_SERVICE_CIDR:-10.135.0.0/16}
SERVICE_IP=${E2E_SERVICE_IP:-10.135.0.1}      # the kubernetes Service
API_PORT=${E2E_API_PORT:-16443}
ETCD_PORT=${E2E_ETCD_PORT:-12379}
ETCD_PEER_PORT=${E2E_ETCD_PEER_PORT:-12380}
KCM_PORT=${E2E_KCM_PORT:-12257}
SCHEDULER_PORT=${E2E_SCHEDULER_PORT:-12259}
REGISTRY_PORT=${E2E_REGISTRY_PORT:-15000}
REGISTRY=$HOST_IP:$REGISTRY_PORT
API_URL=https://$HOST_IP:$API_PORT

# the nodes: name, index (its address $NODE_NET_PREFIX.(10+i) and pod subnet $POD_NET_PREFIX.i.0/24), role
NODES=(master-0 worker-0 worker-1)
node_index() { case $1 in master-0) echo 1;; worker-0) echo 2;; worker-1) echo 3;; *) return 1;; esac; }
node_role() { case $1 in master-*) echo master;; *) echo worker;; esac; }
node_ip() { echo "$NODE_NET_PREFIX.$((10 + $(node_index "$1")))"; }
node_pod_cidr() { echo "$POD_NET_PREFIX.$(node_index "$1").0/24"; }

# the packages of a node's root: systemd as PID 1, containerd and runc, the CNI plugins, iptables for kube-proxy
NODE_PACKAGES=systemd,systemd-sysv,dbus,iproute2,containerd,runc,containernetworking-plugins,iptables,conntrack,ca-certificates,procps,kmod,iputils-ping,util-linux
DEBIAN_MIRROR=${E2E_DEBIAN_MIRROR:-http://deb.debian.org/debian}

RUN=$E2E_STATE/run LOGS=$E2E_STATE/logs PKI=$E2E_STATE/pki

# the Kubernetes binaries: $KUBE_BIN, else ../shared/kube unpacked into its cache
kube_bin() {
  if [ -n "${KUBE_BIN:-}" ]; then echo "$KUBE_BIN"; return; fi
  local unpack=$REPO/../shared/kube/unpack
  [ -x "$unpack" ] || { echo "no KUBE_BIN and no $unpack: point KUBE_BIN at a folder holding kube-apiserver, kube-controller-manager, kube-scheduler, kubelet, kube-proxy and etcd" >&2; return 1; }
  "$unpack"
}

say() { echo "[$(date -u +%H:%M:%S)] $*"; }
die() { echo "error: $*" >&2; exit 1; }

# the PID of a node's systemd (PID 1 of the machine), empty when the node is not running
node_leader() {
  local pidfile=$RUN/node-$1.nspawn.pid pid
  [ -s "$pidfile" ] || return 0
  pid=$(cat "$pidfile")
  kill -0 "$pid" 2>/dev/null || return 0
  pgrep -P "$pid" -x systemd | head -1 || true   # none while the node is between two boots
}
