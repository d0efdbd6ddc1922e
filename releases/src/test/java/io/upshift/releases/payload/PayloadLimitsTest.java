package io.upshift.releases.payload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.upshift.releases.inclusion.InclusionRules;
import io.upshift.releases.metadata.Reason;
import io.upshift.releases.metadata.ReleaseException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a payload may not hold: a file over {@link PayloadLoader#FILE_LIMIT} (refused by its size
 * before it is read), a document over {@link io.upshift.releases.manifest.ManifestReader
 * #DOCUMENT_LIMIT}, and links (a manifest, a payload directory or the release metadata), which a
 * container runtime's copy of an image keeps as links.
 */
class PayloadLimitsTest {

    @TempDir Path dir;

    private static Payload load(Path p) throws ReleaseException {
        return PayloadLoader.load(p, "quay.example/r@sha256:1", InclusionRules.defaults(), w -> {});
    }

    @Test
    void aFiftyMegabyteScalarIsRefusedByTheFilesSizeNamingTheFileAndTheLimit() throws Exception {
        Path p = PayloadDir.at(dir).configMap("0000_10_a_ok.yaml", "ok").write();
        Path big = p.resolve("release-manifests/0000_99_big.yaml");
        try (OutputStream out = Files.newOutputStream(big)) {
            out.write(
                    "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: big\ndata:\n  k: "
                            .getBytes(StandardCharsets.UTF_8));
            byte[] chunk = "x".repeat(1 << 20).getBytes(StandardCharsets.UTF_8);
            for (int i = 0; i < 50; i++) out.write(chunk);
        }
        long size = Files.size(big);
        assertThatThrownBy(() -> load(p))
                .isInstanceOfSatisfying(
                        ReleaseException.class,
                        e -> {
                            assertThat(e.reason()).isEqualTo(Reason.MANIFEST_INVALID);
                            assertThat(e.getMessage())
                                    .isEqualTo(
                                            "release-manifests/0000_99_big.yaml is "
                                                    + size
                                                    + " bytes, over the limit of 16777216 bytes"
                                                    + " (16 MiB) for a payload manifest file");
                        });
    }

    @Test
    void aDocumentLargerThanTheApiServerTakesIsRefusedNamingItsLine() {
        String large = "x".repeat(4 << 20);
        Path p =
                PayloadDir.at(dir)
                        .file(
                                "release-manifests/0000_10_a_two.yaml",
                                "kind: A\nmetadata:\n  name: small\n---\nkind: A\nmetadata:\n"
                                        + "  name: large\ndata:\n  k: "
                                        + large
                                        + "\n")
                        .write();
        assertThatThrownBy(() -> load(p))
                .isInstanceOfSatisfying(
                        ReleaseException.class,
                        e ->
                                assertThat(e.getMessage())
                                        .startsWith(
                                                "release-manifests/0000_10_a_two.yaml:5: the"
                                                        + " document is ")
                                        .endsWith(
                                                " characters, over the limit of 3145728 (3 MiB,"
                                                        + " the largest request a Kubernetes API"
                                                        + " server accepts)"));
    }

    @Test
    void aManifestThatIsALinkIsRefusedNamingIt() throws Exception {
        Path p = PayloadDir.at(dir).configMap("0000_10_a_ok.yaml", "ok").write();
        Files.writeString(
                dir.resolveSibling("secret.yaml"), "kind: Secret\nmetadata:\n  name: s\n");
        Files.createSymbolicLink(
                p.resolve("release-manifests/0000_99_leak.yaml"), Path.of("../../secret.yaml"));
        assertThatThrownBy(() -> load(p))
                .isInstanceOfSatisfying(
                        ReleaseException.class,
                        e ->
                                assertThat(e.getMessage())
                                        .isEqualTo(
                                                "release-manifests/0000_99_leak.yaml is a"
                                                        + " symbolic link; a payload manifest file"
                                                        + " must be a regular file"));
    }

    @Test
    void aPayloadDirectoryOrReleaseMetadataThatIsALinkIsRefused() throws Exception {
        Path p = PayloadDir.at(dir.resolve("p")).write();
        Path elsewhere = Files.createDirectories(dir.resolve("elsewhere"));
        Files.delete(p.resolve("manifests"));
        Files.createSymbolicLink(p.resolve("manifests"), elsewhere);
        assertThatThrownBy(() -> load(p))
                .isInstanceOfSatisfying(
                        ReleaseException.class,
                        e -> {
                            assertThat(e.reason()).isEqualTo(Reason.PAYLOAD_NOT_FOUND);
                            assertThat(e.getMessage())
                                    .endsWith("manifests/ is missing (it is a symbolic link)");
                        });

        Path q = PayloadDir.at(dir.resolve("q")).write();
        Path metadata = q.resolve("release-manifests/release-metadata");
        Files.move(metadata, dir.resolve("metadata"));
        Files.createSymbolicLink(metadata, dir.resolve("metadata"));
        assertThatThrownBy(() -> load(q))
                .isInstanceOfSatisfying(
                        ReleaseException.class,
                        e -> {
                            assertThat(e.reason()).isEqualTo(Reason.UNSAFE_LAYER_ENTRY);
                            assertThat(e.getMessage())
                                    .isEqualTo(
                                            "release-manifests/release-metadata is a symbolic"
                                                    + " link; a release metadata file must be a"
                                                    + " regular file");
                        });
    }
}
