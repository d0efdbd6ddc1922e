#!/bin/bash
# Upshift's node side on real nodes that really reboot: run from the repository's root, as root.
#
#   e2e/real-nodes.sh
#
#  1. brings up the multi-node cluster of e2e/cluster.sh (Kubernetes from $KUBE_BIN or ../shared/kube; a running one
#     is stopped first): master-0 (the master pool), worker-0 and worker-1 (the worker pool), machines with their own
#     systemd, containerd and kubelet;
#  2. builds Upshift's image (./upshift image) and five signed releases on it (./upshift release new --base --trust,
#     ./upshift release sign), whose payloads (e2e/payload.py) carry the machine-config component: the pool controller
#     and the node agent as deploy/pools.yaml ships them, the master and worker pools (maxUnavailable 1) and the
#     templates of the nodes' files and units:
#        1.0.0  /etc/upshift-e2e/generation "generation 1"
#        1.0.1  "generation 2" (a file no node disruption policy covers: a reboot), and the unit
#               upshift-e2e-beacon.service (enabled) with its file /etc/upshift-e2e/beacon.conf
#        1.0.2  only beacon.conf changes, under a Restart policy of the beacon unit: no drain, no reboot
#        1.0.3  "generation 3" again a reboot, taken while the check disturbs it (below)
#        1.0.4  "generation 4", and its node agents give up a drain after $DRAIN_TIMEOUT (2 minutes)
#  3. installs 1.0.0 with `kubectl apply -k` of an overlay of deploy/ as shipped (the image, and --release for the
#     controller: nothing else), publishes the signatures, waits until every node runs 1.0.0's config;
#  4. runs a workload of two replicas on the workers (busybox httpd) under a PodDisruptionBudget of minAvailable 1, and
#     sets the MachineConfiguration's node disruption policy: beacon.conf -> restart upshift-e2e-beacon.service;
#  5. updates to 1.0.1 (./upshift upgrade --to-image) and measures it: the nodes updated, the machines' reboots (their
#     boot logs), the beacon unit active on each node, the most nodes of one pool unavailable at once, the workload
#     answering at every look (once a second, at its pods' addresses), and `upshift status --details=nodes` against
#     `OC_ENABLE_CMD_UPGRADE_STATUS=true oc adm upgrade status --details=nodes`, row by row, where oc showed the same
#     row just before and just after upshift's look;
#  6. updates to 1.0.2: every node takes it without a reboot, the beacon restarted with the new file;
#  7. updates to 1.0.3 and disturbs it: the agent of the first worker that drains is killed (SIGKILL) mid-drain, and
#     the second worker is rebooted by hand mid-drain; both must end as an undisturbed node does, the update having
#     rebooted each once;
#  8. updates to 1.0.4 while the workload's budget allows no disruption (minAvailable 2): the first worker's drain
#     gives up after 1.0.4's drain timeout and the node is Degraded, which both status commands must show; then the
#     budget is relaxed and the update must finish;
#  9. stops the cluster (E2E_KEEP=1 leaves it up) and prints one line per update, the 1.0.1 update's last:
#     real nodes: update OK|FAIL <s> s, <u>/<n> nodes updated, <r> reboots, unit active on <a>/<n>, max unavailable <m>, workload available throughout yes|no, oc status agrees yes|no, <e> refused
#     (<e>: requests of Upshift's identities refused with 401/403 over the whole run, from the API server's audit log).
#     Exit 0 when every update and scenario is OK.
# Env: KUBE_BIN, E2E_STATE (see cluster.sh); E2E_KEEP=1; E2E_SCENARIOS=0 skips steps 7 and 8; E2E_UPDATE_TIMEOUT (s,
#      1200).
# Everything a run writes is under $E2E_STATE/runs/<UTC time>/.
set -uo pipefail
{ # the whole script is read before it runs: a checkout changed meanwhile does not change a run under way
. "$(dirname "$0")/lib.sh"
cd "$REPO"
UPDATE_TIMEOUT=${E2E_UPDATE_TIMEOUT:-1200}
DRAIN_TIMEOUT=PT2M   # 1.0.4's agents give up a drain after this long
export KUBECONFIG=$KUBECONFIG_PATH

RUN_ID=$(date -u +%Y%m%dT%H%M%SZ)
W=$E2E_STATE/runs/$RUN_ID
mkdir -p "$W"
exec 3>&1
LOG=$W/real-nodes.log
say() { echo "[$(date -u +%H:%M:%S)] $*" | tee -a "$LOG" >&3; }
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }
up() { ./upshift "$@"; }
digest_of() { skopeo inspect --tls-verify=false --format '{{.Digest}}' "docker://$1"; }
K() { kubectl "$@"; }

