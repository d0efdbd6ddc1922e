"""A small client of the cluster's API for the check's Python helpers: the admin kubeconfig's server and client
certificate, GETs of JSON."""
import base64, json, os, ssl, tempfile, urllib.request

import yaml


class Api:
    def __init__(self, kubeconfig):
        with open(kubeconfig) as f:
            kc = yaml.safe_load(f)
        cluster, user = kc["clusters"][0]["cluster"], kc["users"][0]["user"]
        self.server = cluster["server"]
        tmp = tempfile.mkdtemp(prefix="upshift-e2e-api-")
        files = {}
        for name, src, key in (("ca", cluster, "certificate-authority-data"),
                               ("crt", user, "client-certificate-data"), ("key", user, "client-key-data")):
            files[name] = os.path.join(tmp, name)
            with open(files[name], "wb") as f:
                f.write(base64.b64decode(src[key]))
        self.ctx = ssl.create_default_context(cafile=files["ca"])
        self.ctx.load_cert_chain(files["crt"], files["key"])
        for f in files.values():  # loaded: the key need not stay on disk
            os.unlink(f)
        os.rmdir(tmp)

    def get(self, path, missing=None):
        try:
            with urllib.request.urlopen(urllib.request.Request(self.server + path), context=self.ctx, timeout=10) as r:
                return json.load(r)
        except urllib.error.HTTPError as e:
            if e.code == 404:
                return missing
            raise


MC = "machineconfiguration.openshift.io/"


def annotation(obj, key):
    return (obj["metadata"].get("annotations") or {}).get(key, "")
