#!/usr/bin/env python3
"""Where the seconds of an install or an update of Upshift go, from what the cluster recorded.

usage: timeline.py snapshot KUBECONFIG DIR     keep what the cluster holds now in DIR (run it after the install and
                                              again after the update: a pod's log is gone once the pod is replaced,
                                              so each snapshot keeps the logs of the pods alive then)
       timeline.py report DIR [--phase install|update|all] [--events] [--audit AUDIT.log]
                                              the breakdown, from DIR's snapshots; with the API server's audit log
                                              (level Metadata is enough), also each Upshift pod's first request and
                                              every write of Upshift's service accounts, to the microsecond, and the
                                              writes that came after the history said Completed
       timeline.py KUBECONFIG                 both at once, into a temporary folder

It reads only (GETs with KUBECONFIG's identity): Events, Pods (conditions' lastTransitionTime, containerStatuses'
startedAt), ReplicaSets, Jobs (startTime, completionTime), the Lease openshift-cluster-version/version (acquireTime),
ClusterVersion (status.history startedTime/completionTime, the spec's managedFields time) and the logs of Upshift's
pods with the container runtime's timestamps (the operator's `startup:` lines, its Events and passes). Times the API
holds in whole seconds (most of them) are shown as such: a step is known to about a second; the logs' and the
scheduler's times are finer.

The report names each stretch of time: from the request (kubectl apply, the spec's desiredUpdate) to the controller
pod's creation, its scheduling, its image, its container start, its `startup:` steps (JVM, caches, Lease, first
sync), the payload Job, the history entry, the apply of run-level 0, the takeover (the old pod's end, the new pod's
start, its Lease, its readiness) and the history's Completed, then the seconds that no step accounts for.
"""
import datetime as dt
import glob
import json
import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

CV_NS = "openshift-cluster-version"
NAMESPACES = (CV_NS, "openshift-machine-config-operator", "demo-app")


def parse_time(s):
    if not s:
        return None
    s = s.strip()
    m = re.match(r"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(\.\d+)?(Z|[+-]\d\d:\d\d)$", s)
    if not m:
        return None
    frac = (m.group(2) or ".0")[:7]
    t = dt.datetime.strptime(m.group(1) + frac + "+0000", "%Y-%m-%dT%H:%M:%S.%f%z")
    if m.group(3) not in ("Z", "+00:00"):
        sign = 1 if m.group(3)[0] == "+" else -1
        h, mi = int(m.group(3)[1:3]), int(m.group(3)[4:6])
        t -= sign * dt.timedelta(hours=h, minutes=mi)
    return t.timestamp()


# ---- snapshot ------------------------------------------------------------------------------------------------------

def snapshot(kubeconfig, out):
    import urllib.request
    from kubeapi import Api

    api = Api(kubeconfig)
    os.makedirs(out, exist_ok=True)
    n = len(glob.glob(os.path.join(out, "snapshot-*.json")))
    snap = {"taken": dt.datetime.now(dt.timezone.utc).isoformat()}
    snap["events"] = api.get("/api/v1/events", {"items": []})["items"]
    snap["pods"], snap["replicasets"], snap["jobs"] = [], [], []
    for ns in NAMESPACES:
        snap["pods"] += api.get("/api/v1/namespaces/%s/pods" % ns, {"items": []})["items"]
        snap["replicasets"] += api.get("/apis/apps/v1/namespaces/%s/replicasets" % ns, {"items": []})["items"]
        snap["jobs"] += api.get("/apis/batch/v1/namespaces/%s/jobs" % ns, {"items": []})["items"]
    snap["lease"] = api.get("/apis/coordination.k8s.io/v1/namespaces/%s/leases/version" % CV_NS)
    snap["clusterversion"] = api.get("/apis/config.openshift.io/v1/clusterversions/version")
    snap["namespace"] = api.get("/api/v1/namespaces/%s" % CV_NS)
    logs = {}
    for p in snap["pods"]:
        md = p["metadata"]
        if md["namespace"] == "demo-app":
            continue
        for c in p["spec"]["containers"]:
            path = "/api/v1/namespaces/%s/pods/%s/log?timestamps=true&container=%s" % (md["namespace"], md["name"], c["name"])
            try:
                req = urllib.request.Request(api.server + path)
                with urllib.request.urlopen(req, context=api.ctx, timeout=10) as r:
                    logs["%s/%s/%s" % (md["namespace"], md["name"], c["name"])] = r.read().decode("utf-8", "replace")
            except Exception as e:  # a pod not started yet, or gone meanwhile
                logs["%s/%s/%s" % (md["namespace"], md["name"], c["name"])] = "# %s" % e
    snap["logs"] = logs
    path = os.path.join(out, "snapshot-%02d.json" % n)
    with open(path, "w") as f:
        json.dump(snap, f)
    return path