LINES=()          # the lines printed at the end, in order
FIRST_LINE="real nodes: update FAIL 0 s, 0/0 nodes updated, 0 reboots, unit active on 0/0, max unavailable 0, workload available throughout no, oc status agrees no, - refused"
ALL_OK=1
STARTED=0
PIDS=()

finish() {
  trap - EXIT INT TERM
  for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; done
  if [ "$STARTED" = 1 ]; then
    {
      K get nodes -o wide; K get pods -A -o wide; K get mcp; K get co; K get clusterversion version -o yaml
      K get events -A --sort-by=.lastTimestamp
    } > "$W/final-state.txt" 2>&1
    for p in $(K -n openshift-machine-config-operator get pods -o name 2>/dev/null) $(K -n openshift-cluster-version get pods -o name 2>/dev/null); do
      ns=openshift-machine-config-operator; K -n openshift-cluster-version get "$p" >/dev/null 2>&1 && ns=openshift-cluster-version
      K -n "$ns" logs "$p" > "$W/pod-${p#pod/}.log" 2>&1
    done
    REFUSED=$(python3 "$E2E_DIR/verdict.py" refused "$LOGS"/audit*.log 2> /dev/null | tee "$W/refused.txt" | head -1)
    [ -n "$REFUSED" ] || REFUSED=-
    [ "$REFUSED" = 0 ] || ALL_OK=0
    if [ "${E2E_KEEP:-0}" = 1 ]; then
      say "the cluster is left up (E2E_KEEP=1): KUBECONFIG=$KUBECONFIG_PATH; e2e/cluster.sh down stops it"
    else
      say "stopping the cluster"
      "$E2E_DIR/cluster.sh" down >> "$W/down.log" 2>&1
      cp "$LOGS"/node-*.boots "$W/" 2>/dev/null
    fi
  fi
  say "run took $(( $(date +%s) - T_START )) s; everything it wrote is in $W"
  for l in "${LINES[@]}"; do echo "${l/%- refused/$REFUSED refused}" | tee -a "$LOG" >&3; done
  echo "${FIRST_LINE/%- refused/$REFUSED refused}" | tee -a "$LOG" >&3
  [ "$ALL_OK" = 1 ] && exit 0 || exit 1
}
T_START=$(date +%s)
REFUSED=-
trap finish EXIT
trap 'say "interrupted"; ALL_OK=0; exit 130' INT TERM
fail() { say "FAILED: $*"; ALL_OK=0; exit 1; }

[ "$(id -u)" = 0 ] || fail "run as root (the cluster's machines need it)"
[ -x ./upshift ] && [ -f deploy/kustomization.yaml ] || fail "run from Upshift's repository root"
BIN=$(kube_bin) || fail "no Kubernetes binaries (KUBE_BIN)"
OC=$BIN/oc
[ -x "$OC" ] || OC=$(command -v oc) || fail "no oc in $BIN nor on the PATH"
SHA=$(git rev-parse --short HEAD 2>/dev/null || echo nogit)
say "real nodes: Upshift $SHA$( [ -n "$(git status --porcelain 2>/dev/null)" ] && echo ' (with uncommitted changes)'); run folder $W"

