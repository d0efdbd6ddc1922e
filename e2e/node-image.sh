#!/bin/bash
# Node images on real systemd hosts without rpm-ostree (deploy/host/node-image), and the kubelet skew gate from the
# nodes' real kubelets: run from the repository's root, as root.
#
#   NODE_KUBELET=/path/to/kubelet e2e/node-image.sh
#
# NODE_KUBELET is a kubelet of another version than the cluster's (built from upstream's source outside the
# repository, e.g. v1.31.14: docs/node-pools.md tells how). The check:
#  1. brings up the multi-node cluster of e2e/cluster.sh (master-0, worker-0, worker-1, each booting its own systemd,
#     its kubelet a file of its own) and installs deploy/host/node-image on every node as a node's provisioning would
#     (the script, its three units, /etc/default/upshift-node-image with the registry's pull flags and a 90 s check);
#  2. builds two node images (a one-layer OCI image: /usr/local/bin/kubelet and /upshift/node-image.manifest, pushed
#     to the cluster's registry): "good" holds NODE_KUBELET, "bad" a kubelet that exits at once; and three signed
#     releases of e2e/payload.py: 4.20.0 without a node image, 4.20.1 with --node-image good, 4.20.2 with
#     --node-image bad;
#  3. installs 4.20.0 (deploy/ as shipped) and waits until every node runs its config;
#  4. updates to 4.20.1: every node must take the image, its kubelet reporting NODE_KUBELET's version, each node
#     rebooted once; prints
#        kubelet <from> -> <to> on <n>/<n> nodes
#  5. the skew gate: the kubelets are now a minor behind the API server on a 4.20 control plane, which 4.21 does not
#     support: machine-config's Upgradeable must be False naming every node and both versions (within 2 minutes), and
#     so the ClusterVersion's; prints
#        skew gate: OK|FAIL, machine-config Upgradeable=<status>: <message>
#  6. pauses the master pool and updates to 4.20.2, whose image cannot boot: the first worker must fall back to the
#     image it ran (its kubelet still NODE_KUBELET's, Ready, rebooted twice), Degraded with a message naming the image,
#     the worker pool Degraded naming it too, the other worker untouched; prints
#        node image that cannot boot: OK|FAIL, <node> back on its previous image and Ready, pool worker Degraded naming it, <m> other nodes untouched
#  7. stops the cluster (E2E_KEEP=1 leaves it up). Exit 0 when every step is OK.
# Env: KUBE_BIN, E2E_STATE (see cluster.sh); E2E_KEEP=1; E2E_UPDATE_TIMEOUT (s, 1200).
set -uo pipefail
{ # the whole script is read before it runs
. "$(dirname "$0")/lib.sh"
cd "$REPO"
UPDATE_TIMEOUT=${E2E_UPDATE_TIMEOUT:-1200}
export KUBECONFIG=$KUBECONFIG_PATH
RUN_ID=$(date -u +%Y%m%dT%H%M%SZ)
W=$E2E_STATE/runs/node-image-$RUN_ID
mkdir -p "$W"
exec 3>&1
LOG=$W/node-image.log
say() { echo "[$(date -u +%H:%M:%S)] $*" | tee -a "$LOG" >&3; }
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }
up() { ./upshift "$@"; }
digest_of() { skopeo inspect --tls-verify=false --format '{{.Digest}}' "docker://$1"; }
K() { kubectl "$@"; }
LINES=() ALL_OK=1 STARTED=0
finish() {
  trap - EXIT INT TERM
  if [ "$STARTED" = 1 ]; then
    { K get nodes -o wide; K get mcp; K get co; K get clusterversion version -o yaml; K get nodes -o yaml; } > "$W/final-state.txt" 2>&1
    for p in $(K -n openshift-machine-config-operator get pods -o name 2>/dev/null); do
      K -n openshift-machine-config-operator logs "$p" > "$W/pod-${p#pod/}.log" 2>&1
    done
    for n in "${NODES[@]}"; do
      "$E2E_DIR/cluster.sh" exec "$n" -- journalctl -u upshift-os-update -u upshift-node-image-activate -u upshift-node-image-check --no-pager > "$W/host-$n.log" 2>&1
    done
    if [ "${E2E_KEEP:-0}" = 1 ]; then say "the cluster is left up (E2E_KEEP=1): KUBECONFIG=$KUBECONFIG_PATH"
    else say "stopping the cluster"; "$E2E_DIR/cluster.sh" down >> "$W/down.log" 2>&1; cp "$LOGS"/node-*.boots "$W/" 2>/dev/null; fi
  fi
  say "run took $(( $(date +%s) - T_START )) s; everything it wrote is in $W"
  for l in "${LINES[@]}"; do echo "$l" | tee -a "$LOG" >&3; done
  [ "$ALL_OK" = 1 ] && exit 0 || exit 1
}
T_START=$(date +%s)
trap finish EXIT
trap 'say "interrupted"; ALL_OK=0; exit 130' INT TERM
fail() { say "FAILED: $*"; ALL_OK=0; exit 1; }

