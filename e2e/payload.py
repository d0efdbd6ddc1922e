#!/usr/bin/env python3
"""Writes the payload of one release of the multi-node check (e2e/real-nodes.sh).

usage: payload.py VERSION GENERATION DIR REPO [--beacon] [--drain-timeout DURATION]

The machine-config component, as OpenShift's payload carries it (run-level 80), in release-manifests/ but for 03:
  00 the namespace openshift-machine-config-operator;
  01 the ConfigMap machine-config-templates of this release (docs/node-pools.md): each role's 00-<role> config with
     the file /etc/upshift-e2e/role, and for both roles the file /etc/upshift-e2e/generation ("generation N", which
     no node disruption policy covers: a change of it needs a reboot) and, with --beacon, the unit
     upshift-e2e-beacon.service (enabled, wanted by multi-user.target) and its file /etc/upshift-e2e/beacon.conf
     (BEACON_RELEASE=<release>, changed by every release);
  02 the pools master (required for upgrade, as upstream's) and worker, create-only, maxUnavailable 1;
  03 the pool controller Deployment and the node agent DaemonSet (and their metrics Services) exactly as REPO's
     deploy/pools.yaml defines them,
     running the release image, the controller with --release-version VERSION (the agent with --drain-timeout
     DURATION when given: the check's release that waits for a drain no longer than that): in manifests/, the one folder whose
     manifests are templated, so that {{.ReleaseImage}} is this release's image (as the controller's own Deployment);
  09 the ClusterOperator machine-config, which the cluster-version controller waits on until it reports VERSION.
The rest of manifests/ is left to `upshift release new --base --trust` (the controller's Deployment and the
verification ConfigMap). Every manifest carries the default profile's include annotation.
"""
import os, shutil, sys
import yaml

version, generation, out, repo = sys.argv[1:5]
beacon = "--beacon" in sys.argv[5:]
drain_timeout = sys.argv[sys.argv.index("--drain-timeout") + 1] if "--drain-timeout" in sys.argv else ""
INCLUDE = {"include.release.openshift.io/self-managed-high-availability": "true"}
NS = "openshift-machine-config-operator"
PREFIX = "0000_80_machine-config_"


def annotated(obj, **extra):
    md = obj.setdefault("metadata", {})
    md["annotations"] = {**(md.get("annotations") or {}), **INCLUDE, **extra}
    return obj


def write(name, *docs, folder="release-manifests"):
    with open(os.path.join(out, folder, PREFIX + name), "w") as f:
        yaml.safe_dump_all([annotated(d) for d in docs], f, sort_keys=False, width=200)


def template(**fields):
    return yaml.safe_dump(fields, sort_keys=False, width=200)


shutil.rmtree(out, ignore_errors=True)
os.makedirs(os.path.join(out, "manifests"))
os.makedirs(os.path.join(out, "release-manifests"))

write("00_namespace.yaml", {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": NS}})

templates = {"releaseVersion": version}
templates["common._base.files.upshift-e2e-generation.yaml"] = template(
    path="/etc/upshift-e2e/generation", mode=0o644, contents={"inline": "generation %s\n" % generation})
if beacon:
    templates["common._base.files.upshift-e2e-beacon-conf.yaml"] = template(
        path="/etc/upshift-e2e/beacon.conf", mode=0o644,
        contents={"inline": "BEACON_RELEASE={{.ReleaseVersion}}\n"})
    templates["common._base.units.upshift-e2e-beacon.service.yaml"] = template(
        name="upshift-e2e-beacon.service", enabled=True, contents="""[Unit]
Description=Upshift e2e beacon: a unit a release adds, which must run once the node is updated

[Service]
EnvironmentFile=/etc/upshift-e2e/beacon.conf
ExecStart=/bin/sh -c 'echo "$$(date -u +%%Y-%%m-%%dT%%H:%%M:%%SZ) BEACON_RELEASE=$${BEACON_RELEASE}" >> /run/upshift-e2e-beacon.log; exec sleep infinity'

[Install]
WantedBy=multi-user.target
""")
for role in ("master", "worker"):
    templates["%s.00-%s._base.files.upshift-e2e-role.yaml" % (role, role)] = template(
        path="/etc/upshift-e2e/role", mode=0o644, contents={"inline": role + "\n"})
write("01_templates.yaml", {"apiVersion": "v1", "kind": "ConfigMap",
                            "metadata": {"name": "machine-config-templates", "namespace": NS},
                            "data": templates})

pools = []
for role in ("master", "worker"):
    pool = {"apiVersion": "machineconfiguration.openshift.io/v1", "kind": "MachineConfigPool",
            "metadata": {"name": role, "annotations": {"release.openshift.io/create-only": "true"}},
            "spec": {"maxUnavailable": 1,
                     "machineConfigSelector": {"matchLabels": {"machineconfiguration.openshift.io/role": role}},
                     "nodeSelector": {"matchLabels": {"node-role.kubernetes.io/" + role: ""}}}}
    if role == "master":
        pool["metadata"]["labels"] = {"operator.machineconfiguration.openshift.io/required-for-upgrade": ""}
    pools.append(pool)
write("02_pools.yaml", *pools)

with open(os.path.join(repo, "deploy", "pools.yaml")) as f:
    shipped = [d for d in yaml.safe_load_all(f) if d]
for d in shipped:
    if d["kind"] not in ("Deployment", "DaemonSet"):
        continue  # the metrics Services, as shipped
    c = d["spec"]["template"]["spec"]["containers"][0]
    c["image"] = "{{.ReleaseImage}}"
    if d["kind"] == "Deployment":
        args = list(c["args"])
        args[args.index("--release-version") + 1] = version
        c["args"] = args
    elif drain_timeout:
        c["args"] = list(c["args"]) + ["--drain-timeout", drain_timeout]
write("03_operator.yaml", *shipped, folder="manifests")

write("09_clusteroperator.yaml", {"apiVersion": "config.openshift.io/v1", "kind": "ClusterOperator",
                                  "metadata": {"name": "machine-config"}, "spec": {},
                                  "status": {"versions": [{"name": "operator", "version": version}]}})