# ---- 1. the cluster -------------------------------------------------------------------------------------------------
for f in "$RUN"/*.pid; do
  [ -e "$f" ] || continue
  if kill -0 "$(cat "$f")" 2>/dev/null; then say "a cluster is running: stopping it first"; "$E2E_DIR/cluster.sh" down > "$W/down-before.log" 2>&1; break; fi
done
say "1. the cluster: e2e/cluster.sh up (KUBE_BIN=$BIN)"
STARTED=1
T=$(now)
KUBE_BIN=$BIN "$E2E_DIR/cluster.sh" up > "$W/up.log" 2>&1 || { tail -15 "$W/up.log" >&3; fail "the cluster did not come up (see $W/up.log)"; }
say "   $(K get nodes --no-headers | awk '{print $1" "$2" "$3}' | paste -sd, | sed 's/,/, /g') ($(since "$T") s)"
for _ in $(seq 60); do K get serviceaccount default >/dev/null 2>&1 && break; sleep 1; done

# ---- 2. image and releases -----------------------------------------------------------------------------------------
say "2. Upshift's image and five signed releases"
up image --to "docker://$REGISTRY/upshift:e2e-$SHA" --insecure > "$W/image.log" 2>&1 || { tail -5 "$W/image.log" >&3; fail "./upshift image failed"; }
IMG=$REGISTRY/upshift@$(digest_of "$REGISTRY/upshift:e2e-$SHA") || fail "cannot read the image's digest"
say "   image $IMG"
up release keygen --out "$W/signer" > "$W/keygen.log" 2>&1 || fail "./upshift release keygen failed"
declare -A REL
PREV=""
for spec in 1.0.0:1: 1.0.1:2:--beacon 1.0.2:2:--beacon 1.0.3:3:--beacon "1.0.4:4:--beacon --drain-timeout $DRAIN_TIMEOUT"; do
  IFS=: read -r V GEN OPTIONS <<< "$spec"
  python3 "$E2E_DIR/payload.py" "$V" "$GEN" "$W/payload-$V" "$REPO" $OPTIONS || fail "cannot write the payload of $V"
  P=(); [ -n "$PREV" ] && P=(--previous "$PREV")
  up release new --from "$W/payload-$V" --version "$V" "${P[@]}" --trust "$W/signer.pub" --base "docker://$IMG" \
    --to "docker://$REGISTRY/e2e/release:$V-$SHA" --insecure > "$W/release-$V.log" 2>&1 || { tail -5 "$W/release-$V.log" >&3; fail "./upshift release new $V failed"; }
  REL[$V]=$REGISTRY/e2e/release@$(digest_of "$REGISTRY/e2e/release:$V-$SHA") || fail "cannot read $V's digest"
  up release sign "docker://${REL[$V]}" --key "$W/signer.key" --store "$W/signatures" --insecure > "$W/sign-$V.log" 2>&1 || fail "./upshift release sign $V failed"
  say "   $V ${REL[$V]} (signed)"
  PREV=$V
done

# ---- 3. install ----------------------------------------------------------------------------------------------------
mkdir -p "$W/install"
cat > "$W/install/kustomization.yaml" <<YAML
# deploy/ as shipped, with the image and the release to run (docs/install.md, step 3, without the trial patch)
resources: [$(python3 -c 'import os,sys; print(os.path.relpath(sys.argv[1], sys.argv[2]))' "$REPO/deploy" "$W/install")]
images:
- {name: upshift, newName: "${IMG%@*}", digest: "${IMG#*@}"}
patches:
- target: {kind: Deployment, name: cluster-version-operator}
  patch: |
    - {op: add, path: /spec/template/spec/containers/0/args/-, value: --release}
    - {op: add, path: /spec/template/spec/containers/0/args/-, value: "${REL[1.0.0]}"}
YAML
say "3. install 1.0.0: kubectl apply -k $W/install"
T=$(now)
K apply -k "$W/install" > "$W/install.log" 2>&1 || { tail -5 "$W/install.log" >&3; fail "kubectl apply -k failed"; }
for _ in $(seq 120); do K get clusterversion version >/dev/null 2>&1 && break; sleep 2; done
up release signatures "${REL[1.0.0]}" "${REL[1.0.1]}" "${REL[1.0.2]}" "${REL[1.0.3]}" "${REL[1.0.4]}" --store "$W/signatures" --apply --insecure > "$W/signatures.log" 2>&1 \
  || { tail -3 "$W/signatures.log" >&3; fail "./upshift release signatures failed"; }

# wait_level VERSION TIMEOUT: until verdict.py says the cluster is level on VERSION; progress every 30 s
wait_level() {
  local v=$1 timeout=$2 t0 last=0 state
  t0=$(now)
  while :; do
    state=$(python3 "$E2E_DIR/verdict.py" level "$KUBECONFIG_PATH" "$v" 2>&1) && { say "   level on $v: $state"; return 0; }
    local el; el=$(since "$t0")
    awk -v e="$el" -v t="$timeout" 'BEGIN { exit !(e >= t) }' && { say "   not level on $v after $el s: $state"; return 1; }
    if awk -v e="$el" -v l="$last" 'BEGIN { exit !(e - l >= 30) }'; then last=$el; say "   $el s: $state"; fi
    sleep 2
  done
}
wait_level 1.0.0 "$UPDATE_TIMEOUT" || fail "1.0.0 did not install"
INSTALL_REBOOTS=$(python3 "$E2E_DIR/verdict.py" update "$KUBECONFIG_PATH" 1.0.0 "$LOGS" /dev/null "$T" "$(now)" | sed -n "s/^REBOOTS_BY_NODE='\(.*\)'/\1/p")
say "   installed in $(since "$T") s; reboots into the first configs: $INSTALL_REBOOTS"
for n in "${NODES[@]}"; do [[ " $INSTALL_REBOOTS " == *" $n=1 "* ]] || { say "   $n did not reboot exactly once into its first config"; ALL_OK=0; }; done

# ---- 4. workload and policy ----------------------------------------------------------------------------------------
say "4. the workload (2 replicas on the workers, PDB minAvailable 1) and the node disruption policy"
cat > "$W/workload.yaml" <<YAML
apiVersion: v1
kind: Namespace
metadata: {name: e2e-app}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: e2e-app}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      nodeSelector: {node-role.kubernetes.io/worker: ""}
      # one on each worker: a drained worker's pod waits for its node to come back
      affinity:
        podAntiAffinity:
          requiredDuringSchedulingIgnoredDuringExecution:
          - {topologyKey: kubernetes.io/hostname, labelSelector: {matchLabels: {app: web}}}
      terminationGracePeriodSeconds: 30
      containers:
      - name: httpd
        image: $REGISTRY/e2e/busybox:1
        command: [sh, -c, 'mkdir -p /www && hostname > /www/index.html && exec httpd -f -p 8080 -h /www']
        ports: [{containerPort: 8080}]
        readinessProbe: {httpGet: {path: /, port: 8080}, periodSeconds: 2}
        # leaving, it keeps answering for a while (clients are moved off it first), as a web server should
        lifecycle: {preStop: {exec: {command: [sleep, "8"]}}}
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: web, namespace: e2e-app}
spec:
  minAvailable: 1
  selector: {matchLabels: {app: web}}
---
apiVersion: v1
kind: Service
metadata: {name: web, namespace: e2e-app}
spec:
  selector: {app: web}
  ports: [{port: 80, targetPort: 8080}]
YAML
K apply -f "$W/workload.yaml" > "$W/workload.log" 2>&1 || fail "cannot apply the workload"
K -n e2e-app rollout status deploy/web --timeout=180s >> "$W/workload.log" 2>&1 || fail "the workload is not available"
say "   web: $(K -n e2e-app get pods -o jsonpath='{range .items[*]}{.metadata.name}@{.spec.nodeName} {end}')"
K patch machineconfiguration cluster --type merge -p '{"spec":{"nodeDisruptionPolicy":{"files":[{"path":"/etc/upshift-e2e/beacon.conf","actions":[{"type":"Restart","restart":{"serviceName":"upshift-e2e-beacon.service"}}]}]}}}' > "$W/policy.log" 2>&1 \
  || fail "cannot set the node disruption policy (see $W/policy.log)"
say "   MachineConfiguration cluster: /etc/upshift-e2e/beacon.conf -> Restart upshift-e2e-beacon.service"

# ---- the measured update -------------------------------------------------------------------------------------------
# sample_status DIR: upshift's status between two of oc's, with their times, until DIR/stop. A node's rows are compared
# where oc showed the same row before and after upshift's look (verdict.py status-agree). upshift's JVM is started
# with its quick compiler alone: a look then takes a few seconds rather than a dozen on a busy machine.
sample_status() {
  local d=$1 i=0 t0 t1 t2
  mkdir -p "$d"
  while [ ! -e "$d/stop" ]; do
    i=$((i + 1))
    t0=$(date +%s.%N)
    OC_ENABLE_CMD_UPGRADE_STATUS=true "$OC" adm upgrade status --details=nodes > "$d/$i.oc" 2>&1
    t1=$(date +%s.%N)
    UPSHIFT_JAVA_OPTS="-XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Xshare:auto" ./upshift status --details=nodes > "$d/$i.upshift" 2>&1
    t2=$(date +%s.%N)
    OC_ENABLE_CMD_UPGRADE_STATUS=true "$OC" adm upgrade status --details=nodes > "$d/$i.oc-after" 2>&1
    echo "$i $t0 $t1 $t2 $(date +%s.%N)" >> "$d/index"
    sleep 1
  done
}

unit_active() {  # how many nodes run the beacon unit
  local a=0
  for n in "${NODES[@]}"; do
    [ "$("$E2E_DIR/cluster.sh" exec "$n" -- systemctl is-active upshift-e2e-beacon.service 2>/dev/null)" = active ] && a=$((a + 1))
  done
  echo "$a"
}

# update VERSION NAME [DISTURB]: asks for VERSION, measures until level; sets LINE
update() {
  local v=$1 name=$2 disturb=${3:-} d=$W/$2
  mkdir -p "$d"
  say "$name: update to $v"
  rm -f "$d/watch.jsonl.stop" "$d/status/stop"
  python3 "$E2E_DIR/watch.py" "$KUBECONFIG_PATH" "$d/watch.jsonl" e2e-app/web 2> "$d/watch.err" & PIDS+=($!)
  local watcher=$!
  sample_status "$d/status" 2> "$d/status.err" & PIDS+=($!)
  local sampler=$!
  local disturber=""
  if [ -n "$disturb" ]; then "$disturb" "$d" > "$d/disturb.log" 2>&1 & PIDS+=($!); disturber=$!; fi
  sleep 2
  local t0; t0=$(now)
  up upgrade --to-image "${REL[$v]}" --allow-explicit-upgrade > "$d/upgrade.log" 2>&1 || { tail -3 "$d/upgrade.log" | tee -a "$LOG" >&3; }
  local result=FAIL
  wait_level "$v" "$UPDATE_TIMEOUT" && result=OK
  local t1; t1=$(now)
  local secs; secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
  touch "$d/watch.jsonl.stop" "$d/status/stop"
  [ -n "$disturber" ] && { wait "$disturber"; sed 's/^/   disturb: /' "$d/disturb.log" | tee -a "$LOG" >&3; }
  wait "$watcher" "$sampler" 2>/dev/null
  local UPDATED TOTAL REBOOTS REBOOTS_BY_NODE MAX_UNAVAILABLE MAX_UNAVAILABLE_BY_POOL WORKLOAD WORKLOAD_DETAIL PHASES
  eval "$(python3 "$E2E_DIR/verdict.py" update "$KUBECONFIG_PATH" "$v" "$LOGS" "$d/watch.jsonl" "$t0" "$t1")"
  local AGREE COMPARED DIFFER ASSESSMENTS EXAMPLES
  eval "$(python3 "$E2E_DIR/verdict.py" status-agree "$d/status/index" "$d/status" "$d/watch.jsonl")"
  ACTIVE=$(unit_active)
  say "   nodes: $PHASES"
  say "   reboots: $REBOOTS_BY_NODE; unavailable at most: $MAX_UNAVAILABLE_BY_POOL; workload: $WORKLOAD_DETAIL"
  say "   status: $COMPARED compared, $DIFFER differing; rows upshift showed: $ASSESSMENTS"
  [ -n "$EXAMPLES" ] && say "   differing: $EXAMPLES"
  UP_UPDATED=$UPDATED UP_NODES=$TOTAL UP_REBOOTS=$REBOOTS UP_BY_NODE=$REBOOTS_BY_NODE UP_WORKLOAD=$WORKLOAD
  LINE="real nodes: update $result $secs s, $UPDATED/$TOTAL nodes updated, $REBOOTS reboots, unit active on $ACTIVE/$TOTAL, max unavailable $MAX_UNAVAILABLE, workload available throughout $WORKLOAD, oc status agrees $AGREE, - refused"
  say "   $LINE"
  UP_RESULT=$result
}

say "5. the update that reboots"
update 1.0.1 update-1.0.1
FIRST_LINE=$LINE
[ "$UP_RESULT" = OK ] && [ "$UP_UPDATED" = "$UP_NODES" ] && [ "$UP_REBOOTS" = "$UP_NODES" ] && [ "$ACTIVE" = "$UP_NODES" ] \
  && [ "$UP_WORKLOAD" = yes ] && [[ "$LINE" == *"max unavailable 1,"* ]] && [[ "$LINE" == *"agrees yes"* ]] || ALL_OK=0

say "6. the update under a Restart policy"
before=$(for n in "${NODES[@]}"; do "$E2E_DIR/cluster.sh" exec "$n" -- cat /run/upshift-e2e-beacon.log 2>/dev/null | wc -l; done | paste -sd' ')
update 1.0.2 update-1.0.2
restarted=0
for n in "${NODES[@]}"; do
  "$E2E_DIR/cluster.sh" exec "$n" -- tail -1 /run/upshift-e2e-beacon.log 2>/dev/null | grep -q 'BEACON_RELEASE=1.0.2$' && restarted=$((restarted + 1))
done
say "   beacon restarted with 1.0.2's file on $restarted/${#NODES[@]} nodes (its log lines before: $before)"
LINES+=("$LINE")
[ "$UP_RESULT" = OK ] && [ "$UP_UPDATED" = "$UP_NODES" ] && [ "$UP_REBOOTS" = 0 ] && [ "$restarted" = "${#NODES[@]}" ] || ALL_OK=0

# ---- 7. disturbed ----------------------------------------------------------------------------------------------------
# disturb DIR: the first worker seen draining loses its agent (SIGKILL); the next one is rebooted by hand mid-drain.
# Mid-drain: Working, cordoned, Ready, its drain asked (desiredDrain drain-...) and not yet done (lastAppliedDrain).
draining() {  # prints such a worker, other than $1
  K get nodes -l node-role.kubernetes.io/worker -o json | python3 -c '
import json, sys
M = "machineconfiguration.openshift.io/"
for n in json.load(sys.stdin)["items"]:
    a = n["metadata"].get("annotations") or {}
    ready = any(c["type"] == "Ready" and c["status"] == "True" for c in n["status"]["conditions"])
    if n["metadata"]["name"] != sys.argv[1] and a.get(M + "state") == "Working" and n["spec"].get("unschedulable") \
            and ready and a.get(M + "desiredDrain", "").startswith("drain-") \
            and a.get(M + "desiredDrain") != a.get(M + "lastAppliedDrain"):
        print(n["metadata"]["name"]); break' "${1:-}"
}
node_facts() {  # NODE: its update annotations and the pods the drain still has to move
  echo "   $1: $(K get node "$1" -o jsonpath='{.metadata.annotations.machineconfiguration\.openshift\.io/state} desiredDrain={.metadata.annotations.machineconfiguration\.openshift\.io/desiredDrain} lastAppliedDrain={.metadata.annotations.machineconfiguration\.openshift\.io/lastAppliedDrain}'); pods: $(K get pods -A --field-selector spec.nodeName="$1" -o jsonpath='{range .items[*]}{.metadata.namespace}/{.metadata.name}{.metadata.deletionTimestamp} {end}' | tr ' ' '\n' | grep -v machine-config-daemon | paste -sd' ')"
}
disturb() {
  local d=$1 first="" second="" pid="" pod="" facts
  # the agent that acts on the node is the one holding its host's lock (a DaemonSet rollout may have started a next
  # one, waiting for it): its pid, in the node's PID namespace, is in the lock's file
  for _ in $(seq 1200); do
    first=$(draining)
    if [ -n "$first" ]; then
      pid=$("$E2E_DIR/cluster.sh" exec "$first" -- cat /run/upshift/agent.lock 2>/dev/null | tr -dc '0-9')
      pod=$(K -n openshift-machine-config-operator get pod -l k8s-app=machine-config-daemon --field-selector spec.nodeName="$first" -o name 2>/dev/null | head -1)
      facts=$(node_facts "$first")
      if [ -n "$pid" ] && "$E2E_DIR/cluster.sh" exec "$first" -- sh -c "grep -q agent /proc/$pid/cmdline && kill -KILL $pid" 2>/dev/null; then
        echo "$facts"
        echo "$(date -u +%T) killed the agent on $first mid-drain (pid $pid in the node, the holder of /run/upshift/agent.lock; $pod)"
        echo "$first" > "$d/killed"
        break
      fi
    fi
    first=""
    sleep 0.5
  done
  [ -n "$first" ] || { echo "no agent seen mid-drain to kill"; return; }
  for _ in $(seq 1200); do second=$(draining "$first"); [ -n "$second" ] && break; sleep 0.5; done
  if [ -n "$second" ]; then
    node_facts "$second"
    echo "   $second's boot id: $("$E2E_DIR/cluster.sh" exec "$second" -- cat /proc/sys/kernel/random/boot_id)"
    "$E2E_DIR/cluster.sh" exec "$second" -- systemctl reboot
    echo "$(date -u +%T) rebooted $second by hand mid-drain"
    echo "$second" > "$d/rebooted"
  else
    echo "no second worker seen mid-drain"
  fi
  # what the agents on the first node said: the killed one (its pod's previous container, when the pod is still
  # there), the ones after it
  K -n openshift-machine-config-operator logs "$pod" --previous > "$d/agent-killed.log" 2>&1
  echo "   the killed agent's last lines: $(grep -v '^\s*at \|vertx\|Vertx' "$d/agent-killed.log" | tail -2 | cut -c1-200 | paste -sd'|')"
  pod=$(K -n openshift-machine-config-operator get pod -l k8s-app=machine-config-daemon --field-selector spec.nodeName="$first" -o name 2>/dev/null | head -1)
  K -n openshift-machine-config-operator logs "$pod" > "$d/agent-after-kill.log" 2>&1
  echo "   $first's agent now ($pod): $(grep -v '^\s*at \|vertx\|Vertx' "$d/agent-after-kill.log" | grep "nodes/$first" | head -3 | cut -c1-200 | paste -sd'|')"
}
if [ "${E2E_SCENARIOS:-1}" = 1 ]; then
  say "7. the update disturbed: an agent killed mid-drain, a node rebooted by hand mid-drain"
  update 1.0.3 update-1.0.3 disturb
  LINES+=("$LINE")
  ok=1
  [ "$UP_RESULT" = OK ] && [ "$UP_UPDATED" = "$UP_NODES" ] && [ "$ACTIVE" = "$UP_NODES" ] && [ "$UP_WORKLOAD" = yes ] || ok=0
  killed=$(cat "$W/update-1.0.3/killed" 2>/dev/null) rebooted=$(cat "$W/update-1.0.3/rebooted" 2>/dev/null)
  reboots_of() { echo " $UP_BY_NODE" | sed -n "s/.* $1=\([0-9]*\).*/\1/p"; }
  if [ -n "$killed" ]; then
    r=$(reboots_of "$killed"); s=OK; [ "$ok" = 1 ] && [ "$r" = 1 ] || { s=FAIL; ALL_OK=0; }
    LINES+=("real nodes: agent killed mid-drain on $killed: $s, node updated, $r reboot(s) of it")
  else
    LINES+=("real nodes: agent killed mid-drain: FAIL, no agent killed"); ALL_OK=0
  fi
  if [ -n "$rebooted" ]; then
    r=$(reboots_of "$rebooted"); s=OK; [ "$ok" = 1 ] && [ "$r" = 2 ] || { s=FAIL; ALL_OK=0; }
    LINES+=("real nodes: node rebooted by hand mid-drain ($rebooted): $s, node updated, $r reboots of it (1 by hand, $((r - 1)) by the update)")
  else
    LINES+=("real nodes: node rebooted by hand mid-drain: FAIL, no node rebooted"); ALL_OK=0
  fi
  for n in "${NODES[@]}"; do [ "$n" = "$killed" ] || [ "$n" = "$rebooted" ] || { r=$(reboots_of "$n"); [ "$r" = 1 ] || ALL_OK=0; }; done
