package io.upshift.clusterversion.controller;

import io.upshift.releases.inclusion.LoadRules;
import io.upshift.releases.metadata.Reason;
import io.upshift.releases.metadata.ReleaseException;
import io.upshift.releases.payload.Payload;
import io.upshift.releases.payload.PayloadLoader;
import io.upshift.releases.signatures.ConfiguredStore;
import io.upshift.releases.verify.SignatureVerifier;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Releases for the controller without a registry: payload directories written here, named by a
 * pullspec by digest, signed or not. Counts the payloads loaded, so that tests see how often a
 * target was retrieved.
 */
final class FakePayloads implements PayloadSource {
    static final String INCLUDED =
            "    include.release.openshift.io/self-managed-high-availability: \"true\"\n";

    /** When every release here was created, as its image-references says. */
    static final String CREATED = "2026-11-01T00:00:00Z";

    private final Path dir;
    private final Map<String, Path> releases = new ConcurrentHashMap<>();
    private final Set<String> signed = ConcurrentHashMap.newKeySet();
    final AtomicInteger loads = new AtomicInteger();
    private final List<Long> loadTimes = new CopyOnWriteArrayList<>();

    FakePayloads(Path dir) {
        this.dir = dir;
    }

    /**
     * A release of {@code version} holding a namespace, a ConfigMap naming the version (what the
     * test operator rolls out) and the ClusterOperator {@code test-operator} expected at that
     * version, then {@code extra} manifests; {@code payloadVersion} is what its release metadata
     * says. Returns its pullspec.
     */
    String release(String version, String payloadVersion, boolean sign, String... extra) {
        Map<String, String> files = new LinkedHashMap<>();
        for (int i = 0; i < extra.length; i++)
            files.put("0000_20_extra_" + String.format("%02d", i) + ".yaml", extra[i]);
        return release(version, payloadVersion, sign, files);
    }

    /**
     * As {@link #release(String, String, boolean, String...)}, the extra manifests under the file
     * names given (run-levels and components).
     */
    String release(String version, String payloadVersion, boolean sign, Map<String, String> extra) {
        String image = image(version);
        Path root = dir.resolve(version);
        try {
            Files.createDirectories(root.resolve("manifests"));
            Files.createDirectories(root.resolve("release-manifests"));
            Files.writeString(
                    root.resolve("release-manifests/release-metadata"),
                    "{\"kind\":\"cincinnati-metadata-v0\",\"version\":\""
                            + payloadVersion
                            + "\",\"previous\":[],\"metadata\":{}}");
            Files.writeString(
                    root.resolve("release-manifests/image-references"),
                    "kind: ImageStream\napiVersion: image.openshift.io/v1\nmetadata:\n  name: "
                            + payloadVersion
                            + "\n  creationTimestamp: \""
                            + CREATED
                            + "\"\nspec:\n  tags: []\n");
            write(
                    root,
                    "0000_10_test_00_namespace.yaml",
                    "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: test-ns\n  annotations:\n"
                            + INCLUDED);
            write(
                    root,
                    "0000_10_test_01_settings.yaml",
                    "apiVersion: v1\n"
                            + "kind: ConfigMap\n"
                            + "metadata:\n"
                            + "  name: settings\n"
                            + "  namespace: test-ns\n"
                            + "  annotations:\n"
                            + INCLUDED
                            + "data:\n  version: \""
                            + payloadVersion
                            + "\"\n");
            write(
                    root,
                    "0000_10_test_09_clusteroperator.yaml",
                    "apiVersion: config.openshift.io/v1\nkind: ClusterOperator\nmetadata:\n"
                            + "  name: test-operator\n  annotations:\n"
                            + INCLUDED
                            + "spec: {}\nstatus:\n  versions:\n  - name: operator\n    version: \""
                            + payloadVersion
                            + "\"\n");
            for (Map.Entry<String, String> file : extra.entrySet())
                write(root, file.getKey(), file.getValue());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        releases.put(image, root);
        if (sign) signed.add(image);
        return image;
    }

    /** The pullspec of the release of {@code version}. */
    static String image(String version) {
        return "example.com/release@sha256:"
                + String.format("%064x", version.hashCode() & 0xffffffffL);
    }

    private static void write(Path root, String name, String content) throws IOException {
        Files.writeString(root.resolve("release-manifests").resolve(name), content);
    }

    /** When each payload was loaded ({@link System#nanoTime()}), in order. */
    List<Long> loadTimes() {
        return List.copyOf(loadTimes);
    }

    @Override
    public String pin(String pullspec) throws ReleaseException {
        if (!releases.containsKey(pullspec))
            throw new ReleaseException(Reason.IMAGE_NOT_FOUND, pullspec + ": no such image");
        return pullspec;
    }

    @Override
    public Payload load(String pullspec, LoadRules rules) throws ReleaseException {
        loads.incrementAndGet();
        loadTimes.add(System.nanoTime());
        return PayloadLoader.load(releases.get(pin(pullspec)), pullspec, rules, w -> {});
    }

    @Override
    public SignatureVerifier.Verified verify(
            String pullspec, Payload trusted, List<ConfiguredStore> specStores)
            throws ReleaseException {
        if (!signed.contains(pullspec))
            throw new ReleaseException(Reason.SIGNATURE_MISSING, "no signature for " + pullspec);
        return new SignatureVerifier.Verified(
                pullspec.substring(pullspec.indexOf('@') + 1), Map.of());
    }
}