# ---- the record: every timestamped fact, from all snapshots --------------------------------------------------------

UPSHIFT_USERS = ("system:serviceaccount:%s:" % CV_NS, "system:serviceaccount:openshift-machine-config-operator:")
READS = ("get", "list", "watch")


def audit_requests(paths):
    """Upshift's requests in the audit logs: (time, pod, verb, what, code), one per request."""
    out = []
    for path in paths:
        with open(path) as f:
            for line in f:
                if '"system:serviceaccount:' not in line:
                    continue
                try:
                    e = json.loads(line)
                except ValueError:
                    continue
                user = e.get("user", {})
                if e.get("stage") != "ResponseComplete" or not user.get("username", "").startswith(UPSHIFT_USERS):
                    continue
                pod = "%s/%s" % (user["username"].split(":")[2],
                                 ((user.get("extra") or {}).get("authentication.kubernetes.io/pod-name") or ["?"])[0])
                o = e.get("objectRef") or {}
                what = "%s %s%s%s" % (o.get("resource", e.get("requestURI", "")), o.get("namespace", "") + "/" if o.get("namespace") else "",
                                      o.get("name", ""), "/" + o["subresource"] if o.get("subresource") else "")
                out.append((parse_time(e["requestReceivedTimestamp"]), pod, e.get("verb"), what,
                            (e.get("responseStatus") or {}).get("code")))
    return sorted(out)


