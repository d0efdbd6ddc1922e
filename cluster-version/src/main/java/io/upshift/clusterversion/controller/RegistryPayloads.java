package io.upshift.clusterversion.controller;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.upshift.releases.image.Egress;
import io.upshift.releases.image.ImageRef;
import io.upshift.releases.image.ImageStore;
import io.upshift.releases.image.ProxyRules;
import io.upshift.releases.image.RegistryAccess;
import io.upshift.releases.image.Releases;
import io.upshift.releases.inclusion.LoadRules;
import io.upshift.releases.manifest.Manifest;
import io.upshift.releases.metadata.Reason;
import io.upshift.releases.metadata.ReleaseException;
import io.upshift.releases.payload.Payload;
import io.upshift.releases.payload.PayloadLoader;
import io.upshift.releases.signatures.ConfigMapSignatureStore;
import io.upshift.releases.signatures.ConfiguredStore;
import io.upshift.releases.signatures.SignatureStores;
import io.upshift.releases.verify.SignatureStore;
import io.upshift.releases.verify.SignatureVerifier;
import io.upshift.releases.verify.VerifierConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Release payloads from registries and OCI layouts, reached as the cluster says (pull secret,
 * mirror sets, proxy), pulled once per digest into a cache directory (a restart reuses it), loaded
 * with the cluster's inclusion rules, and verified with the trust the running release declares;
 * signatures that verified are kept in the cluster.
 */
final class RegistryPayloads implements PayloadSource {

    private final Releases releases;

    /** Retrieval through Jobs; null: pulled in-process. */
    private final PayloadJobs jobs;

    private final Path cache;
    private final SignatureStores stores;
    private final KubernetesClient client;
    private final ClusterRegistryAccess cluster;
    private final ConfigMapSignatureStore kept;

    /** How the cluster reaches the outside: its proxy and trusted CA bundle, as now cached. */
    private final Supplier<Egress> egress;

    private static final Logger LOG = LoggerFactory.getLogger(RegistryPayloads.class);

    RegistryPayloads(
            Releases releases,
            Path cache,
            KubernetesClient client,
            SignatureStores stores,
            PayloadJobs jobs,
            Supplier<Egress> egress) {
        this.jobs = jobs;
        this.egress = egress;
        this.releases = releases;
        this.cache = cache;
        this.stores = stores;
        this.client = client;
        this.cluster = new ClusterRegistryAccess(client);
        this.kept = new ConfigMapSignatureStore(client, ConfigMapSignatureStore.NAMESPACE);
    }

    @Override
    public String pin(String pullspec) throws ReleaseException {
        ImageRef ref = ImageRef.parse(pullspec);
        if (ref.digest() != null) return pullspec;
        return releases.with(access()).resolve(ref).pullspec();
    }

    @Override
    public Payload load(String pullspec, LoadRules rules) throws ReleaseException {
        return load(pullspec, "", rules);
    }

    @Override
    public Payload load(String pullspec, String version, LoadRules rules) throws ReleaseException {
        ImageRef ref = ImageRef.parse(pullspec);
        if (ref.digest() == null)
            throw new ReleaseException(Reason.NOT_BY_DIGEST, pullspec + " is not pinned by digest");
        if (jobs != null) {
            Path dir = jobs.retrieve(pullspec, version);
            return PayloadLoader.load(
                    dir, pullspec, rules, w -> LOG.warn("release {}: {}", pullspec, w));
        }
        Path dir = cache.resolve(ref.digest().replace(':', '-'));
        if (!Files.isDirectory(dir)) {
            Releases.Pulled pulled =
                    releases.with(access()).pull(ref, dir, ImageStore.Progress.NONE);
            if (!pulled.image().digest().equals(ref.digest())) {
                throw new ReleaseException(
                        Reason.BLOB_DIGEST_MISMATCH,
                        pullspec + " resolved to " + pulled.image().digest());
            }
            LOG.info(
                    "release {}: payload pulled from {}: {}",
                    pullspec,
                    pulled.image().location(),
                    pulled.summary());
        }
        return PayloadLoader.load(
                dir, pullspec, rules, w -> LOG.warn("release {}: {}", pullspec, w));
    }

    /**
     * Cluster ConfigMaps first, then {@code specStores} when set, else the verification ConfigMap's
     * own stores; every store on the network read within one verification's limits.
     */
    @Override
    public SignatureVerifier.Verified verify(
            String pullspec, Payload trusted, List<ConfiguredStore> specStores)
            throws ReleaseException {
        List<Manifest> all = new ArrayList<>(trusted.manifests());
        trusted.excluded().forEach(e -> all.add(e.manifest()));
        VerifierConfig config = VerifierConfig.fromPayload(all);
        SignatureStores reachable;
        try {
            reachable = stores.through(egress.get()).forOneVerification();
        } catch (IOException e) {
            throw new ReleaseException(Reason.CLUSTER_CONFIG_UNREADABLE, e.getMessage(), e);
        }
        SignatureVerifier.Verified verified =
                config.verifier(
                                List.<SignatureStore>of(kept),
                                reachable.openConfigured(specStores, this::caBundle),
                                reachable::open)
                        .verify(pullspec);
        try {
            if (kept.keep(verified.digest(), verified.signatures()))
                LOG.info(
                        "release {}: its signatures are kept in ConfigMap {}/{}",
                        pullspec,
                        ConfigMapSignatureStore.NAMESPACE,
                        ConfigMapSignatureStore.MANAGED);
        } catch (IOException e) {
            LOG.warn(
                    "release {}: verified, but its signatures could not be kept: {}",
                    pullspec,
                    e.getMessage());
        }
        return verified;
    }

    /**
     * The {@code ca.crt} of ConfigMap {@code openshift-config/<name>}, read when a verification
     * needs it (rarely: no informer is kept for it).
     */
    private Optional<String> caBundle(String name) throws IOException {
        String where = "ConfigMap " + ConfiguredStore.CA_NAMESPACE + "/" + name + " (its ca)";
        ConfigMap cm;
        try {
            cm = client.configMaps().inNamespace(ConfiguredStore.CA_NAMESPACE).withName(name).get();
        } catch (KubernetesClientException e) {
            throw new IOException(
                    "cannot read " + where + ": HTTP " + e.getCode() + " " + e.getMessage(), e);
        }
        if (cm == null) throw new IOException(where + " does not exist");
        String pem = cm.getData() == null ? null : cm.getData().get(ConfiguredStore.CA_KEY);
        if (pem == null) throw new IOException(where + " has no key " + ConfiguredStore.CA_KEY);
        return Optional.of(pem);
    }

    private RegistryAccess access() throws ReleaseException {
        ProxyRules proxy;
        try {
            proxy = egress.get().knownProxy();
        } catch (IOException e) {
            throw new ReleaseException(Reason.CLUSTER_CONFIG_UNREADABLE, e.getMessage(), e);
        }
        return cluster.read(releases.access(), proxy);
    }
}
