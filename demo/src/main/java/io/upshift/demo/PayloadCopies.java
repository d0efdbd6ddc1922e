package io.upshift.demo;

import io.upshift.base.version.SemVer;
import io.upshift.releases.inclusion.LoadRules;
import io.upshift.releases.manifest.Manifest;
import io.upshift.releases.metadata.Reason;
import io.upshift.releases.metadata.ReleaseException;
import io.upshift.releases.metadata.ReleaseMetadata;
import io.upshift.releases.payload.Payload;
import io.upshift.releases.payload.PayloadLoader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The demo's releases made from a real payload directory (such as an OpenShift release's): the
 * first is the payload as it is, the second the same payload one patch version later, its version
 * written wherever the first's was, as {@code oc adm release new} writes a release's version into
 * its operators' manifests. Both carry the demo's verification ConfigMap beside the operator's own
 * manifests, so that the second verifies with the first's trust.
 */
final class PayloadCopies implements ReleasePayloads {

    private final Path source;
    private final String from;

    /**
     * @throws ReleaseException when {@code source} is no payload or its release-metadata is
     *     unreadable
     */
    PayloadCopies(Path source) throws ReleaseException {
        this.source = source;
        Path metadata = source.resolve(PayloadLoader.RELEASE_DIR).resolve(ReleaseMetadata.FILE);
        try {
            this.from =
                    ReleaseMetadata.parse(Files.readAllBytes(metadata), metadata.toString())
                            .version();
        } catch (IOException e) {
            throw new ReleaseException(
                    Reason.PAYLOAD_NOT_FOUND,
                    source + " is not a release payload: " + e.getMessage(),
                    e);
        }
    }

    /** The payload's own version. */
    @Override
    public String from() {
        return from;
    }

    /** The version of the demo's second release: the next patch. */
    @Override
    public String to() {
        SemVer v = SemVer.parse(from);
        return v.major() + "." + v.minor() + "." + (v.patch() + 1);
    }

    /**
     * Copies the payload into {@code dir} as release {@code version}, with the demo's verification
     * ConfigMap.
     */
    @Override
    public void write(Path dir, String version, String publicKey, Path store) throws IOException {
        for (String sub : List.of(PayloadLoader.OPERATOR_DIR, PayloadLoader.RELEASE_DIR)) {
            Path target = Files.createDirectories(dir.resolve(sub));
            try (Stream<Path> files = Files.list(source.resolve(sub))) {
                for (Path f : files.filter(Files::isRegularFile).toList()) {
                    String text = Files.readString(f, StandardCharsets.UTF_8);
                    Files.writeString(
                            target.resolve(f.getFileName()),
                            version.equals(from) ? text : text.replace(from, version));
                }
            }
        }
        Files.writeString(
                dir.resolve(PayloadLoader.OPERATOR_DIR)
                        .resolve(
                                "0000_00_cluster-version-operator_99_upshift-demo-verification.yaml"),
                DemoPayloads.verification(publicKey, store));
    }

    /**
     * The versions each ClusterOperator of the payload at {@code dir} declares, by operator name.
     */
    @Override
    public Map<String, Map<String, String>> declaredOperators(Path dir) {
        try {
            return declared(PayloadLoader.load(dir, "(demo)", LoadRules.defaults(), w -> {}));
        } catch (ReleaseException e) {
            throw new UncheckedIOException(new IOException(e.toString(), e));
        }
    }

    /** The versions each ClusterOperator of {@code payload} declares, by operator name. */
    static Map<String, Map<String, String>> declared(Payload payload) {
        Map<String, Map<String, String>> out = new LinkedHashMap<>();
        for (Manifest m : payload.manifests()) {
            if (!"ClusterOperator".equals(m.kind()) || !"config.openshift.io".equals(m.group()))
                continue;
            Map<String, String> versions = new LinkedHashMap<>();
            m.object()
                    .path("status")
                    .path("versions")
                    .forEach(
                            v -> versions.put(v.path("name").asText(), v.path("version").asText()));
            out.put(m.name(), versions);
        }
        return out;
    }
}
