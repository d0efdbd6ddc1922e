package io.upshift.testkit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Payload directories for tests: run-levels, components and a verification ConfigMap. */
public final class TestPayloads {

    private TestPayloads() {}

    /**
     * A payload of {@code components} components over three run-levels, each file {@code padding}
     * bytes larger.
     */
    public static Path write(Path dir, String version, int components, int padding)
            throws IOException {
        Files.createDirectories(dir.resolve("manifests"));
        Files.createDirectories(dir.resolve("release-manifests"));
        Files.writeString(
                dir.resolve("manifests/0000_00_cluster-version-operator_01_deployment.yaml"),
                "apiVersion: apps/v1\n"
                    + "kind: Deployment\n"
                    + "metadata:\n"
                    + "  name: cluster-version-operator\n"
                    + "  namespace: openshift-cluster-version\n"
                    + "  annotations:\n"
                    + "    include.release.openshift.io/self-managed-high-availability: \"true\"\n"
                    + "spec:\n"
                    + "  template:\n"
                    + "    spec:\n"
                    + "      containers:\n"
                    + "      - name: cvo\n"
                    + "        image: '{{.ReleaseImage}}'\n");
        String pad = "x".repeat(padding);
        for (int c = 0; c < components; c++) {
            String level = String.format("%02d", 10 + 10 * (c % 3));
            Files.writeString(
                    dir.resolve(
                            "release-manifests/0000_"
                                    + level
                                    + "_component"
                                    + c
                                    + "_00_config.yaml"),
                    "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: component"
                            + c
                            + "\n"
                            + "  namespace: openshift-cluster-version\n"
                            + "  annotations:\n"
                            + "    include.release.openshift.io/self-managed-high-availability:"
                            + " \"true\"\n"
                            + "data:\n"
                            + "  padding: "
                            + pad
                            + "\n");
        }
        Files.writeString(
                dir.resolve("release-manifests/image-references"),
                "kind: ImageStream\napiVersion: image.openshift.io/v1\nmetadata:\n  name: "
                        + version
                        + "\n"
                        + "spec:\n"
                        + "  tags:\n"
                        + "  - name: cluster-version-operator\n"
                        + "    from:\n"
                        + "      kind: DockerImage\n"
                        + "      name: quay.example/cvo@sha256:"
                        + "c".repeat(64)
                        + "\n");
        return dir;
    }
}
