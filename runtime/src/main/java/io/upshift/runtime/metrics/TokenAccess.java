package io.upshift.runtime.metrics;

import io.fabric8.kubernetes.api.model.authentication.TokenReview;
import io.fabric8.kubernetes.api.model.authentication.TokenReviewBuilder;
import io.fabric8.kubernetes.api.model.authentication.UserInfo;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReview;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReviewBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.upshift.runtime.kube.ApiErrors;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Scrapes carry a bearer token that the API server vouches for, as kube-rbac-proxy checks them in
 * front of OpenShift's operators: a TokenReview (authentication.k8s.io/v1) says whose token it is
 * (401 when nobody's), then a SubjectAccessReview (authorization.k8s.io/v1) for the non-resource
 * URL and verb says whether that user may read it (403 when not). A grant is remembered for {@link
 * #REMEMBER}, keyed by a digest of the token, so that a scrape every 30 s does not cost two API
 * calls each; refusals and failures are not remembered.
 */
public final class TokenAccess implements ScrapeAccess {
    private static final Logger LOG = LoggerFactory.getLogger(TokenAccess.class);

    /** kube-rbac-proxy keeps token reviews two minutes. */
    public static final Duration REMEMBER = Duration.ofMinutes(2);

    private static final int MAX_REMEMBERED = 256;
    private static final String BEARER = "bearer ";

    private final KubernetesClient client;
    private final InstantSource clock;
    private final Map<String, Instant> granted =
            new LinkedHashMap<>(); // guarded by this: key -> until

    public TokenAccess(KubernetesClient client, InstantSource clock) {
        this.client = client;
        this.clock = clock;
    }

    @Override
    public Verdict check(String authorization, String verb, String path) {
        if (authorization == null
                || authorization.length() <= BEARER.length()
                || !authorization.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
            return new Verdict(401, "a bearer token is required (Authorization: Bearer TOKEN)");
        }
        String token = authorization.substring(BEARER.length()).strip();
        String key = digest(token) + " " + verb + " " + path;
        if (remembered(key)) return Verdict.ALLOWED;
        UserInfo user;
        try {
            TokenReview review =
                    client.tokenReviews()
                            .create(
                                    new TokenReviewBuilder()
                                            .withNewSpec()
                                            .withToken(token)
                                            .endSpec()
                                            .build());
            if (review.getStatus() == null
                    || !Boolean.TRUE.equals(review.getStatus().getAuthenticated())
                    || review.getStatus().getUser() == null) {
                String why =
                        review.getStatus() == null || review.getStatus().getError() == null
                                ? ""
                                : ": " + review.getStatus().getError();
                return new Verdict(401, "the token is not valid" + why);
            }
            user = review.getStatus().getUser();
            SubjectAccessReview access =
                    client.authorization()
                            .v1()
                            .subjectAccessReview()
                            .create(
                                    new SubjectAccessReviewBuilder()
                                            .withNewSpec()
                                            .withUser(user.getUsername())
                                            .withGroups(user.getGroups())
                                            .withUid(user.getUid())
                                            .withExtra(user.getExtra())
                                            .withNewNonResourceAttributes()
                                            .withPath(path)
                                            .withVerb(verb)
                                            .endNonResourceAttributes()
                                            .endSpec()
                                            .build());
            if (access.getStatus() == null
                    || !Boolean.TRUE.equals(access.getStatus().getAllowed())) {
                String reason =
                        access.getStatus() == null
                                        || access.getStatus().getReason() == null
                                        || access.getStatus().getReason().isEmpty()
                                ? ""
                                : " (" + access.getStatus().getReason() + ")";
                LOG.info("metrics: {} may not {} {}{}", user.getUsername(), verb, path, reason);
                return new Verdict(
                        403, user.getUsername() + " may not " + verb + " " + path + reason);
            }
        } catch (KubernetesClientException e) {
            LOG.warn(
                    "metrics: cannot review a scrape's token ({}); the scrape is answered 500",
                    ApiErrors.describe(e));
            return new Verdict(500, "the token cannot be reviewed now");
        }
        remember(key);
        return Verdict.ALLOWED;
    }

    private synchronized boolean remembered(String key) {
        Instant until = granted.get(key);
        if (until == null) return false;
        if (clock.instant().isBefore(until)) return true;
        granted.remove(key);
        return false;
    }

    private synchronized void remember(String key) {
        Instant now = clock.instant();
        granted.values().removeIf(until -> !now.isBefore(until));
        if (granted.size() >= MAX_REMEMBERED) granted.remove(granted.keySet().iterator().next());
        granted.put(key, now.plus(REMEMBER));
    }

    /** The token itself is not kept. */
    private static String digest(String token) {
        try {
            return HexFormat.of()
                    .formatHex(
                            MessageDigest.getInstance("SHA-256")
                                    .digest(token.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
