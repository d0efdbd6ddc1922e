package io.upshift.rehearsal.release;

import io.fabric8.openshift.api.model.config.v1.ClusterVersion;
import io.fabric8.openshift.api.model.config.v1.UpdateHistory;
import io.upshift.rehearsal.model.Blocker;
import io.upshift.rehearsal.model.ClusterFacts;
import io.upshift.rehearsal.model.Target;
import io.upshift.rehearsal.model.TargetChoice;
import io.upshift.releases.image.FileTrees;
import io.upshift.releases.image.ImageRef;
import io.upshift.releases.image.ImageStore;
import io.upshift.releases.image.Releases;
import io.upshift.releases.inclusion.FeatureGates;
import io.upshift.releases.inclusion.InclusionRules;
import io.upshift.releases.inclusion.LoadRules;
import io.upshift.releases.manifest.Manifest;
import io.upshift.releases.metadata.ReleaseException;
import io.upshift.releases.payload.Payload;
import io.upshift.releases.payload.PayloadLoader;
import io.upshift.releases.signatures.ConfigMapSignatureStore;
import io.upshift.releases.signatures.ConfiguredStore;
import io.upshift.releases.signatures.SignatureStores;
import io.upshift.releases.verify.SignatureStore;
import io.upshift.releases.verify.VerifierConfig;
import io.upshift.status.estimate.RunLevelTimes;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Reads the target release as the cluster-version controller would take it, without writing
 * anything anywhere but a temporary directory: its signature checked with the trust of the release
 * the cluster runs (that release's verification ConfigMap; the signatures the cluster keeps, then
 * ClusterVersion's signature stores or the ConfigMap's own), then its payload pulled and loaded
 * with the cluster's feature set, and its version checked against the one asked for. What cannot be
 * read is named, and the rehearsal goes on without it.
 */
public final class ReleaseReader {
    private final Releases releases;
    private final SignatureStores stores;
    private final Path work;
    private final Consumer<String> progress;

    /**
     * @param work where payloads are unpacked; the caller deletes it
     * @param progress told each step, one line each
     */
    public ReleaseReader(
            Releases releases, SignatureStores stores, Path work, Consumer<String> progress) {
        this.releases = releases;
        this.stores = stores;
        this.work = work;
        this.progress = progress;
    }

    /**
     * What was read: the target, its payload directory (when pulled), what the controller would
     * refuse besides the signature (a version that differs), and what could not be read.
     */
    public record Read(
            Target target, Optional<Path> payload, List<Blocker> refusals, List<String> lacking) {}

    /**
     * @throws IllegalArgumentException when the image is not a pullspec or OCI layout reference
     */
    public Read read(ClusterFacts facts, TargetChoice choice) {
        ImageRef ref;
        try {
            ref = ImageRef.parse(choice.image());
        } catch (ReleaseException e) {
            throw new IllegalArgumentException(
                    "--to-image " + choice.image() + ": " + e.getMessage());
        }
        List<String> lacking = new ArrayList<>();
        List<Blocker> refusals = new ArrayList<>();
        LoadRules rules = rules(facts);
        Target.Verification verification = verify(facts, ref, rules);

        Optional<Path> dir = Optional.empty();
        List<RunLevelTimes.Level> levels = List.of();
        String version = choice.version();
        String levelsFrom;
        progress.accept("pulling the payload of " + choice.image());
        try {
            Path to = work.resolve("target");
            FileTrees.deleteQuietly(to);
            releases.pull(ref, to, ImageStore.Progress.NONE);
            Payload payload = PayloadLoader.load(to, choice.image(), rules, w -> {});
            levels = RunLevelTimes.levelsOf(payload.manifests());
            levelsFrom = "its payload";
            dir = Optional.of(to);
            if (!version.isEmpty() && !version.equals(payload.version())) {
                refusals.add(
                        Blocker.refuses(
                                "cluster-version controller",
                                "VerifyPayloadVersion",
                                "release image version "
                                        + payload.version()
                                        + " does not match the expected upstream version "
                                        + version));
            }
            if (version.isEmpty()) version = payload.version();
        } catch (ReleaseException e) {
            lacking.add("the payload of " + choice.image() + " (" + e + ")");
            RunLevelTimes last = RunLevelTimes.of(facts.clusterVersion());
            if (last != null && !last.levels().isEmpty()) {
                levels = last.levels();
                levelsFrom = "the last update's run-levels (the payload could not be read)";
            } else {
                levelsFrom = "none: neither the payload nor a timed update could be read";
            }
        }
        return new Read(
                new Target(
                        version, choice.image(), choice.found(), levels, levelsFrom, verification),
                dir,
                refusals,
                lacking);
    }