class Record:
    def __init__(self, folder, audit=()):
        self.snaps = []
        for path in sorted(glob.glob(os.path.join(folder, "snapshot-*.json"))):
            with open(path) as f:
                self.snaps.append(json.load(f))
        if not self.snaps:
            sys.exit("timeline: no snapshot in %s (timeline.py snapshot KUBECONFIG %s)" % (folder, folder))
        last = self.snaps[-1]
        self.cv = last.get("clusterversion") or {}
        self.lease = last.get("lease") or {}
        self.namespace = last.get("namespace") or {}
        self.pods, self.rs, self.jobs, self.events, self.logs = {}, {}, {}, {}, {}
        for s in self.snaps:  # the latest view of each object wins; objects gone since stay as last seen
            for p in s.get("pods", []):
                self.pods[p["metadata"]["uid"]] = p
            for r in s.get("replicasets", []):
                self.rs[r["metadata"]["uid"]] = r
            for j in s.get("jobs", []):
                self.jobs[j["metadata"]["uid"]] = j
            for e in s.get("events", []):
                self.events[e["metadata"]["uid"]] = e
            for k, v in (s.get("logs") or {}).items():
                if not v.startswith("# ") and len(v) >= len(self.logs.get(k, "")):
                    self.logs[k] = v
        self.facts = []  # (time, precise, subject, what)
        self.requests = audit_requests(audit)
        self._collect()
        self.facts.sort(key=lambda f: f[0])

    def add(self, t, subject, what, precise=False):
        if t is not None:
            self.facts.append((t, precise, subject, what))

    def _collect(self):
        for e in self.events.values():
            io = e.get("involvedObject", {})
            subj = "%s %s/%s" % (io.get("kind", "?"), io.get("namespace", ""), io.get("name", "?"))
            t = parse_time(e.get("eventTime")) or parse_time(e.get("firstTimestamp")) or parse_time(e["metadata"].get("creationTimestamp"))
            precise = bool(e.get("eventTime"))
            msg = (e.get("message") or "").replace("\n", " ")
            count = e.get("count") or (e.get("series") or {}).get("count") or 1
            self.add(t, subj, "event %s: %s%s" % (e.get("reason"), msg[:160], " (x%d, last %s)" % (count, e.get("lastTimestamp")) if count > 1 else ""), precise)
        for p in self.pods.values():
            md, st = p["metadata"], p.get("status", {})
            subj = "Pod %s/%s" % (md["namespace"], md["name"])
            self.add(parse_time(md.get("creationTimestamp")), subj, "created")
            self.add(parse_time(md.get("deletionTimestamp")), subj, "deleting (grace %s s)" % md.get("deletionGracePeriodSeconds"))
            for c in st.get("conditions", []):
                self.add(parse_time(c.get("lastTransitionTime")), subj, "condition %s=%s" % (c["type"], c["status"]))
            for cs in st.get("containerStatuses", []) or []:
                for state, info in (cs.get("state") or {}).items():
                    self.add(parse_time(info.get("startedAt")), subj, "container %s %s: started" % (cs["name"], state))
                    self.add(parse_time(info.get("finishedAt")), subj, "container %s: finished (%s)" % (cs["name"], info.get("reason")))
        for r in self.rs.values():
            md = r["metadata"]
            self.add(parse_time(md.get("creationTimestamp")), "ReplicaSet %s/%s" % (md["namespace"], md["name"]), "created")
        for j in self.jobs.values():
            md, st = j["metadata"], j.get("status", {})
            subj = "Job %s/%s" % (md["namespace"], md["name"])
            self.add(parse_time(md.get("creationTimestamp")), subj, "created")
            self.add(parse_time(st.get("startTime")), subj, "started")
            self.add(parse_time(st.get("completionTime")), subj, "complete")
        if self.lease:
            sp = self.lease.get("spec", {})
            self.add(parse_time(sp.get("acquireTime")), "Lease %s/version" % CV_NS, "acquired by %s (transitions %s)" % (sp.get("holderIdentity"), sp.get("leaseTransitions")), True)
        if self.namespace:
            self.add(parse_time(self.namespace["metadata"].get("creationTimestamp")), "Namespace " + CV_NS, "created")
        if self.cv:
            self.add(parse_time(self.cv["metadata"].get("creationTimestamp")), "ClusterVersion version", "created")
            for mf in self.cv["metadata"].get("managedFields") or []:
                if "f:spec" in json.dumps(mf.get("fieldsV1", {})) and mf.get("subresource") != "status":
                    if '"f:desiredUpdate"' in json.dumps(mf.get("fieldsV1", {})):
                        self.add(parse_time(mf.get("time")), "ClusterVersion version", "spec.desiredUpdate last written (%s)" % mf.get("manager"))
            for h in (self.cv.get("status") or {}).get("history") or []:
                self.add(parse_time(h.get("startedTime")), "ClusterVersion version", "history %s: started (Partial)" % h.get("version"))
                if h.get("completionTime"):
                    self.add(parse_time(h.get("completionTime")), "ClusterVersion version", "history %s: %s" % (h.get("version"), h.get("state")))
        seen = set()
        for t, pod, verb, what, code in self.requests:
            subj = "Pod %s" % pod
            if pod not in seen:
                seen.add(pod)
                self.add(t, subj, "audit: first request (%s %s)" % (verb, what), True)
            if verb not in READS and not what.startswith("leases") and not what.startswith("tokenreviews"):
                self.add(t, subj, "audit: %s %s -> %s" % (verb, what, code), True)
        for key, text in self.logs.items():
            ns, pod, _ = key.split("/", 2)
            subj = "Pod %s/%s" % (ns, pod)
            for line in text.splitlines():
                ts, _, rest = line.partition(" ")
                t = parse_time(ts)
                if t is None:
                    continue
                m = re.search(r"startup: (.*)", rest)
                if m:
                    self.add(t, subj, "log startup: " + m.group(1), True)
                    continue
                m = re.search(r" - ((clusterversion/version|leases\S*): .*)", rest)
                if m and re.search(r"RetrievePayload|PayloadLoaded|pass for|is the leader|leader is|trying again|Completed|released|taking over|Lease", m.group(1)):
                    self.add(t, subj, "log " + m.group(1)[:170], True)

    # -- queries -------------------------------------------------------------------------------------------------

    def first(self, pattern, subject=None, after=None, before=None):
        for f in self.facts:
            if (after is None or f[0] >= after) and (before is None or f[0] <= before) and re.search(pattern, f[3]) \
                    and (subject is None or re.search(subject, f[2])):
                return f
        return None

    def history(self):
        return list(reversed((self.cv.get("status") or {}).get("history") or []))  # oldest first


