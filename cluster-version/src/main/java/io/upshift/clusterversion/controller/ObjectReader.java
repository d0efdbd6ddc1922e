package io.upshift.clusterversion.controller;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.upshift.releases.manifest.Manifest;

/** Where the objects a payload applies are read from: the informer caches ({@link LiveCache}). */
interface ObjectReader {
    /** The live object the manifest names, or null when there is none. */
    GenericKubernetesResource get(Manifest m);
}
