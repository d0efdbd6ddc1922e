package io.upshift.releases.image;

import com.fasterxml.jackson.databind.JsonNode;
import io.upshift.api.json.Mappers;
import io.upshift.releases.metadata.Reason;
import io.upshift.releases.metadata.ReleaseException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads manifests and blobs from one repository of an OCI distribution registry, over the JDK's
 * HTTP client (so that each pull has the cluster's proxy, not a process-wide one). Authenticates as
 * registries ask in their 401 answer: basic, or a bearer token from the realm named, with the login
 * the pull secret holds for the host.
 */
final class RegistryPull {

    static final String ACCEPT =
            String.join(
                    ", ",
                    "application/vnd.oci.image.manifest.v1+json",
                    "application/vnd.oci.image.index.v1+json",
                    "application/vnd.docker.distribution.manifest.v2+json",
                    "application/vnd.docker.distribution.manifest.list.v2+json");
    private static final Pattern PARAM = Pattern.compile("(\\w+)=\"([^\"]*)\"");

    /** Manifests are small; a larger answer is not one. */
    private static final int MAX_MANIFEST = 4 << 20;

    /** A manifest as the registry sent it, and the digest of those bytes. */
    record Manifest(String digest, String mediaType, byte[] body) {}

    private final ImageRef at;
    private final Optional<DockerCredentials.Login> login;
    private final HttpClient http;
    private final String base;
    private String authorization;

    RegistryPull(ImageRef at, DockerCredentials credentials, HttpClient http, boolean insecure)
            throws ReleaseException {
        this.at = at;
        this.login = credentials.forRegistry(at.registry());
        this.http = http;
        this.base =
                (insecure || at.isLoopback() ? "http://" : "https://")
                        + at.registry()
                        + "/v2/"
                        + at.repository();
    }

    Manifest manifest(String reference) throws ReleaseException {
        HttpResponse<InputStream> r =
                get(URI.create(base + "/manifests/" + reference), ACCEPT, "manifest " + reference);
        byte[] body;
        try (InputStream in = r.body()) {
            body = in.readNBytes(MAX_MANIFEST + 1);
        } catch (IOException e) {
            throw new ReleaseException(
                    Reason.REGISTRY_FAILED,
                    "registry "
                            + at.registry()
                            + ": reading the manifest of "
                            + at
                            + " failed: "
                            + e.getMessage(),
                    e);
        }
        if (body.length > MAX_MANIFEST)
            throw new ReleaseException(
                    Reason.IMAGE_INVALID,
                    at + ": the manifest is larger than " + MAX_MANIFEST + " bytes");
        String type =
                r.headers().firstValue("Content-Type").orElse("").replaceFirst(";.*", "").trim();
        return new Manifest(Digests.of(body), type, body);
    }

    /** The body of blob {@code digest}, streamed: the caller checks its size and digest. */
    InputStream blob(String digest) throws ReleaseException {
        return get(URI.create(base + "/blobs/" + digest), "*/*", "blob " + digest).body();
    }

    private HttpResponse<InputStream> get(URI uri, String accept, String what)
            throws ReleaseException {
        HttpResponse<InputStream> r = send(uri, accept, what);
        if (r.statusCode() == 401 && authorization == null) {
            String challenge = r.headers().firstValue("WWW-Authenticate").orElse("");
            discard(r);
            authorization = authenticate(challenge);
            r = send(uri, accept, what);
        }
        if (r.statusCode() == 200) return r;
        discard(r);
        int status = r.statusCode();
        if (status == 401 || status == 403) throw unauthorized(status, what);
        if (status == 404)
            throw new ReleaseException(
                    Reason.IMAGE_NOT_FOUND,
                    at
                            + " was not found in registry "
                            + at.registry()
                            + " (HTTP 404 for its "
                            + what
                            + ")");
        throw new ReleaseException(
                Reason.REGISTRY_FAILED,
                "registry "
                        + at.registry()
                        + " answered HTTP "
                        + status
                        + " when asked for the "
                        + what
                        + " of "
                        + at);
    }

    private HttpResponse<InputStream> send(URI uri, String accept, String what)
            throws ReleaseException {
        HttpRequest.Builder request =
                HttpRequest.newBuilder(uri)
                        .timeout(Duration.ofMinutes(5))
                        .header("Accept", accept)
                        .header("User-Agent", "upshift");
        if (authorization != null) request.header("Authorization", authorization);
        try {
            return http.send(request.GET().build(), HttpResponse.BodyHandlers.ofInputStream());
        } catch (IOException e) {
            throw new ReleaseException(
                    Reason.REGISTRY_FAILED,
                    "cannot reach registry "
                            + at.registry()
                            + " for the "
                            + what
                            + " of "
                            + at
                            + ": "
                            + e,
                    e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ReleaseException(
                    Reason.REGISTRY_FAILED,
                    "interrupted while reading the " + what + " of " + at,
                    e);
        }
    }

    /**
     * The Authorization header the registry's challenge asks for; without a login for the host,
     * only an anonymous token.
     */
    private String authenticate(String challenge) throws ReleaseException {
        Optional<String> basic =
                login.map(
                        l ->
                                "Basic "
                                        + Base64.getEncoder()
                                                .encodeToString(
                                                        (l.username() + ":" + l.password())
                                                                .getBytes(StandardCharsets.UTF_8)));
        if (challenge.regionMatches(true, 0, "Basic", 0, 5)) {
            if (basic.isEmpty()) throw unauthorized(401, "manifest");
            return basic.get();
        }
        if (!challenge.regionMatches(true, 0, "Bearer", 0, 6)) throw unauthorized(401, "manifest");
        Map<String, String> params = new LinkedHashMap<>();
        Matcher m = PARAM.matcher(challenge);
        while (m.find()) params.put(m.group(1), m.group(2));
        String realm = params.get("realm");
        if (realm == null)
            throw new ReleaseException(
                    Reason.REGISTRY_FAILED,
                    "registry "
                            + at.registry()
                            + " asked for a bearer token without naming a realm");
        String scope = params.getOrDefault("scope", "repository:" + at.repository() + ":pull");
        URI token =
                URI.create(
                        realm
                                + (realm.contains("?") ? "&" : "?")
                                + (params.containsKey("service")
                                        ? "service="
                                                + URLEncoder.encode(
                                                        params.get("service"),
                                                        StandardCharsets.UTF_8)
                                                + "&"
                                        : "")
                                + "scope="
                                + URLEncoder.encode(scope, StandardCharsets.UTF_8));
        HttpRequest.Builder request =
                HttpRequest.newBuilder(token)
                        .timeout(Duration.ofSeconds(30))
                        .header("User-Agent", "upshift");
        basic.ifPresent(b -> request.header("Authorization", b));
        try {
            HttpResponse<byte[]> r =
                    http.send(request.GET().build(), HttpResponse.BodyHandlers.ofByteArray());
            if (r.statusCode() == 401 || r.statusCode() == 403)
                throw unauthorized(r.statusCode(), "token");
            if (r.statusCode() != 200)
                throw new ReleaseException(
                        Reason.REGISTRY_FAILED,
                        "the token service "
                                + realm
                                + " of registry "
                                + at.registry()
                                + " answered HTTP "
                                + r.statusCode());
            JsonNode json = Mappers.JSON.readTree(r.body());
            String value = json.path("token").asText(json.path("access_token").asText(""));
            if (value.isEmpty())
                throw new ReleaseException(
                        Reason.REGISTRY_FAILED,
                        "the token service "
                                + realm
                                + " of registry "
                                + at.registry()
                                + " gave no token");
            return "Bearer " + value;
        } catch (IOException e) {
            throw new ReleaseException(
                    Reason.REGISTRY_FAILED,
                    "cannot get a token for " + at + " from " + realm + ": " + e,
                    e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ReleaseException(
                    Reason.REGISTRY_FAILED, "interrupted while getting a token for " + at, e);
        }
    }

    private ReleaseException unauthorized(int status, String what) {
        return new ReleaseException(
                Reason.REGISTRY_UNAUTHORIZED,
                "registry "
                        + at.registry()
                        + " answered HTTP "
                        + status
                        + " to the "
                        + what
                        + " of "
                        + at
                        + (login.isPresent()
                                ? ": the credentials for "
                                        + at.registry()
                                        + " (pull secret or docker config.json) are wrong or"
                                        + " expired"
                                : ": the pull secret or docker config.json holds no credentials for"
                                        + " "
                                        + at.registry()));
    }

    private static void discard(HttpResponse<InputStream> r) {
        try (InputStream in = r.body()) {
            in.transferTo(OutputStream.nullOutputStream());
        } catch (IOException ignored) {
            // the connection is dropped instead of reused
        }
    }
}
