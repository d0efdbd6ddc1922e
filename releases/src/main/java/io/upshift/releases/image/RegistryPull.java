package io.upshift.releases.image;

import com.fasterxml.jackson.databind.JsonNode;
import io.upshift.api.json.Mappers;
import io.upshift.releases.metadata.Reason;
import io.upshift.releases.metadata.ReleaseException;
import io.upshift.runtime.fetch.BoundExceeded;
import io.upshift.runtime.fetch.BoundedExchange;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads manifests and blobs from one repository of an OCI distribution registry, over the JDK's
 * HTTP client (so that each pull has the cluster's proxy, not a process-wide one), every answer
 * bounded in bytes and its whole exchange in time: a manifest 4 MiB and a minute, a token 1 MiB and
 * a minute, a blob the size its manifest gives and a minute more than that size takes at 1 Mbit/s.
 * Authenticates as registries ask in their 401 answer: basic, or a bearer token from the realm
 * named, with the login the pull secret holds for the host.
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

    /** A manifest as the registry sent it, and the digest of those bytes. */
    record Manifest(String digest, String mediaType, byte[] body) {}

    private final ImageRef at;
    private final RegistryLimits limits;
    private final Optional<DockerCredentials.Login> login;
    private final HttpClient http;
    private final String base;
    private String authorization;

    RegistryPull(
            ImageRef at,
            DockerCredentials credentials,
            HttpClient http,
            boolean insecure,
            RegistryLimits limits)
            throws ReleaseException {
        this.at = at;
        this.limits = limits;
        this.login = credentials.forRegistry(at.registry());
        this.http = http;
        this.base =
                (insecure || at.isLoopback() ? "http://" : "https://")
                        + at.registry()
                        + "/v2/"
                        + at.repository();
    }

    Manifest manifest(String reference) throws ReleaseException {
        String what = "manifest " + reference;
        byte[] body;
        String type;
        try (BoundedExchange x =
                get(
                        URI.create(base + "/manifests/" + reference),
                        ACCEPT,
                        what,
                        new BoundedExchange.Bounds(limits.maxManifest(), limits.exchange()))) {
            type = x.headers().firstValue("Content-Type").orElse("").replaceFirst(";.*", "").trim();
            body = x.readAll();
        } catch (BoundExceeded e) {
            throw new ReleaseException(
                    e.kind() == BoundExceeded.Kind.TOO_LARGE
                            ? Reason.IMAGE_INVALID
                            : Reason.REGISTRY_FAILED,
                    "registry "
                            + at.registry()
                            + ": the "
                            + what
                            + " of "
                            + at
                            + ": "
                            + e.getMessage(),
                    e);
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
        return new Manifest(Digests.of(body), type, body);
    }

    /**
     * The body of blob {@code digest}, streamed: no more than {@code size} bytes (the size its
     * manifest gives; negative: unknown) are read, all within {@link
     * RegistryLimits#blobDeadline(long)}; the caller checks its size and digest. Closing the stream
     * ends the exchange.
     */
    InputStream blob(String digest, long size) throws ReleaseException {
        return get(
                        URI.create(base + "/blobs/" + digest),
                        "*/*",
                        "blob " + digest,
                        new BoundedExchange.Bounds(
                                size < 0 ? RegistryLimits.MAX_UNSIZED_BLOB : size,
                                limits.blobDeadline(size)))
                .body();
    }

    private BoundedExchange get(URI uri, String accept, String what, BoundedExchange.Bounds bounds)
            throws ReleaseException {
        BoundedExchange r = send(uri, accept, what, bounds);
        if (r.status() == 401 && authorization == null) {
            String challenge = r.headers().firstValue("WWW-Authenticate").orElse("");
            r.close();
            authorization = authenticate(challenge);
            r = send(uri, accept, what, bounds);
        }
        if (r.status() == 200) return r;
        r.close();
        int status = r.status();
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

    private BoundedExchange send(URI uri, String accept, String what, BoundedExchange.Bounds bounds)
            throws ReleaseException {
        HttpRequest.Builder request =
                HttpRequest.newBuilder(uri)
                        .header("Accept", accept)
                        .header("User-Agent", "upshift");
        if (authorization != null) request.header("Authorization", authorization);
        try {
            return BoundedExchange.send(http, request.GET().build(), bounds);
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
                            + e.getMessage(),
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
        HttpRequest.Builder request = HttpRequest.newBuilder(token).header("User-Agent", "upshift");
        basic.ifPresent(b -> request.header("Authorization", b));
        try (BoundedExchange r =
                BoundedExchange.send(
                        http,
                        request.GET().build(),
                        new BoundedExchange.Bounds(limits.maxToken(), limits.exchange()))) {
            if (r.status() == 401 || r.status() == 403) throw unauthorized(r.status(), "token");
            if (r.status() != 200)
                throw new ReleaseException(
                        Reason.REGISTRY_FAILED,
                        "the token service "
                                + realm
                                + " of registry "
                                + at.registry()
                                + " answered HTTP "
                                + r.status());
            JsonNode json = Mappers.JSON.readTree(r.readAll());
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
                    "cannot get a token for " + at + " from " + realm + ": " + e.getMessage(),
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
}
