#!/bin/bash
# The cluster's certificates under $PKI, made once (a file already there is kept): a CA, the API server's serving
# certificate, the clients of the control plane and the admin, one client and one serving certificate per node, the
# service-account signing key. Usage: pki.sh (sourced settings from lib.sh)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
mkdir -p "$PKI"
cd "$PKI"
DAYS=3650

ca() {  # NAME CN
  [ -f "$1.crt" ] && return 0
  openssl genrsa -out "$1.key" 2048 2>/dev/null
  openssl req -x509 -new -nodes -key "$1.key" -subj "/CN=$2" -days $DAYS -out "$1.crt"
}
# cert NAME SUBJECT USAGE [SANS] [CA]
cert() {
  local name=$1 subj=$2 usage=$3 sans=${4:-} signer=${5:-ca}
  [ -f "$name.crt" ] && return 0
  openssl genrsa -out "$name.key" 2048 2>/dev/null
  openssl req -new -key "$name.key" -subj "$subj" -out "$name.csr"
  {
    echo "basicConstraints=CA:FALSE"
    echo "keyUsage=critical,digitalSignature,keyEncipherment"
    echo "extendedKeyUsage=$usage"
    [ -z "$sans" ] || echo "subjectAltName=$sans"
  } > "$name.ext"
  openssl x509 -req -in "$name.csr" -CA "$signer.crt" -CAkey "$signer.key" -CAcreateserial -days $DAYS \
    -extfile "$name.ext" -out "$name.crt" 2>/dev/null
  rm -f "$name.csr" "$name.ext"
}

ca ca upshift-e2e-ca
ca front-proxy-ca upshift-e2e-front-proxy-ca
cert apiserver /CN=kube-apiserver serverAuth \
  "IP:$HOST_IP,IP:$SERVICE_IP,IP:127.0.0.1,DNS:localhost,DNS:kubernetes,DNS:kubernetes.default,DNS:kubernetes.default.svc,DNS:kubernetes.default.svc.cluster.local"
cert admin /O=system:masters/CN=kubernetes-admin clientAuth
cert apiserver-kubelet-client /O=system:masters/CN=kube-apiserver-kubelet-client clientAuth
cert front-proxy-client /CN=front-proxy-client clientAuth "" front-proxy-ca
cert kube-controller-manager /CN=system:kube-controller-manager clientAuth
cert kube-scheduler /CN=system:kube-scheduler clientAuth
cert kube-proxy /CN=system:kube-proxy clientAuth
for n in "${NODES[@]}"; do
  cert "kubelet-client-$n" "/O=system:nodes/CN=system:node:$n" clientAuth
  cert "kubelet-server-$n" "/CN=$n" serverAuth "IP:$(node_ip "$n"),DNS:$n"
done
[ -f sa.key ] || { openssl genrsa -out sa.key 2048 2>/dev/null; openssl rsa -in sa.key -pubout -out sa.pub 2>/dev/null; }
chmod 600 ./*.key
