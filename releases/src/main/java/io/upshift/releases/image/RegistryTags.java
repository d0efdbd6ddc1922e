package io.upshift.releases.image;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.upshift.api.json.Mappers;
import io.upshift.releases.metadata.Reason;
import io.upshift.releases.metadata.ReleaseException;
import io.upshift.runtime.fetch.BoundedExchange;
import io.upshift.runtime.fetch.Deadline;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * Lists a repository's tags ({@code GET /v2/<repo>/tags/list}, following {@code Link} pages), which
 * jib-core's registry client does not offer. Basic credentials come from the same docker config as
 * pulls.
 */
public final class RegistryTags {

    private static final ObjectMapper JSON = Mappers.JSON;

    /** One page of tags: 4 MiB and 30 s at most, from the request to its last byte. */
    static final BoundedExchange.Bounds PAGE =
            new BoundedExchange.Bounds(4 << 20, Duration.ofSeconds(30));

    /** Every page of one repository. */
    static final Duration LISTING = Duration.ofMinutes(5);

    private record Page(int statusCode, HttpHeaders headers, byte[] body) {}

    private final DockerCredentials credentials;
    private final boolean insecure;
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    public RegistryTags(DockerCredentials credentials, boolean insecure) {
        this.credentials = credentials;
        this.insecure = insecure;
    }

    public List<String> list(ImageRef repository) throws ReleaseException {
        String scheme = insecure || repository.isLoopback() ? "http" : "https";
        URI next =
                URI.create(
                        scheme
                                + "://"
                                + repository.registry()
                                + "/v2/"
                                + repository.repository()
                                + "/tags/list?n=1000");
        List<String> tags = new ArrayList<>();
        var login = credentials.forRegistry(repository.registry());
        Deadline listing =
                Deadline.in(LISTING, "listing the tags of " + repository.repositoryName());
        for (int page = 0; next != null && page < 1000; page++) {
            HttpRequest.Builder req = HttpRequest.newBuilder(next).GET();
            login.ifPresent(
                    l ->
                            req.header(
                                    "Authorization",
                                    "Basic "
                                            + Base64.getEncoder()
                                                    .encodeToString(
                                                            (l.username() + ":" + l.password())
                                                                    .getBytes(
                                                                            StandardCharsets
                                                                                    .UTF_8))));
            Page r;
            try (BoundedExchange x = BoundedExchange.send(http, req.build(), PAGE, listing)) {
                r = new Page(x.status(), x.headers(), x.status() == 200 ? x.readAll() : null);
            } catch (IOException e) {
                throw new ReleaseException(
                        Reason.REGISTRY_FAILED,
                        "cannot list tags of "
                                + repository.repositoryName()
                                + ": "
                                + e.getMessage(),
                        e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ReleaseException(
                        Reason.REGISTRY_FAILED,
                        "interrupted while listing tags of " + repository.repositoryName(),
                        e);
            }
            if (r.statusCode() == 401 || r.statusCode() == 403) {
                throw new ReleaseException(
                        Reason.REGISTRY_UNAUTHORIZED,
                        "registry "
                                + repository.registry()
                                + " answered HTTP "
                                + r.statusCode()
                                + " to a tag list of "
                                + repository.repositoryName());
            }
            if (r.statusCode() == 404)
                throw new ReleaseException(
                        Reason.IMAGE_NOT_FOUND,
                        repository.repositoryName() + " was not found (HTTP 404)");
            if (r.statusCode() != 200)
                throw new ReleaseException(
                        Reason.REGISTRY_FAILED,
                        "registry "
                                + repository.registry()
                                + " answered HTTP "
                                + r.statusCode()
                                + " to a tag list");
            try {
                JsonNode doc = JSON.readTree(r.body());
                doc.path("tags").forEach(t -> tags.add(t.asText()));
            } catch (IOException e) {
                throw new ReleaseException(
                        Reason.REGISTRY_FAILED,
                        "the tag list of " + repository.repositoryName() + " is not JSON",
                        e);
            }
            String link = r.headers().firstValue("Link").orElse(null);
            next = link == null ? null : next.resolve(link.replaceFirst("^<([^>]*)>.*$", "$1"));
        }
        return tags;
    }
}
