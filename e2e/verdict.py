#!/usr/bin/env python3
"""The measures of e2e/real-nodes.sh, from what it recorded.

  verdict.py level KUBECONFIG VERSION
      exit 0 when the cluster is level on VERSION: ClusterVersion's last history entry VERSION Completed, and every
      pool's target a rendered config of VERSION's controller that each of its nodes runs, Done and uncordoned.
      Prints where it stands in one line.
  verdict.py update KUBECONFIG VERSION LOGS WATCH.jsonl FROM TO
      what an update did between FROM and TO (seconds since 1970), as shell assignments: UPDATED (nodes running their
      pool's config of VERSION, Done), TOTAL (nodes), REBOOTS (the machines' reboots, from LOGS/node-*.boots), REBOOTS_BY_NODE,
      MAX_UNAVAILABLE (most nodes of one pool cordoned or not Ready at once) with MAX_UNAVAILABLE_BY_POOL, WORKLOAD
      (yes when every look found a pod of the workload answering and no look was missed for more than 5 s),
      WORKLOAD_DETAIL, PHASES (the node states seen, in order, per node).
  verdict.py status-agree INDEX DIR
      compares the node rows of `upshift status --details=nodes` with those of `oc adm upgrade status
      --details=nodes` taken just before and just after it (INDEX: a line per look, "N T0 T1 T2 T3"; outputs
      DIR/N.oc, DIR/N.upshift, DIR/N.oc-after): a node's row is compared where oc showed the same row before and
      after (the node, as oc reads it, stood still while upshift looked); a row one shows and the other does not
      counts too. Prints AGREE (yes when some rows were compared and none differed), COMPARED (rows, looks), DIFFER,
      ASSESSMENTS (the node assessments and phases upshift showed), EXAMPLES.
  verdict.py refused AUDIT.log...
      requests of Upshift's identities (its ServiceAccounts; Upshift's clients by user agent for a 401, which names
      no user) refused with 401 or 403: prints the count, then one line per kind of refusal.
"""
import glob, json, os, re, sys
from datetime import datetime, timezone

from kubeapi import MC, Api, annotation

UPSHIFT_SA = ("system:serviceaccount:upshift:", "system:serviceaccount:openshift-machine-config-operator:")


def pools_and_nodes(api):
    pools = api.get("/apis/machineconfiguration.openshift.io/v1/machineconfigpools", {"items": []})["items"]
    nodes = api.get("/api/v1/nodes")["items"]
    return pools, nodes


def members(pool, nodes):
    sel = (pool["spec"].get("nodeSelector") or {}).get("matchLabels") or {}
    return [n for n in nodes if all((n["metadata"].get("labels") or {}).get(k) == v for k, v in sel.items())]


def pool_target(api, pool):
    name = ((pool.get("spec") or {}).get("configuration") or {}).get("name", "")
    mc = api.get("/apis/machineconfiguration.openshift.io/v1/machineconfigs/" + name) if name else None
    return name, annotation(mc, MC + "release-image-version") if mc else ""


def on_target(node, target):
    return (annotation(node, MC + "currentConfig") == target and annotation(node, MC + "desiredConfig") == target
            and annotation(node, MC + "state") == "Done" and not node["spec"].get("unschedulable"))


def level(kubeconfig, version):
    api = Api(kubeconfig)
    cv = api.get("/apis/config.openshift.io/v1/clusterversions/version")
    history = ((cv or {}).get("status") or {}).get("history") or []
    ok = bool(history) and history[0].get("version") == version and history[0].get("state") == "Completed"
    parts = ["history " + (" ".join("%s=%s" % (h.get("version"), h.get("state")) for h in history[:3]) or "-")]
    pools, nodes = pools_and_nodes(api)
    if not pools:
        ok = False
    for p in pools:
        target, release = pool_target(api, p)
        ns = members(p, nodes)
        done = [n for n in ns if on_target(n, target)]
        ok = ok and release == version and len(done) == len(ns)
        parts.append("pool %s %s (%s) %d/%d" % (p["metadata"]["name"], target or "-", release or "-", len(done), len(ns)))
    for n in nodes:
        parts.append("%s:%s%s" % (n["metadata"]["name"], annotation(n, MC + "state") or "-",
                                  ",cordoned" if n["spec"].get("unschedulable") else ""))
    print("; ".join(parts))
    return 0 if ok else 1


def read_watch(path, t0=0.0, t1=float("inf")):
    out = []
    with open(path) as f:
        for line in f:
            try:
                w = json.loads(line)
            except ValueError:
                continue
            if t0 <= w["t"] <= t1:
                out.append(w)
    return out


def boots(logs, node, t0, t1):
    n = 0
    try:
        with open(os.path.join(logs, "node-%s.boots" % node)) as f:
            for line in f:
                when, event = line.split(None, 1)
                t = datetime.strptime(when, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=timezone.utc).timestamp()
                if event.strip() == "exit 133" and t0 <= t <= t1:
                    n += 1
    except FileNotFoundError:
        pass
    return n


