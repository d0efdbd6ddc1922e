package io.upshift.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.upshift.api.json.Mappers;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * The API server's authenticator and authorizer, as far as reviews ask them: {@code POST} of a
 * TokenReview (authentication.k8s.io/v1) says whose a token is, of a SubjectAccessReview
 * (authorization.k8s.io/v1) whether a user may use a verb on a resource or a non-resource URL.
 * Reviews are answered, not stored, as by kube-apiserver. A token is known when the server issued
 * it to a client ({@link EmbeddedApiServer#client(String, ServiceAccount)}) or a test named it
 * ({@link #token}); a user may do what the RBAC the server stores allows it, or what a test allowed
 * it here ({@link #allow}).
 */
public final class AccessReviews {
    static final String TOKEN_REVIEWS = "/apis/authentication.k8s.io/v1/tokenreviews";
    static final String ACCESS_REVIEWS = "/apis/authorization.k8s.io/v1/subjectaccessreviews";

    private final Map<String, String> users = new ConcurrentHashMap<>();
    private final Set<String> grants = ConcurrentHashMap.newKeySet();
    private final AtomicInteger tokenReviews = new AtomicInteger(),
            accessReviews = new AtomicInteger();
    private final Function<String, User> issued;
    private final RbacAuthorizer authorizer;

    /**
     * @param issued the user of a token the server issued, or null
     */
    AccessReviews(Function<String, User> issued, RbacAuthorizer authorizer) {
        this.issued = issued;
        this.authorizer = authorizer;
    }

    /** {@code token} authenticates as {@code user}. */
    public AccessReviews token(String token, String user) {
        users.put(token, user);
        return this;
    }

    /**
     * {@code user} may {@code verb} the non-resource URL {@code path}, as a ClusterRole's
     * nonResourceURLs rule grants.
     */
    public AccessReviews allow(String user, String verb, String path) {
        grants.add(user + " " + verb + " " + path);
        return this;
    }

    public int tokenReviews() {
        return tokenReviews.get();
    }

    public int accessReviews() {
        return accessReviews.get();
    }

    /** The answer to a review; null when {@code request} is not one. */
    MockResponse answer(RecordedRequest request) {
        if (!"POST".equals(request.getMethod())) return null;
        String path = request.getPath().split("\\?")[0];
        if (!path.equals(TOKEN_REVIEWS) && !path.equals(ACCESS_REVIEWS)) return null;
        ObjectNode review;
        try {
            review =
                    (ObjectNode)
                            Mappers.JSON.readTree(
                                    new String(
                                            request.getBody().getBytes(), StandardCharsets.UTF_8));
        } catch (IOException | ClassCastException e) {
            return new MockResponse()
                    .setResponseCode(400)
                    .setBody(
                            "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"code\":400}");
        }
        ObjectNode status = review.putObject("status");
        if (path.equals(TOKEN_REVIEWS)) {
            tokenReviews.incrementAndGet();
            String token = review.path("spec").path("token").asText();
            String name = users.get(token);
            User user =
                    name != null
                            ? new User(name, List.of(User.AUTHENTICATED))
                            : issued.apply(token);
            if (user == null) {
                status.put("error", "invalid bearer token");
            } else {
                status.put("authenticated", true);
                var groups =
                        status.putObject("user")
                                .put("username", user.name())
                                .put("uid", "uid-" + user.name())
                                .putArray("groups");
                user.groups().forEach(groups::add);
            }
        } else {
            accessReviews.incrementAndGet();
            JsonNode spec = review.path("spec");
            JsonNode url = spec.path("nonResourceAttributes");
            boolean allowed =
                    !url.isMissingNode()
                            && grants.contains(
                                    spec.path("user").asText()
                                            + " "
                                            + url.path("verb").asText()
                                            + " "
                                            + url.path("path").asText());
            if (!allowed) allowed = authorizer.authorize(user(spec), attributes(spec)).allowed();
            status.put("allowed", allowed);
            if (!allowed) status.put("reason", "no RBAC policy matched");
        }
        return new MockResponse().setResponseCode(201).setBody(review.toString());
    }

    private static User user(JsonNode spec) {
        List<String> groups = new ArrayList<>();
        spec.path("groups").forEach(g -> groups.add(g.asText()));
        return new User(spec.path("user").asText(), groups);
    }

    private static RequestAttributes attributes(JsonNode spec) {
        JsonNode url = spec.path("nonResourceAttributes");
        if (!url.isMissingNode())
            return new RequestAttributes(
                    false,
                    url.path("verb").asText(),
                    "",
                    "",
                    "",
                    "",
                    "",
                    url.path("path").asText());
        JsonNode r = spec.path("resourceAttributes");
        return new RequestAttributes(
                true,
                r.path("verb").asText(),
                r.path("group").asText(),
                r.path("resource").asText(),
                r.path("subresource").asText(),
                r.path("namespace").asText(),
                r.path("name").asText(),
                "");
    }
}
