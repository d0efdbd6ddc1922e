package io.upshift.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes a synthetic payload for benchmarks: {@code count} manifests over 20 run-levels and 40
 * components, a tenth excluded by profile, with padding to reach a target size. Usage: {@code
 * PayloadWriter DIR VERSION COUNT [BYTES_EACH]}.
 */
public final class PayloadWriter {

    public static void main(String[] args) throws IOException {
        write(
                Path.of(args[0]),
                args[1],
                Integer.parseInt(args[2]),
                args.length > 3 ? Integer.parseInt(args[3]) : 0);
    }

    public static Path write(Path dir, String version, int count) throws IOException {
        return write(dir, version, count, 0);
    }

    public static Path write(Path dir, String version, int count, int padding) throws IOException {
        Files.createDirectories(dir.resolve("manifests"));
        Files.createDirectories(dir.resolve("release-manifests"));
        Files.writeString(
                dir.resolve("release-manifests/release-metadata"),
                "{\"kind\":\"cincinnati-metadata-v0\",\"version\":\""
                        + version
                        + "\",\"previous\":[],\"metadata\":{}}");
        Files.writeString(
                dir.resolve("release-manifests/image-references"),
                "kind: ImageStream\napiVersion: image.openshift.io/v1\nmetadata:\n  name: "
                        + version
                        + "\nspec:\n  tags: []\n");
        String pad = padding > 0 ? "  padding: " + "p".repeat(padding) + "\n" : "";
        for (int i = 0; i < count; i++) {
            String level = String.format("%02d", (i % 20) * 5), component = "component" + (i % 40);
            String profile =
                    i % 10 == 0 ? "single-node-developer" : "self-managed-high-availability";
            Files.writeString(
                    dir.resolve(
                            String.format(
                                    "release-manifests/0000_%s_%s_%04d_config.yaml",
                                    level, component, i)),
                    "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: config-"
                            + i
                            + "\n  namespace: "
                            + component
                            + "\n"
                            + "  annotations:\n    include.release.openshift.io/"
                            + profile
                            + ": \"true\"\n"
                            + "data:\n  key: value-"
                            + i
                            + "\n"
                            + pad);
        }
        return dir;
    }
}
