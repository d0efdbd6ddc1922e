package io.upshift.releases.payload;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/** Writes a payload directory for a test: release metadata, image references and manifest files. */
public final class PayloadDir {

    public static final String INCLUDED =
            "    include.release.openshift.io/self-managed-high-availability: \"true\"\n";

    private final Path root;
    private String version = "1.0.0";
    private String metadata;
    private String imageStreamName;
    private final Map<String, String> images = new LinkedHashMap<>();
    private final Map<String, String> files = new LinkedHashMap<>();

    private PayloadDir(Path root) {
        this.root = root;
    }

    public static PayloadDir at(Path root) {
        return new PayloadDir(root);
    }

    public PayloadDir version(String v) {
        version = v;
        return this;
    }

    public PayloadDir metadata(String json) {
        metadata = json;
        return this;
    }

    public PayloadDir imageStreamName(String name) {
        imageStreamName = name;
        return this;
    }

    public PayloadDir image(String tag, String pullspec) {
        images.put(tag, pullspec);
        return this;
    }

    /** A file under the payload, e.g. {@code release-manifests/0000_10_a_x.yaml}. */
    public PayloadDir file(String path, String content) {
        files.put(path, content);
        return this;
    }

    /** A ConfigMap in the default profile, in {@code release-manifests/<file>}. */
    public PayloadDir configMap(String file, String name, String... extraAnnotations) {
        StringBuilder s =
                new StringBuilder(
                        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: "
                                + name
                                + "\n  namespace: test\n  annotations:\n"
                                + INCLUDED);
        for (String a : extraAnnotations) s.append("    ").append(a).append('\n');
        return file("release-manifests/" + file, s.toString());
    }

    public Path write() {
        try {
            Files.createDirectories(root.resolve("manifests"));
            Files.createDirectories(root.resolve("release-manifests"));
            Files.writeString(
                    root.resolve("release-manifests/release-metadata"),
                    metadata != null
                            ? metadata
                            : "{\"kind\":\"cincinnati-metadata-v0\",\"version\":\""
                                    + version
                                    + "\",\"previous\":[],\"metadata\":{\"url\":\"https://example.com/"
                                    + version
                                    + "\"}}");
            StringBuilder is =
                    new StringBuilder(
                            "kind: ImageStream\n"
                                    + "apiVersion: image.openshift.io/v1\n"
                                    + "metadata:\n"
                                    + "  name: "
                                    + (imageStreamName != null ? imageStreamName : version)
                                    + "\nspec:\n  tags:"
                                    + (images.isEmpty() ? " []\n" : "\n"));
            images.forEach(
                    (tag, image) ->
                            is.append("  - name: ")
                                    .append(tag)
                                    .append("\n    from:\n      kind: DockerImage\n      name: ")
                                    .append(image)
                                    .append('\n'));
            Files.writeString(root.resolve("release-manifests/image-references"), is.toString());
            for (Map.Entry<String, String> f : files.entrySet()) {
                Path p = root.resolve(f.getKey());
                Files.createDirectories(p.getParent());
                Files.writeString(p, f.getValue());
            }
            return root;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
