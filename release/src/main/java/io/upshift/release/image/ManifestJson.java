package io.upshift.release.image;

import io.upshift.api.json.Mappers;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.upshift.core.release.Reason;
import io.upshift.core.release.ReleaseException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/** Reads an image manifest (OCI or Docker v2 schema 2); indexes and manifest lists are refused by name. */
final class ManifestJson {

    private static final ObjectMapper JSON = Mappers.JSON;

    private ManifestJson() {
    }

    static ResolvedImage parse(ImageRef ref, String digest, byte[] manifest) throws ReleaseException {
        JsonNode m;
        try {
            m = JSON.readTree(manifest);
        } catch (IOException e) {
            throw new ReleaseException(Reason.IMAGE_INVALID, ref + ": the image manifest is not JSON");
        }
        if (m.has("manifests")) {
            throw new ReleaseException(Reason.IMAGE_INVALID, ref + " is a multi-architecture index; name one image of it by digest");
        }
        JsonNode config = m.path("config");
        if (!config.has("digest") || !m.path("layers").isArray()) {
            throw new ReleaseException(Reason.IMAGE_INVALID, ref + ": the image manifest has no config or layers");
        }
        List<ImageDescriptor> layers = new ArrayList<>();
        for (JsonNode l : m.path("layers")) layers.add(descriptor(l));
        return new ResolvedImage(ref.withDigest(digest), digest, descriptor(config), layers);
    }

    private static ImageDescriptor descriptor(JsonNode n) {
        return new ImageDescriptor(n.path("mediaType").asText(""), n.path("digest").asText(""), n.path("size").asLong(-1));
    }
}