def update(kubeconfig, version, logs, watch, t0, t1):
    api = Api(kubeconfig)
    pools, nodes = pools_and_nodes(api)
    updated, total = 0, 0
    for p in pools:
        target, release = pool_target(api, p)
        for n in members(p, nodes):
            total += 1
            updated += release == version and on_target(n, target)
    by_node = {n["metadata"]["name"]: boots(logs, n["metadata"]["name"], t0, t1) for n in nodes}
    looks = read_watch(watch, t0, t1)
    worst, phases = {}, {}
    answered_looks, failed_looks, last_ok, gap = 0, 0, t0, 0.0
    for w in looks:
        if "nodes" in w:
            per_pool = {}
            for name, n in w["nodes"].items():
                per_pool.setdefault(n["pool"], 0)
                if n["cordoned"] or not n["ready"]:
                    per_pool[n["pool"]] += 1
                seen = phases.setdefault(name, [])
                state = (n["state"] or "-") + ("" if n["ready"] else "/NotReady")
                if not seen or seen[-1] != state:
                    seen.append(state)
            for pool, c in per_pool.items():
                worst[pool] = max(worst.get(pool, 0), c)
        wl = w.get("workload")
        if wl is not None:
            if wl["answered"] >= 1:
                answered_looks += 1
                gap = max(gap, w["t"] - last_ok)
                last_ok = w["t"]
            else:
                failed_looks += 1
    gap = max(gap, t1 - last_ok) if looks else t1 - t0
    workload = "yes" if failed_looks == 0 and answered_looks > 0 and gap <= 5.0 else "no"
    out = {
        "UPDATED": updated, "TOTAL": total, "REBOOTS": sum(by_node.values()),
        "REBOOTS_BY_NODE": " ".join("%s=%d" % kv for kv in sorted(by_node.items())),
        "MAX_UNAVAILABLE": max(worst.values()) if worst else 0,
        "MAX_UNAVAILABLE_BY_POOL": " ".join("%s=%d" % kv for kv in sorted(worst.items())),
        "WORKLOAD": workload,
        "WORKLOAD_DETAIL": "%d looks answered, %d not, longest gap %.1f s" % (answered_looks, failed_looks, gap),
        "PHASES": "; ".join("%s: %s" % (k, " > ".join(v)) for k, v in sorted(phases.items())),
    }
    for k, v in out.items():
        print("%s=%s" % (k, shquote(str(v))))
    return 0


def shquote(s):
    return "'" + s.replace("'", "'\\''") + "'"


def node_rows(text):
    """The rows of every node table in a status output: {section: [columns...]} keyed by node name."""
    rows, header, section = {}, None, ""
    for line in text.splitlines():
        if not line.strip():
            header = None
            continue
        if re.match(r"^NAME\s+ASSESSMENT\s+PHASE", line):
            header = [m.start() for m in re.finditer(r"\S+", line)]
            continue
        if header is None:
            if line.endswith(":") or "Nodes" in line:
                section = line.strip()
            continue
        cols = [c.strip() for c in re.split(r"\s{2,}", line.strip())]
        rows[(section, cols[0])] = cols
    return rows


def status_agree(index, folder):
    pairs, rows, differ, shown, examples = 0, 0, 0, {}, []
    with open(index) as f:
        for line in f:
            n = line.split()[0]
            try:
                before = node_rows(open(os.path.join(folder, n + ".oc")).read())
                up = node_rows(open(os.path.join(folder, n + ".upshift")).read())
                after = node_rows(open(os.path.join(folder, n + ".oc-after")).read())
            except FileNotFoundError:
                continue
            for cols in up.values():
                if len(cols) > 2:
                    shown[cols[1] + "/" + cols[2]] = shown.get(cols[1] + "/" + cols[2], 0) + 1
            here = 0
            for key in sorted(set(before) | set(up) | set(after)):
                if before.get(key) != after.get(key):
                    continue  # the node changed while upshift looked: nothing to compare
                here += 1
                if up.get(key) != before.get(key):
                    differ += 1
                    if len(examples) < 3:
                        examples.append("sample %s %s: oc %s | upshift %s" % (n, key[1], before.get(key), up.get(key)))
            rows += here
            pairs += here > 0
    print("AGREE=%s" % ("yes" if rows > 0 and differ == 0 else "no"))
    print("COMPARED=%s" % shquote("%d rows in %d looks" % (rows, pairs)))
    print("DIFFER=%d" % differ)
    print("ASSESSMENTS=%s" % shquote(", ".join("%s (%d)" % kv for kv in sorted(shown.items()))))
    print("EXAMPLES=%s" % shquote(" || ".join(examples)))
    return 0


def refused(files):
    seen = {}
    for fn in files:
        with open(fn, errors="replace") as f:
            for line in f:
                try:
                    e = json.loads(line)
                except ValueError:
                    continue
                code = (e.get("responseStatus") or {}).get("code")
                if code not in (401, 403):
                    continue
                user = (e.get("user") or {}).get("username", "")
                agent = e.get("userAgent", "")
                ours = user.startswith(UPSHIFT_SA) or (code == 401 and ("upshift" in agent or "fabric8" in agent))
                if ours:
                    o = e.get("objectRef") or {}
                    seen[e["auditID"]] = "%s %s %s %s/%s" % (code, user or agent, e.get("verb"), o.get("resource", ""),
                                                             o.get("subresource", ""))
    print(len(seen))
    kinds = {}
    for v in seen.values():
        kinds[v] = kinds.get(v, 0) + 1
    for k, c in sorted(kinds.items(), key=lambda kv: -kv[1]):
        print("%6d  %s" % (c, k))
    return 0


if __name__ == "__main__":
    cmd, args = sys.argv[1], sys.argv[2:]
    if cmd == "level":
        sys.exit(level(*args))
    if cmd == "update":
        sys.exit(update(args[0], args[1], args[2], args[3], float(args[4]), float(args[5])))
    if cmd == "status-agree":
        sys.exit(status_agree(args[0], args[1]))
    if cmd == "refused":
        sys.exit(refused(args or sorted(glob.glob("audit*.log"))))
    sys.exit("unknown command " + cmd)