# ---- the report ----------------------------------------------------------------------------------------------------

def controller_pods(rec, t0, t1):
    """The controller's pods that lived between t0 and t1, in the order they were created."""
    out = []
    for p in rec.pods.values():
        md = p["metadata"]
        if md["namespace"] != CV_NS or not (md.get("labels") or {}).get("app.kubernetes.io/name") == "upshift":
            continue
        created = parse_time(md["creationTimestamp"])
        if created <= t1 + 1 and (parse_time(md.get("deletionTimestamp")) or 1e18) >= t0 - 1:
            out.append(p)
    # pods gone before any snapshot are known only by their events
    known = {p["metadata"]["name"] for p in out}
    for e in rec.events.values():
        io = e.get("involvedObject", {})
        if io.get("kind") == "Pod" and io.get("namespace") == CV_NS and io.get("name", "").startswith("cluster-version-operator-") \
                and io["name"] not in known and e.get("reason") == "Scheduled":
            t = parse_time(e.get("eventTime")) or parse_time(e.get("firstTimestamp"))
            if t and t0 - 1 <= t <= t1 + 1:
                known.add(io["name"])
                out.append({"metadata": {"name": io["name"], "namespace": CV_NS, "creationTimestamp": None}, "spec": {}, "status": {}, "gone": True})
    return sorted(out, key=lambda p: pod_scheduled(rec, p["metadata"]["name"]) or 0)


def pod_scheduled(rec, name):
    f = rec.first(r"event Scheduled|condition PodScheduled=True", "Pod %s/%s$" % (CV_NS, re.escape(name)))
    return f[0] if f else None


def pod_steps(rec, name, ns=CV_NS):
    """The steps of one pod's start, as (label, time, precise)."""
    subj = "Pod %s/%s$" % (ns, re.escape(name))
    steps = []

    def step(label, pattern):
        f = rec.first(pattern, subj)
        if f:
            steps.append((label, f[0], f[1], f[3]))

    step("created", r"^created$")
    step("scheduled", r"event Scheduled|condition PodScheduled=True")
    step("image pulled", r"event Pulled")
    step("container started", r"event Started|container \S+ (running|terminated): started")
    step("JVM started", r"log startup: the JVM started")
    step("command running", r"log startup: command running")
    step("caches filled", r"log startup: metrics caches filled")
    step("Lease taken", r"log startup: Lease taken|is the leader")
    step("informers synced", r"log startup: informers synced")
    step("ready (process)", r"log startup: ready")
    step("first sync", r"log startup: first sync")
    step("Ready (kubelet)", r"condition Ready=True")
    step("killed", r"event Killing|deleting")
    return steps


def jvm_start(rec, name):
    """The JVM start, from the line `startup: the JVM started at <instant>`."""
    f = rec.first(r"log startup: the JVM started at", "Pod %s/%s$" % (CV_NS, re.escape(name)))
    if not f:
        return None
    return parse_time(f[3].rsplit(" ", 1)[-1])


def fmt(t, t0):
    return "%+7.1f s" % (t - t0)