[ "$(id -u)" = 0 ] || fail "run as root (the cluster's machines need it)"
[ -x ./upshift ] && [ -f deploy/kustomization.yaml ] || fail "run from Upshift's repository root"
[ -x "${NODE_KUBELET:-}" ] || fail "NODE_KUBELET must name a kubelet binary of another version than the cluster's"
BIN=$(kube_bin) || fail "no Kubernetes binaries (KUBE_BIN)"
FROM=$("$BIN/kubelet" --version | awk '{print $2}') TO=$("$NODE_KUBELET" --version | awk '{print $2}')
[ "$FROM" != "$TO" ] || fail "NODE_KUBELET is $TO, as the cluster's own kubelet: nothing would change"
SHA=$(git rev-parse --short HEAD 2>/dev/null || echo nogit)
say "node images: Upshift $SHA, kubelet $FROM -> $TO; run folder $W"

# ---- 1. the cluster and the host side --------------------------------------------------------------------------------
for f in "$RUN"/*.pid; do
  [ -e "$f" ] && kill -0 "$(cat "$f")" 2>/dev/null && { say "a cluster is running: stopping it first"; "$E2E_DIR/cluster.sh" down > "$W/down-before.log" 2>&1; break; }
done
say "1. the cluster, and deploy/host/node-image on every node"
STARTED=1
KUBE_BIN=$BIN "$E2E_DIR/cluster.sh" up > "$W/up.log" 2>&1 || { tail -15 "$W/up.log" >&3; fail "the cluster did not come up (see $W/up.log)"; }
for n in "${NODES[@]}"; do
  r=$E2E_STATE/nodes/$n
  install -D -m 0755 deploy/host/node-image/upshift-node-image "$r/usr/local/libexec/upshift-node-image"
  for u in upshift-os-update upshift-node-image-activate upshift-node-image-check; do install -m 0644 "deploy/host/node-image/$u.service" "$r/etc/systemd/system/"; done
  printf 'PULL_FLAGS="--plain-http --hosts-dir /etc/containerd/certs.d"\nCHECK_TIMEOUT=90\nSTEADY=20\n' > "$r/etc/default/upshift-node-image"
  "$E2E_DIR/cluster.sh" exec "$n" -- sh -c 'systemctl daemon-reload && systemctl enable upshift-node-image-activate.service upshift-node-image-check.service' >> "$W/host-install.log" 2>&1 \
    || fail "cannot install deploy/host/node-image on $n (see $W/host-install.log)"
done
say "   $(K get nodes --no-headers | awk '{print $1" "$2" "$5}' | paste -sd, | sed 's/,/, /g')"

# ---- 2. node images and releases ---------------------------------------------------------------------------------
say "2. two node images, Upshift's image and three signed releases"
declare -A NI
printf '#!/bin/sh\necho "this kubelet exits at once" >&2\nexit 1\n' > "$W/kubelet-bad"; chmod 0755 "$W/kubelet-bad"
cp "$NODE_KUBELET" "$W/kubelet-good"
for v in good bad; do
  echo "$(sha256sum < "$W/kubelet-$v" | cut -d' ' -f1)  usr/local/bin/kubelet" > "$W/manifest-$v"
  python3 "$E2E_DIR/oci-image.py" "$W/node-$v" 1 --file "$W/kubelet-$v:/usr/local/bin/kubelet:0755" \
    --file "$W/manifest-$v:/upshift/node-image.manifest" -- /usr/local/bin/kubelet > /dev/null || fail "cannot build the $v node image"
  skopeo copy -q --dest-tls-verify=false "oci:$W/node-$v:1" "docker://$REGISTRY/e2e/node:$v-$RUN_ID" || fail "cannot push the $v node image"
  NI[$v]=$REGISTRY/e2e/node@$(digest_of "$REGISTRY/e2e/node:$v-$RUN_ID") || fail "cannot read the $v node image's digest"
  say "   node image $v: ${NI[$v]}"
done
up image --to "docker://$REGISTRY/upshift:e2e-$SHA" --insecure > "$W/image.log" 2>&1 || { tail -5 "$W/image.log" >&3; fail "./upshift image failed"; }
IMG=$REGISTRY/upshift@$(digest_of "$REGISTRY/upshift:e2e-$SHA") || fail "cannot read the image's digest"
up release keygen --out "$W/signer" > "$W/keygen.log" 2>&1 || fail "./upshift release keygen failed"
declare -A REL
PREV=""
for spec in 4.20.0: 4.20.1:good 4.20.2:bad; do
  IFS=: read -r V IMAGE <<< "$spec"
  python3 "$E2E_DIR/payload.py" "$V" 1 "$W/payload-$V" "$REPO" || fail "cannot write the payload of $V"
  O=(); [ -n "$PREV" ] && O+=(--previous "$PREV"); [ -n "$IMAGE" ] && O+=(--node-image "${NI[$IMAGE]}")
  up release new --from "$W/payload-$V" --version "$V" "${O[@]}" --trust "$W/signer.pub" --base "docker://$IMG" \
    --to "docker://$REGISTRY/e2e/release:$V-$SHA" --insecure > "$W/release-$V.log" 2>&1 || { tail -5 "$W/release-$V.log" >&3; fail "./upshift release new $V failed"; }
  REL[$V]=$REGISTRY/e2e/release@$(digest_of "$REGISTRY/e2e/release:$V-$SHA") || fail "cannot read $V's digest"
  up release sign "docker://${REL[$V]}" --key "$W/signer.key" --store "$W/signatures" --insecure > "$W/sign-$V.log" 2>&1 || fail "./upshift release sign $V failed"
  say "   $V ${REL[$V]}${IMAGE:+ (node image $IMAGE)}"
  PREV=$V
done

# ---- 3. install ----------------------------------------------------------------------------------------------------
mkdir -p "$W/install"
cat > "$W/install/kustomization.yaml" <<YAML
resources: [$(python3 -c 'import os,sys; print(os.path.relpath(sys.argv[1], sys.argv[2]))' "$REPO/deploy" "$W/install")]
images:
- {name: upshift, newName: "${IMG%@*}", digest: "${IMG#*@}"}
patches:
- target: {kind: Deployment, name: cluster-version-operator}
  patch: |
    - {op: add, path: /spec/template/spec/containers/0/args/-, value: --release}
    - {op: add, path: /spec/template/spec/containers/0/args/-, value: "${REL[4.20.0]}"}
YAML
say "3. install 4.20.0"
K apply -k "$W/install" > "$W/install.log" 2>&1 || { tail -5 "$W/install.log" >&3; fail "kubectl apply -k failed"; }
for _ in $(seq 120); do K get clusterversion version >/dev/null 2>&1 && break; sleep 2; done
up release signatures "${REL[4.20.0]}" "${REL[4.20.1]}" "${REL[4.20.2]}" --store "$W/signatures" --apply --insecure > "$W/signatures.log" 2>&1 \
  || fail "./upshift release signatures failed"
wait_level() {  # VERSION: until verdict.py says the cluster is level on it
  local v=$1 t0 last=0 state el
  t0=$(now)
  while :; do
    state=$(python3 "$E2E_DIR/verdict.py" level "$KUBECONFIG_PATH" "$v" 2>&1) && { say "   level on $v: $state"; return 0; }
    el=$(since "$t0")
    awk -v e="$el" -v t="$UPDATE_TIMEOUT" 'BEGIN { exit !(e >= t) }' && { say "   not level on $v after $el s: $state"; return 1; }
    if awk -v e="$el" -v l="$last" 'BEGIN { exit !(e - l >= 30) }'; then last=$el; say "   $el s: $state"; fi
    sleep 2
  done
}
wait_level 4.20.0 || fail "4.20.0 did not install"
kubelets() { K get nodes -o jsonpath='{range .items[*]}{.metadata.name}={.status.nodeInfo.kubeletVersion} {end}'; }
say "   kubelets: $(kubelets)"

# ---- 4. the node image ---------------------------------------------------------------------------------------------
say "4. update to 4.20.1: node image good (kubelet $TO)"
T0=$(now)
up upgrade --to-image "${REL[4.20.1]}" --allow-explicit-upgrade > "$W/upgrade-4.20.1.log" 2>&1 || tail -3 "$W/upgrade-4.20.1.log" >&3
wait_level 4.20.1 && result=OK || result=FAIL
eval "$(python3 "$E2E_DIR/verdict.py" update "$KUBECONFIG_PATH" 4.20.1 "$LOGS" /dev/null "$T0" "$(now)")"
moved=0
for n in "${NODES[@]}"; do
  k=$(K get node "$n" -o jsonpath='{.status.nodeInfo.kubeletVersion}')
  [ "$k" = "$TO" ] && [[ " $REBOOTS_BY_NODE " == *" $n=1 "* ]] && moved=$((moved + 1))
done
say "   $result in $(since "$T0") s; kubelets: $(kubelets); reboots: $REBOOTS_BY_NODE"
[ "$result" = OK ] && [ "$moved" = "${#NODES[@]}" ] || ALL_OK=0
LINES+=("kubelet $FROM -> $TO on $moved/${#NODES[@]} nodes")

# ---- 5. the skew gate --------------------------------------------------------------------------------------------
say "5. the kubelet skew gate"
gate="" cv=""
gate_ok() {  # False, naming both versions and every node (each node's pass may come after the update is level)
  [[ $gate == False:* && $gate == *"${TO#v}"* && $gate == *"${FROM#v}"* ]] || return 1
  local n; for n in "${NODES[@]}"; do [[ $gate == *"$n"* ]] || return 1; done
}
for _ in $(seq 60); do
  gate=$(K get co machine-config -o jsonpath='{.status.conditions[?(@.type=="Upgradeable")].status}: {.status.conditions[?(@.type=="Upgradeable")].message}')
  cv=$(K get clusterversion version -o jsonpath='{.status.conditions[?(@.type=="Upgradeable")].status}: {.status.conditions[?(@.type=="Upgradeable")].message}')
  gate_ok && [[ $cv == False:* ]] && break
  sleep 2
done
say "   machine-config Upgradeable=$gate"
say "   ClusterVersion Upgradeable=$cv"
s=OK; gate_ok && [[ $cv == False:*machine-config* ]] || { s=FAIL; ALL_OK=0; }
LINES+=("skew gate: $s, machine-config Upgradeable=$gate")

# ---- 6. a node image that cannot boot ----------------------------------------------------------------------------
say "6. update to 4.20.2 (node image bad), the master pool paused"
K patch mcp master --type merge -p '{"spec":{"paused":true}}' > /dev/null || fail "cannot pause the master pool"
T0=$(now)
up upgrade --to-image "${REL[4.20.2]}" --allow-explicit-upgrade > "$W/upgrade-4.20.2.log" 2>&1 || tail -3 "$W/upgrade-4.20.2.log" >&3
failed=""
for _ in $(seq 600); do
  failed=$(K get nodes -o jsonpath='{range .items[?(@.metadata.annotations.machineconfiguration\.openshift\.io/state=="Degraded")]}{.metadata.name}{"\n"}{end}' | head -1)
  [ -n "$failed" ] && break
  sleep 2
done
[ -n "$failed" ] || fail "no node became Degraded within 20 minutes"
reason=$(K get node "$failed" -o jsonpath='{.metadata.annotations.machineconfiguration\.openshift\.io/reason}')
say "   $failed Degraded after $(since "$T0") s: $reason"
sleep 20   # the pool controller's pass, and a look that the others stay as they are
eval "$(python3 "$E2E_DIR/verdict.py" update "$KUBECONFIG_PATH" 4.20.2 "$LOGS" /dev/null "$T0" "$(now)")"
k=$(K get node "$failed" -o jsonpath='{.status.nodeInfo.kubeletVersion}')
ready=$(K get node "$failed" -o jsonpath='{.status.conditions[?(@.type=="Ready")].status}')
pool=$(K get mcp worker -o jsonpath='{.status.conditions[?(@.type=="NodeDegraded")].status}: {.status.conditions[?(@.type=="NodeDegraded")].message}')
target=$(K get mcp worker -o jsonpath='{.spec.configuration.name}')
untouched=0
for n in "${NODES[@]}"; do
  [ "$n" = "$failed" ] && continue
  [ "$(K get node "$n" -o jsonpath='{.metadata.annotations.machineconfiguration\.openshift\.io/desiredConfig}')" != "$target" ] \
    && [[ " $REBOOTS_BY_NODE " == *" $n=0 "* ]] && untouched=$((untouched + 1))
done
say "   $failed: kubelet $k, Ready=$ready, reboots: $REBOOTS_BY_NODE; pool worker NodeDegraded=$pool"
s=OK
[[ $reason == "node image ${NI[bad]} failed:"*"back on ${NI[good]}" ]] && [ "$k" = "$TO" ] && [ "$ready" = True ] \
  && [[ $pool == True:*"${NI[bad]}"* ]] && [[ " $REBOOTS_BY_NODE " == *" $failed=2 "* ]] && [ "$untouched" = $((${#NODES[@]} - 1)) ] || { s=FAIL; ALL_OK=0; }
LINES+=("node image that cannot boot: $s, $failed back on its previous image and Ready, pool worker Degraded naming it, $untouched other nodes untouched")
exit 0
}