    /** The cluster's load-time rules, as the controller builds them (the default profile). */
    static LoadRules rules(ClusterFacts facts) {
        return new LoadRules(
                InclusionRules.DEFAULT_PROFILE,
                null,
                FeatureGates.featureSet(facts.featureGate()),
                new LoadRules.Gates.ByVersion(FeatureGates.byVersion(facts.featureGate())));
    }

    private Target.Verification verify(ClusterFacts facts, ImageRef ref, LoadRules rules) {
        String trusted = trustedImage(facts.clusterVersion());
        if (trusted.isEmpty())
            return Target.Verification.notChecked(
                    "the cluster has completed no release whose trust to verify with");
        progress.accept("reading the trust of the running release " + trusted);
        Payload running;
        Path dir = work.resolve("running");
        try {
            FileTrees.deleteQuietly(dir);
            releases.pull(ImageRef.parse(trusted), dir, ImageStore.Progress.NONE);
            running = PayloadLoader.load(dir, trusted, rules, w -> {});
        } catch (ReleaseException e) {
            return Target.Verification.notChecked(
                    "the running release " + trusted + " could not be read: " + e);
        } finally {
            FileTrees.deleteQuietly(dir);
        }
        try {
            List<Manifest> all = new ArrayList<>(running.manifests());
            running.excluded().forEach(e -> all.add(e.manifest()));
            VerifierConfig config = VerifierConfig.fromPayload(all);
            String pinned = releases.resolve(ref).pullspec();
            SignatureStores reading = stores.forOneVerification();
            var verified =
                    config.verifier(
                                    List.of(kept(facts)),
                                    reading.openConfigured(
                                            specStores(facts.clusterVersion()),
                                            name -> Optional.empty()),
                                    reading::open)
                            .verify(pinned);
            return Target.Verification.verified(
                    "signed by "
                            + String.join(", ", verified.signatureByKeyring().keySet())
                            + " as "
                            + config.source()
                            + " of the running release requires");
        } catch (ReleaseException e) {
            return Target.Verification.failed(e.toString());
        }
    }

    /** The signatures the cluster keeps, as read with the cluster (no request of its own). */
    private static SignatureStore kept(ClusterFacts facts) {
        return new SignatureStore() {
            @Override
            public String name() {
                return "ConfigMaps in "
                        + ConfigMapSignatureStore.NAMESPACE
                        + " labelled "
                        + ConfigMapSignatureStore.LABEL;
            }

            @Override
            public List<byte[]> signatures(String digest) throws IOException {
                return ConfigMapSignatureStore.signatures(
                        ConfigMapSignatureStore.NAMESPACE, facts.signatures(), digest);
            }
        };
    }

    /** The release whose trust verifies the next: the last one completed, else the one desired. */
    static String trustedImage(ClusterVersion cv) {
        List<UpdateHistory> history =
                cv.getStatus() == null || cv.getStatus().getHistory() == null
                        ? List.of()
                        : cv.getStatus().getHistory();
        for (UpdateHistory h : history)
            if ("Completed".equals(h.getState()) && h.getImage() != null) return h.getImage();
        return "";
    }

    /**
     * The stores {@code spec.signatureStores} configures. The rehearsal reads no ConfigMap of
     * {@code openshift-config}: a store's {@code ca} is not known here, and the store is trusted as
     * it would be without one.
     */
    private static List<ConfiguredStore> specStores(ClusterVersion cv) {
        List<ConfiguredStore> out = new ArrayList<>();
        if (cv.getSpec() != null && cv.getSpec().getSignatureStores() != null)
            cv.getSpec()
                    .getSignatureStores()
                    .forEach(
                            s ->
                                    out.add(
                                            new ConfiguredStore(
                                                    s.getUrl(),
                                                    s.getCa() == null ? "" : s.getCa().getName())));
        return out;
    }

    /** A fresh working directory under {@code parent}. */
    public static Path workDir(Path parent) throws IOException {
        return Files.createTempDirectory(parent, "upshift-rehearse-");
    }
}