def report_phase(rec, label, t0, t_done, version, out):
    if t_done is None:
        out.append("%s: %s not Completed in the record" % (label, version))
        return
    out.append("%s of %s: %.1f s from %s to history Completed (%s)" % (
        label, version, t_done - t0, dt.datetime.fromtimestamp(t0, dt.timezone.utc).strftime("%H:%M:%S"),
        dt.datetime.fromtimestamp(t_done, dt.timezone.utc).strftime("%H:%M:%S")))
    rows = []  # (start, end, what)
    pods = controller_pods(rec, t0, t_done)
    for p in pods:
        name = p["metadata"]["name"]
        steps = pod_steps(rec, name)
        img = ((p.get("spec") or {}).get("containers") or [{}])[0].get("image", "")
        out.append("  controller pod %s%s%s" % (name, " (" + img.rsplit("@", 1)[-1][:19] + ")" if img else "",
                                                 " (gone: known by its Events)" if p.get("gone") else ""))
        jvm = jvm_start(rec, name)
        if jvm:
            steps.append(("JVM started", jvm, True, "log startup: the JVM started"))
            steps.sort(key=lambda s: (s[1], 0 if s[0] == "JVM started" else 1))
        prev = None
        for lbl, t, precise, what in steps:
            if lbl == "JVM started" and "at" in what:
                continue
            if t < t0 - 2 or t > t_done + 60:
                continue
            delta = "" if prev is None else "  (+%.1f s)" % (t - prev)
            out.append("    %s  %-18s%s%s" % (fmt(t, t0), lbl, "" if precise else " ~", delta))
            prev = t
    out.append("  steps:")
    facts = [f for f in rec.facts if t0 - 1 <= f[0] <= t_done + 0.5]
    interesting = re.compile(r"event (Scheduled|Pulled|Started|Killing|Unhealthy|SuccessfulCreate|SuccessfulDelete|ScalingReplicaSet|Completed|RetrievePayload|PayloadLoaded)|"
                             r"history|acquired|log startup: (Lease|first sync|ready)|pass for|condition Ready=True|Job .*(started|complete)|desiredUpdate|audit: ")
    prev = t0
    for t, precise, subj, what in facts:
        if not interesting.search(what) and not interesting.search(subj):
            continue
        out.append("    %s %s %-58s %s" % (fmt(t, t0), " " if precise else "~", subj[:58], what[:120]))
        prev = t
    # what Upshift wrote once the history said Completed (the e2e's level window follows): nothing, when Completed
    # means level
    after = [r for r in rec.requests if t_done <= r[0] <= t_done + 90 and r[2] not in READS
             and not r[3].startswith(("leases", "tokenreviews", "subjectaccessreviews"))]
    if rec.requests:
        out.append("  Upshift's writes in the 90 s from the second of completionTime (besides Leases; the API keeps that time in"
                   " whole seconds, so those of its first second may precede the write that said Completed): %d" % len(after))
        for t, pod, verb, what, code in after[:20]:
            out.append("    %s  %s %s %s -> %s" % (fmt(t, t_done), pod, verb, what, code))
    out.append("")


def report(folder, phase="all", show_events=False, audit=()):
    rec = Record(folder, audit)
    out = []
    hist = rec.history()
    if show_events:
        t0 = rec.facts[0][0]
        for t, precise, subj, what in rec.facts:
            out.append("%s %s %-60s %s" % (fmt(t, t0), " " if precise else "~", subj[:60], what[:150]))
        out.append("")
    if not hist:
        out.append("timeline: ClusterVersion has no history")
        return "\n".join(out)
    installed = hist[0]
    t_install0 = parse_time(rec.namespace.get("metadata", {}).get("creationTimestamp")) if rec.namespace else None
    if phase in ("install", "all") and t_install0:
        report_phase(rec, "install", t_install0, parse_time(installed.get("completionTime")) if installed.get("state") == "Completed" else None,
                     installed.get("version"), out)
    if phase in ("update", "all"):
        for h in hist[1:]:
            t_asked = rec.first(r"spec.desiredUpdate last written")
            t1 = t_asked[0] if t_asked and t_asked[0] <= parse_time(h.get("startedTime")) + 1 else parse_time(h.get("startedTime"))
            report_phase(rec, "update", t1, parse_time(h.get("completionTime")) if h.get("state") == "Completed" else None, h.get("version"), out)
    return "\n".join(out)


def main(argv):
    if len(argv) >= 3 and argv[0] == "snapshot":
        print(snapshot(argv[1], argv[2]))
    elif len(argv) >= 2 and argv[0] == "report":
        phase = "all"
        if "--phase" in argv:
            phase = argv[argv.index("--phase") + 1]
        audit = [argv[argv.index("--audit") + 1]] if "--audit" in argv else []
        print(report(argv[1], phase, "--events" in argv, audit))
    elif len(argv) == 1 and os.path.isfile(argv[0]):
        d = tempfile.mkdtemp(prefix="upshift-timeline-")
        snapshot(argv[0], d)
        print(report(d))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
