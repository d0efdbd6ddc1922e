package io.upshift.runtime.metrics;

import io.fabric8.kubernetes.api.model.authentication.TokenReview;
import io.fabric8.kubernetes.api.model.authentication.TokenReviewBuilder;
import io.fabric8.kubernetes.api.model.authentication.UserInfo;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReview;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReviewBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.upshift.runtime.kube.ApiErrors;
import java.net.InetAddress;
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
 * URL and verb says whether that user may read it (403 when not).
 *
 * <p>What a scrape costs the API server is bounded, whatever clients send:
 *
 * <ul>
 *   <li>a grant is remembered for {@link #REMEMBER}, keyed by a digest of the token, so that a
 *       scrape every 30 s does not cost two API calls each;
 *   <li>a token the API server did not authenticate is remembered as such for {@link
 *       #REMEMBER_INVALID} (a negative cache): the same bad token again costs nothing;
 *   <li>reviews are budgeted ({@link Budget}): so many a minute for each client address, so many
 *       for all together; past it a scrape is answered 429 with {@code Retry-After} and nothing is
 *       asked of the API server. A flood of distinct unknown tokens thus costs at most the budget
 *       in reviews a minute. Remembered grants and refusals cost no budget, so a scraper whose
 *       grant is remembered is not held back by others' floods.
 * </ul>
 *
 * Authorization refusals (403) are not remembered, so that a new RoleBinding lets its user in at
 * once; each costs the budget. Failures to review (the API server unreachable) are not remembered
 * either. Every map is bounded; tokens themselves are never kept.
 */
public final class TokenAccess implements ScrapeAccess {
    private static final Logger LOG = LoggerFactory.getLogger(TokenAccess.class);

    /** kube-rbac-proxy keeps token reviews two minutes. */
    public static final Duration REMEMBER = Duration.ofMinutes(2);

    /**
     * How long a token the API server did not authenticate is refused without asking again: a token
     * is valid from its making, so a client gains nothing from it being asked sooner.
     */
    public static final Duration REMEMBER_INVALID = Duration.ofMinutes(1);

    private static final int MAX_REMEMBERED = 256;
    private static final int MAX_INVALID = 4096;
    private static final int MAX_SOURCES = 4096;
    private static final String BEARER = "bearer ";

    /**
     * How many reviews (a TokenReview, and a SubjectAccessReview after one that authenticates) may
     * be asked a minute, in bursts of as many.
     *
     * @param perSource for one client address
     * @param total for all clients together
     */
    public record Budget(int perSource, int total) {
        /**
         * 10 a minute from one address (a Prometheus needs one every 2 minutes), 300 a minute in
         * all (5 a second: nothing an API server notices).
         */
        public static final Budget DEFAULT = new Budget(10, 300);

        public Budget {
            if (perSource < 1 || total < perSource)
                throw new IllegalArgumentException(
                        "at least one review a minute per source, and no fewer in all");
        }
    }

    private final KubernetesClient client;
    private final InstantSource clock;
    private final Budget budget;
    private final Map<String, Instant> granted =
            new LinkedHashMap<>(); // guarded by this: key -> until
    private final Map<String, Instant> invalid =
            new LinkedHashMap<>(); // guarded by this: token digest -> until
    private final Map<InetAddress, Bucket> sources =
            new LinkedHashMap<>(16, 0.75f, true) { // guarded by this; least recently used first
                @Override
                protected boolean removeEldestEntry(Map.Entry<InetAddress, Bucket> eldest) {
                    return size() > MAX_SOURCES;
                }
            };
    private final Bucket all;

    public TokenAccess(KubernetesClient client, InstantSource clock) {
        this(client, clock, Budget.DEFAULT);
    }

    public TokenAccess(KubernetesClient client, InstantSource clock, Budget budget) {
        this.client = client;
        this.clock = clock;
        this.budget = budget;
        this.all = new Bucket(budget.total(), clock.instant());
    }

    @Override
    public Verdict check(String authorization, String verb, String path, InetAddress source) {
        if (authorization == null
                || authorization.length() <= BEARER.length()
                || !authorization.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
            return new Verdict(401, "a bearer token is required (Authorization: Bearer TOKEN)");
        }
        String token = authorization.substring(BEARER.length()).strip();
        String digest = digest(token);
        String key = digest + " " + verb + " " + path;
        if (remembered(granted, key)) return Verdict.ALLOWED;
        if (remembered(invalid, digest)) return new Verdict(401, "the token is not valid");
        Verdict held = spend(source);
        if (held != null) return held;
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
                // the API server's error is not sent on: it is the same for every bad token, and
                // the answer to a remembered one could not carry it
                remember(invalid, digest, REMEMBER_INVALID, MAX_INVALID);
                return new Verdict(401, "the token is not valid");
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
        remember(granted, key, REMEMBER, MAX_REMEMBERED);
        return Verdict.ALLOWED;
    }

    /**
     * Takes one review from {@code source}'s budget and from everyone's; null when there was one to
     * take, else the 429 to answer.
     */
    private synchronized Verdict spend(InetAddress source) {
        Instant now = clock.instant();
        Bucket mine = sources.computeIfAbsent(source, s -> new Bucket(budget.perSource(), now));
        long wait = mine.wait(now);
        String whose = source == null ? "this client" : source.getHostAddress();
        if (wait > 0) {
            if (mine.heldBack()) {
                LOG.warn(
                        "metrics: scrapes from {} asked more than {} token reviews a minute; the"
                                + " rest are answered 429 until its budget refills",
                        whose,
                        budget.perSource());
            }
            return tooMany("from " + whose + ": at most " + budget.perSource(), wait);
        }
        wait = all.wait(now);
        if (wait > 0) {
            if (all.heldBack()) {
                LOG.warn(
                        "metrics: scrapes asked more than {} token reviews a minute in all; the"
                                + " rest are answered 429 until the budget refills",
                        budget.total());
            }
            return tooMany("in all: at most " + budget.total(), wait);
        }
        mine.take();
        all.take();
        return null;
    }

    private static Verdict tooMany(String which, long waitNanos) {
        long seconds = Math.max(1, (waitNanos + 999_999_999L) / 1_000_000_000L);
        return new Verdict(
                429,
                "too many token reviews " + which + " a minute; try again in " + seconds + " s",
                seconds);
    }

    /**
     * A token bucket of reviews, {@code perMinute} a minute in bursts of as many, on the injected
     * clock; guarded by the TokenAccess.
     */
    private static final class Bucket {
        private final int perMinute;
        private double tokens;
        private Instant last;
        private boolean told; // whether the holding back was logged since the last review

        Bucket(int perMinute, Instant now) {
            this.perMinute = perMinute;
            this.tokens = perMinute;
            this.last = now;
        }

        /** 0 when a review may be taken now, else nanoseconds until one may. */
        long wait(Instant now) {
            if (now.isAfter(last)) {
                double nanos = Duration.between(last, now).toNanos();
                tokens = Math.min(perMinute, tokens + nanos * perMinute / 60e9);
                last = now;
            }
            if (tokens >= 1) return 0;
            return Math.max(1, (long) ((1 - tokens) * 60e9 / perMinute));
        }

        void take() {
            tokens -= 1;
            told = false;
        }

        /** True the first time in a row that it holds a review back: when to log it. */
        boolean heldBack() {
            if (told) return false;
            told = true;
            return true;
        }
    }

    private synchronized boolean remembered(Map<String, Instant> map, String key) {
        Instant until = map.get(key);
        if (until == null) return false;
        if (clock.instant().isBefore(until)) return true;
        map.remove(key);
        return false;
    }

    private synchronized void remember(
            Map<String, Instant> map, String key, Duration howLong, int max) {
        Instant now = clock.instant();
        map.values().removeIf(until -> !now.isBefore(until));
        if (map.size() >= max) map.remove(map.keySet().iterator().next());
        map.put(key, now.plus(howLong));
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
