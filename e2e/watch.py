#!/usr/bin/env python3
"""Watches the cluster once a second while e2e/real-nodes.sh updates it, and writes one JSON line per look.

usage: watch.py KUBECONFIG OUT.jsonl [NAMESPACE/SERVICE]

Each line: {"t": seconds since 1970, "nodes": {NAME: {"pool", "ready", "cordoned", "state", "current", "desired",
"mcn": its MachineConfigNode's conditions that are not False}}, "cluster": {the update asked for, the last history
entry, each pool's target and current config and updated count},
"workload": {"ready": pods the Service lists as ready, "answered": of those, how many answered HTTP within 2 s}}.
The workload is asked directly at its pods' addresses (this machine routes every node's pods), so "answered" is what a
client of the Service could reach. Stops when OUT.jsonl.stop appears.
"""
import json, os, sys, time, urllib.request
from concurrent.futures import ThreadPoolExecutor

from kubeapi import Api

kubeconfig, out = sys.argv[1], sys.argv[2]
service = sys.argv[3] if len(sys.argv) > 3 else ""
api = Api(kubeconfig)
get = api.get


def ann(n, key):
    return (n["metadata"].get("annotations") or {}).get("machineconfiguration.openshift.io/" + key, "")


def nodes():
    out = {}
    for n in get("/api/v1/nodes")["items"]:
        labels = n["metadata"].get("labels") or {}
        ready = any(c["type"] == "Ready" and c["status"] == "True" for c in n["status"].get("conditions", []))
        out[n["metadata"]["name"]] = {
            "pool": "master" if "node-role.kubernetes.io/master" in labels else "worker",
            "ready": ready, "cordoned": bool(n["spec"].get("unschedulable")),
            "state": ann(n, "state"), "current": ann(n, "currentConfig"), "desired": ann(n, "desiredConfig")}
    # what the node's MachineConfigNode says (its conditions that are not False), which status readers also read
    mcns = get("/apis/machineconfiguration.openshift.io/v1/machineconfignodes", {"items": []})
    for m in mcns["items"]:
        if m["metadata"]["name"] in out:
            out[m["metadata"]["name"]]["mcn"] = sorted(
                c["type"] + "=" + c["status"] for c in (m.get("status") or {}).get("conditions", [])
                if c["status"] != "False")
    return out


def answers(ip, port):
    for _ in range(2):  # one retry: a single lost packet is not an outage
        try:
            with urllib.request.urlopen("http://%s:%s/" % (ip, port), timeout=1.5) as r:
                if r.status == 200:
                    return True
        except OSError:
            pass
    return False


def workload():
    ns, name = service.split("/")
    ep = get("/api/v1/namespaces/%s/endpoints/%s" % (ns, name))
    targets = [(a["ip"], subset["ports"][0]["port"]) for subset in ep.get("subsets") or []
               for a in subset.get("addresses") or []]
    # all at once: a pod on a node going down costs its own timeout, not the look's
    with ThreadPoolExecutor(max_workers=max(1, len(targets))) as pool:
        answered = sum(pool.map(lambda t: answers(*t), targets))
    return {"ready": len(targets), "answered": answered}


def cluster():
    """What the status readers also read besides the nodes: the update asked for and the pools' configs."""
    cv = get("/apis/config.openshift.io/v1/clusterversions/version", {}) or {}
    history = (cv.get("status") or {}).get("history") or [{}]
    pools = get("/apis/machineconfiguration.openshift.io/v1/machineconfigpools", {"items": []})["items"]
    return {"desired": ((cv.get("spec") or {}).get("desiredUpdate") or {}).get("image", ""),
            "history": "%s=%s" % (history[0].get("version"), history[0].get("state")),
            "pools": {p["metadata"]["name"]: [((p.get("spec") or {}).get("configuration") or {}).get("name", ""),
                                              ((p.get("status") or {}).get("configuration") or {}).get("name", ""),
                                              (p.get("status") or {}).get("updatedMachineCount", 0)]
                      for p in pools}}


with open(out, "a") as f:
    while not os.path.exists(out + ".stop"):
        t = time.time()
        line = {"t": round(t, 3)}
        try:
            line["nodes"] = nodes()
            line["cluster"] = cluster()
            if service:
                line["workload"] = workload()
        except Exception as e:  # the API server busy for a moment: a look without answers, counted as such
            line["error"] = str(e)[:200]
        f.write(json.dumps(line, sort_keys=True) + "\n")
        f.flush()
        time.sleep(max(0.0, 1.0 - (time.time() - t)))
