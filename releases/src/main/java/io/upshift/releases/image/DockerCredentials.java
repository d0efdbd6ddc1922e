package io.upshift.releases.image;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.upshift.api.json.Mappers;
import io.upshift.releases.metadata.Reason;
import io.upshift.releases.metadata.ReleaseException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Iterator;
import java.util.Map;
import java.util.Optional;

/**
 * Registry credentials from a docker {@code config.json} or a pull secret ({@code
 * .dockerconfigjson}, same format): {@code {"auths": {"host:port": {"auth":
 * base64("user:password")}}}}.
 */
public record DockerCredentials(Path source, JsonNode auths) {

    public record Login(String username, String password) {}

    private static final ObjectMapper JSON = Mappers.JSON;

    /** No credentials: anonymous access. */
    public static DockerCredentials none() {
        return new DockerCredentials(null, JSON.createObjectNode());
    }

    /**
     * The file given, else {@code $REGISTRY_AUTH_FILE}, else {@code $DOCKER_CONFIG/config.json} or
     * {@code ~/.docker/config.json} when it exists; none otherwise.
     */
    public static DockerCredentials discover(Path explicit, Map<String, String> env)
            throws ReleaseException {
        if (explicit != null) return load(explicit);
        if (env.containsKey("REGISTRY_AUTH_FILE"))
            return load(Path.of(env.get("REGISTRY_AUTH_FILE")));
        Path docker =
                env.containsKey("DOCKER_CONFIG")
                        ? Path.of(env.get("DOCKER_CONFIG"), "config.json")
                        : Path.of(System.getProperty("user.home"), ".docker", "config.json");
        return Files.isRegularFile(docker) ? load(docker) : none();
    }

    public static DockerCredentials load(Path file) throws ReleaseException {
        try {
            return parse(Files.readAllBytes(file), file);
        } catch (IOException e) {
            throw new ReleaseException(
                    Reason.REGISTRY_UNAUTHORIZED,
                    file + ": cannot read registry credentials: " + e.getMessage(),
                    e);
        }
    }

    /**
     * Credentials from the bytes of a config.json or pull secret; {@code source} names it in
     * messages (a file, or Secret ns/name).
     */
    public static DockerCredentials parse(byte[] json, Object source) throws ReleaseException {
        try {
            JsonNode root = JSON.readTree(json);
            JsonNode auths = root == null ? null : root.get("auths");
            if (auths == null || !auths.isObject()) {
                throw new ReleaseException(
                        Reason.REGISTRY_UNAUTHORIZED,
                        source + ": no \"auths\" object: not a docker config.json or pull secret");
            }
            return new DockerCredentials(Path.of(source.toString()), auths);
        } catch (IOException e) {
            throw new ReleaseException(
                    Reason.REGISTRY_UNAUTHORIZED,
                    source + ": the registry credentials are not JSON: " + e.getMessage(),
                    e);
        }
    }

    /**
     * The login for {@code registry} (host[:port]); entries may be written with a scheme or path,
     * as docker does.
     */
    public Optional<Login> forRegistry(String registry) throws ReleaseException {
        for (Iterator<Map.Entry<String, JsonNode>> it = auths.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            String host = e.getKey().replaceFirst("^https?://", "").replaceFirst("/.*$", "");
            if (!host.equals(registry)) continue;
            String auth = e.getValue().path("auth").asText("");
            if (auth.isEmpty()) {
                String user = e.getValue().path("username").asText(""),
                        pass = e.getValue().path("password").asText("");
                return user.isEmpty() ? Optional.empty() : Optional.of(new Login(user, pass));
            }
            String decoded;
            try {
                decoded = new String(Base64.getDecoder().decode(auth), StandardCharsets.UTF_8);
            } catch (IllegalArgumentException bad) {
                throw new ReleaseException(
                        Reason.REGISTRY_UNAUTHORIZED,
                        source + ": the auth of " + e.getKey() + " is not base64");
            }
            int colon = decoded.indexOf(':');
            if (colon < 0)
                throw new ReleaseException(
                        Reason.REGISTRY_UNAUTHORIZED,
                        source + ": the auth of " + e.getKey() + " is not user:password");
            return Optional.of(
                    new Login(decoded.substring(0, colon), decoded.substring(colon + 1)));
        }
        return Optional.empty();
    }
}
