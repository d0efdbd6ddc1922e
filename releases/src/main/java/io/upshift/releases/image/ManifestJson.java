package io.upshift.releases.image;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.upshift.api.json.Mappers;
import io.upshift.releases.metadata.Reason;
import io.upshift.releases.metadata.ReleaseException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads an image manifest (OCI or Docker v2 schema 2), and picks one architecture's image from a
 * manifest list.
 */
final class ManifestJson {

    private static final ObjectMapper JSON = Mappers.JSON;

    private ManifestJson() {}

    static ResolvedImage parse(ImageRef ref, String digest, byte[] manifest)
            throws ReleaseException {
        JsonNode m;
        try {
            m = JSON.readTree(manifest);
        } catch (IOException e) {
            throw new ReleaseException(
                    Reason.IMAGE_INVALID, ref + ": the image manifest is not JSON");
        }
        if (m.has("manifests")) {
            throw new ReleaseException(
                    Reason.IMAGE_INVALID,
                    ref + " is a multi-architecture index; name one image of it by digest");
        }
        JsonNode config = m.path("config");
        if (!config.has("digest") || !m.path("layers").isArray()) {
            throw new ReleaseException(
                    Reason.IMAGE_INVALID, ref + ": the image manifest has no config or layers");
        }
        List<ImageDescriptor> layers = new ArrayList<>();
        for (JsonNode l : m.path("layers")) layers.add(descriptor(l));
        return new ResolvedImage(ref.withDigest(digest), digest, descriptor(config), layers);
    }

    /** True for a manifest list or OCI index: one image per platform, not an image. */
    static boolean isList(byte[] manifest) {
        try {
            return JSON.readTree(manifest).has("manifests");
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * The digest of the Linux image for {@code architecture} in manifest list {@code list}.
     *
     * @throws ReleaseException ARCHITECTURE_MISSING naming the architectures the list has
     */
    static String platformEntry(ImageRef ref, byte[] list, String architecture)
            throws ReleaseException {
        List<String> offered = new ArrayList<>();
        try {
            for (JsonNode m : JSON.readTree(list).path("manifests")) {
                JsonNode p = m.path("platform");
                String os = p.path("os").asText(""), arch = p.path("architecture").asText("");
                if (os.equals("linux")
                        && arch.equals(architecture)
                        && m.path("digest").asText("").startsWith("sha256:"))
                    return m.path("digest").asText();
                offered.add(os + "/" + arch);
            }
        } catch (IOException e) {
            throw new ReleaseException(
                    Reason.IMAGE_INVALID, ref + ": the manifest list is not JSON");
        }
        throw new ReleaseException(
                Reason.ARCHITECTURE_MISSING,
                ref
                        + " is a manifest list of "
                        + (offered.isEmpty() ? "no image" : String.join(", ", offered))
                        + ": it has no image for linux/"
                        + architecture
                        + ", the cluster's architecture");
    }

    private static ImageDescriptor descriptor(JsonNode n) {
        return new ImageDescriptor(
                n.path("mediaType").asText(""),
                n.path("digest").asText(""),
                n.path("size").asLong(-1));
    }
}
