#!/bin/bash
# Runs one node as a machine of its own and keeps it running across reboots: systemd-nspawn boots the node's root
# with its systemd as PID 1, in its own network namespace (a veth on the bridge); when the node's systemd reboots
# (`systemctl reboot` inside), nspawn exits with code 133 and the node is booted again, as systemd-nspawn@.service
# does (RestartForceExitStatus=133). Any other exit ends the node. Started by cluster.sh, one per node:
#   node-run.sh NAME ROOTFS KUBE_BIN
# Each boot is one line in $LOGS/node-NAME.boots (time, event); the machine's console goes to $LOGS/node-NAME.console.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
NAME=$1 ROOTFS=$2 BIN=$3

# A cgroup of its own in every hierarchy: nspawn gives the machine a cgroup namespace rooted where it starts, so the
# nodes' kubelets (cgroupfs driver) each make /kubepods in their own subtree, not in a shared one.
for h in /sys/fs/cgroup/*/; do
  h=${h%/}
  [ -f "$h/cgroup.procs" ] || continue
  d=$h/upshift-e2e/$NAME
  mkdir -p "$d"
  if [ -f "$h/cpuset.cpus" ]; then   # a v1 cpuset cgroup takes no process before it has cpus and mems
    for f in cpuset.cpus cpuset.mems; do
      [ -s "$h/upshift-e2e/$f" ] || cat "$h/$f" > "$h/upshift-e2e/$f"
      [ -s "$d/$f" ] || cat "$h/upshift-e2e/$f" > "$d/$f"
    done
  fi
  echo $$ > "$d/cgroup.procs" 2>/dev/null || echo "node-run: cannot move into $d" >&2
done

boots=$LOGS/node-$NAME.boots
while :; do
  echo "$(date -u +%Y-%m-%dT%H:%M:%S.%3NZ) boot" >> "$boots"
  systemd-nspawn --boot --register=no --keep-unit --console=read-only \
    --machine="$NAME" -D "$ROOTFS" \
    --network-bridge="$BRIDGE" --capability=all --system-call-filter="@keyring" \
    --resolv-conf=copy-host --timezone=off \
    --bind-ro="$BIN/kube-proxy:/usr/local/bin/kube-proxy" \
    >> "$LOGS/node-$NAME.console" 2>&1 < /dev/null &
  echo $! > "$RUN/node-$NAME.nspawn.pid"
  wait $!
  rc=$?
  echo "$(date -u +%Y-%m-%dT%H:%M:%S.%3NZ) exit $rc" >> "$boots"
  [ "$rc" = 133 ] || break
  [ -e "$RUN/node-$NAME.stop" ] && break
done
rm -f "$RUN/node-$NAME.nspawn.pid"
