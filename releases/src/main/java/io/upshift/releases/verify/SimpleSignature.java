package io.upshift.releases.verify;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.upshift.api.json.Mappers;
import io.upshift.releases.metadata.Reason;
import io.upshift.releases.metadata.ReleaseException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * The claim a release signature makes ("simple signing", type {@code atomic container signature}):
 * the image with manifest digest {@code digest} is the one published as {@code dockerReference}.
 */
public record SimpleSignature(
        String dockerReference, String digest, String creator, long timestamp) {

    public static final String TYPE = "atomic container signature";

    private static final ObjectMapper JSON = Mappers.JSON;

    public byte[] toJson() {
        ObjectNode doc = JSON.createObjectNode();
        ObjectNode critical = doc.putObject("critical");
        critical.putObject("identity").put("docker-reference", dockerReference);
        critical.putObject("image").put("docker-manifest-digest", digest);
        critical.put("type", TYPE);
        ObjectNode optional = doc.putObject("optional");
        optional.put("creator", creator);
        optional.put("timestamp", timestamp);
        return doc.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** Reads the signed document; {@code source} names the signature in errors. */
    public static SimpleSignature parse(byte[] json, String source) throws ReleaseException {
        JsonNode doc;
        try {
            doc = JSON.readTree(json);
        } catch (IOException e) {
            throw new ReleaseException(
                    Reason.SIGNATURE_MALFORMED, source + ": the signed content is not JSON");
        }
        JsonNode critical = doc == null ? null : doc.get("critical");
        if (critical == null || !TYPE.equals(critical.path("type").asText())) {
            throw new ReleaseException(
                    Reason.SIGNATURE_MALFORMED,
                    source + ": the signed content is not an \"" + TYPE + "\"");
        }
        String digest = critical.path("image").path("docker-manifest-digest").asText("");
        if (digest.isEmpty()) {
            throw new ReleaseException(
                    Reason.SIGNATURE_MALFORMED,
                    source + ": critical.image.docker-manifest-digest is missing");
        }
        return new SimpleSignature(
                critical.path("identity").path("docker-reference").asText(""),
                digest,
                doc.path("optional").path("creator").asText(""),
                doc.path("optional").path("timestamp").asLong(0));
    }
}
