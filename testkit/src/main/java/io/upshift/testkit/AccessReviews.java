package io.upshift.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.upshift.api.json.Mappers;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The API server's authenticator and authorizer, as far as reviews ask them: {@code POST} of a TokenReview
 * (authentication.k8s.io/v1) says whose a token is, of a SubjectAccessReview (authorization.k8s.io/v1) whether a
 * user may use a verb on a non-resource URL. Reviews are answered, not stored, as by kube-apiserver. Tokens are
 * unknown and nothing is allowed until a test says otherwise.
 */
public final class AccessReviews {
    static final String TOKEN_REVIEWS = "/apis/authentication.k8s.io/v1/tokenreviews";
    static final String ACCESS_REVIEWS = "/apis/authorization.k8s.io/v1/subjectaccessreviews";

    private final Map<String, String> users = new ConcurrentHashMap<>();
    private final Set<String> grants = ConcurrentHashMap.newKeySet();
    private final AtomicInteger tokenReviews = new AtomicInteger(), accessReviews = new AtomicInteger();

    /** {@code token} authenticates as {@code user}. */
    public AccessReviews token(String token, String user) {
        users.put(token, user);
        return this;
    }

    /** {@code user} may {@code verb} the non-resource URL {@code path}, as a ClusterRole's nonResourceURLs rule grants. */
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
            review = (ObjectNode) Mappers.JSON.readTree(new String(request.getBody().getBytes(), StandardCharsets.UTF_8));
        } catch (IOException | ClassCastException e) {
            return new MockResponse().setResponseCode(400).setBody("{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"code\":400}");
        }
        ObjectNode status = review.putObject("status");
        if (path.equals(TOKEN_REVIEWS)) {
            tokenReviews.incrementAndGet();
            String user = users.get(review.path("spec").path("token").asText());
            if (user == null) {
                status.put("error", "invalid bearer token");
            } else {
                status.put("authenticated", true);
                status.putObject("user").put("username", user).put("uid", "uid-" + user).putArray("groups").add("system:authenticated");
            }
        } else {
            accessReviews.incrementAndGet();
            JsonNode spec = review.path("spec");
            JsonNode url = spec.path("nonResourceAttributes");
            boolean allowed = !url.isMissingNode() && grants.contains(spec.path("user").asText() + " " + url.path("verb").asText() + " " + url.path("path").asText());
            status.put("allowed", allowed);
            if (!allowed) status.put("reason", "no RBAC policy matched");
        }
        return new MockResponse().setResponseCode(201).setBody(review.toString());
    }
}
