#!/usr/bin/env python3
"""Writes a one-layer OCI image layout holding the given files, for the cluster's own small images (busybox, pause).

usage: oci-image.py OUTDIR TAG --file HOSTPATH:IMAGEPATH[:MODE] ... [--link IMAGEPATH:TARGET ...] -- CMD...

The layer is reproducible (owner root, time 0, entries sorted), so the same files give the same digest.
"""
import gzip, hashlib, io, json, os, sys, tarfile

args = sys.argv[1:]
out, tag = args[0], args[1]
files, links, cmd = [], [], []
i = 2
while i < len(args):
    if args[i] == "--file":
        files.append(args[i + 1]); i += 2
    elif args[i] == "--link":
        links.append(args[i + 1]); i += 2
    elif args[i] == "--":
        cmd = args[i + 1:]; break
    else:
        sys.exit("unknown argument " + args[i])

entries = {}  # image path -> TarInfo (+ data)


def add_dirs(path):
    parts = path.strip("/").split("/")[:-1]
    for n in range(1, len(parts) + 1):
        d = "/".join(parts[:n])
        if d not in entries:
            ti = tarfile.TarInfo(d)
            ti.type, ti.mode = tarfile.DIRTYPE, 0o755
            entries[d] = (ti, None)


for spec in files:
    host, image, *mode = spec.split(":")
    with open(host, "rb") as f:
        data = f.read()
    add_dirs(image)
    ti = tarfile.TarInfo(image.strip("/"))
    ti.size, ti.mode = len(data), int(mode[0], 8) if mode else 0o755
    entries[ti.name] = (ti, data)
for spec in links:
    image, target = spec.split(":", 1)
    add_dirs(image)
    ti = tarfile.TarInfo(image.strip("/"))
    ti.type, ti.linkname, ti.mode = tarfile.SYMTYPE, target, 0o777
    entries[ti.name] = (ti, None)

raw = io.BytesIO()
with tarfile.open(fileobj=raw, mode="w", format=tarfile.PAX_FORMAT) as t:
    for name in sorted(entries):
        ti, data = entries[name]
        ti.uid = ti.gid = 0
        ti.uname = ti.gname = "root"
        ti.mtime = 0
        t.addfile(ti, io.BytesIO(data) if data is not None else None)
layer = raw.getvalue()
os.makedirs(os.path.join(out, "blobs", "sha256"), exist_ok=True)


def blob(data):
    digest = hashlib.sha256(data).hexdigest()
    with open(os.path.join(out, "blobs", "sha256", digest), "wb") as f:
        f.write(data)
    return {"digest": "sha256:" + digest, "size": len(data)}


gz = gzip.compress(layer, mtime=0)
config = {"architecture": "amd64", "os": "linux",
          "config": {"Cmd": cmd, "Env": ["PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"]},
          "rootfs": {"type": "layers", "diff_ids": ["sha256:" + hashlib.sha256(layer).hexdigest()]},
          "created": "1970-01-01T00:00:00Z"}
manifest = {"schemaVersion": 2, "mediaType": "application/vnd.oci.image.manifest.v1+json",
            "config": {"mediaType": "application/vnd.oci.image.config.v1+json",
                       **blob(json.dumps(config, sort_keys=True).encode())},
            "layers": [{"mediaType": "application/vnd.oci.image.layer.v1.tar+gzip", **blob(gz)}]}
m = blob(json.dumps(manifest, sort_keys=True).encode())
with open(os.path.join(out, "oci-layout"), "w") as f:
    json.dump({"imageLayoutVersion": "1.0.0"}, f)
with open(os.path.join(out, "index.json"), "w") as f:
    json.dump({"schemaVersion": 2, "manifests": [
        {"mediaType": "application/vnd.oci.image.manifest.v1+json", **m,
         "annotations": {"org.opencontainers.image.ref.name": tag}}]}, f)
print(m["digest"])