fi

# ---- 8. held by a budget ---------------------------------------------------------------------------------------------
# hold DIR: once a worker is Degraded for its drain, lets the status readers see it for a while, then relaxes the budget
hold() {
  local d=$1 node=""
  for _ in $(seq 900); do
    node=$(K get nodes -l node-role.kubernetes.io/worker -o jsonpath='{range .items[?(@.metadata.annotations.machineconfiguration\.openshift\.io/state=="Degraded")]}{.metadata.name}{"\n"}{end}' | head -1)
    [ -n "$node" ] && break
    sleep 1
  done
  [ -n "$node" ] || { echo "no worker became Degraded"; K -n e2e-app patch pdb web --type merge -p '{"spec":{"minAvailable":1}}' >/dev/null; return; }
  echo "$(date -u +%T) $node Degraded: $(K get node "$node" -o jsonpath='{.metadata.annotations.machineconfiguration\.openshift\.io/reason}')"
  echo "$node" > "$d/degraded"
  sleep 60   # the status readers' pairs while it is Degraded
  K -n e2e-app patch pdb web --type merge -p '{"spec":{"minAvailable":1}}' >/dev/null
  echo "$(date -u +%T) PodDisruptionBudget e2e-app/web relaxed to minAvailable 1"
}
if [ "${E2E_SCENARIOS:-1}" = 1 ]; then
  say "8. a node held by a PodDisruptionBudget: web's budget at minAvailable 2, 1.0.4's agents drain for at most $DRAIN_TIMEOUT"
  K -n e2e-app patch pdb web --type merge -p '{"spec":{"minAvailable":2}}' > /dev/null || fail "cannot tighten the budget"
  update 1.0.4 update-1.0.4 hold
  LINES+=("$LINE")
  degraded=$(cat "$W/update-1.0.4/degraded" 2>/dev/null)
  shown=$(grep -l "^$degraded .*Degraded" "$W"/update-1.0.4/status/*.upshift 2>/dev/null | wc -l)
  shown_oc=$(grep -l "^$degraded .*Degraded" "$W"/update-1.0.4/status/*.oc 2>/dev/null | wc -l)
  s=OK
  [ -n "$degraded" ] && [ "$shown" -gt 0 ] && [ "$shown_oc" -gt 0 ] && [ "$UP_RESULT" = OK ] && [ "$UP_UPDATED" = "$UP_NODES" ] \
    && [ "$UP_REBOOTS" = "$UP_NODES" ] || { s=FAIL; ALL_OK=0; }
  LINES+=("real nodes: node held by a PodDisruptionBudget${degraded:+ ($degraded)}: $s, Degraded after the $DRAIN_TIMEOUT drain timeout, shown Degraded in $shown upshift and $shown_oc oc status samples, updated once the budget allowed it")
fi
exit 0
}
