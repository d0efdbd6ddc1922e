package io.upshift.clusterversion.controller;

import io.upshift.releases.inclusion.LoadRules;
import io.upshift.releases.metadata.ReleaseException;
import io.upshift.releases.payload.Payload;
import io.upshift.releases.signatures.ConfiguredStore;
import io.upshift.releases.verify.SignatureVerifier;
import java.util.List;

/**
 * Where the controller gets release payloads from, and how it verifies them (a seam: tests give
 * payloads directly).
 */
interface PayloadSource {

    /** The pullspec pinned by digest; a tag is resolved first. */
    String pin(String pullspec) throws ReleaseException;

    /**
     * The payload of a release pinned by digest, its manifests filtered by the cluster's load-time
     * {@code rules}.
     */
    Payload load(String pullspec, LoadRules rules) throws ReleaseException;

    /**
     * As {@link #load(String, LoadRules)}, knowing the version the release is expected to be (may
     * be empty).
     */
    default Payload load(String pullspec, String version, LoadRules rules) throws ReleaseException {
        return load(pullspec, rules);
    }

    /**
     * Verifies {@code pullspec} with the verification ConfigMap of {@code trusted}, the release the
     * cluster runs, reading the stores ClusterVersion {@code spec.signatureStores} configures when
     * there are any.
     */
    SignatureVerifier.Verified verify(
            String pullspec, Payload trusted, List<ConfiguredStore> specStores)
            throws ReleaseException;
}
