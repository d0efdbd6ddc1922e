package io.upshift.testkit;

import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The embedded API server's authenticator: bearer tokens it issued, each naming a user, as a real
 * server's service-account and static-token authenticators do. A request without credentials is
 * anonymous ({@link User#ANONYMOUS}), as with kube-apiserver's default {@code
 * --anonymous-auth=true}; one with a token the server does not know, or with credentials of another
 * scheme, is not authenticated at all (401).
 */
final class Tokens {
    private final Map<String, User> users = new ConcurrentHashMap<>();
    private final Map<User, String> issued = new ConcurrentHashMap<>();

    /** The token of {@code user}: the same one for every client of the same user. */
    String issue(User user) {
        return issued.computeIfAbsent(
                user,
                u -> {
                    String token = "upshift-embedded-" + UUID.randomUUID();
                    users.put(token, u);
                    return token;
                });
    }

    /** The user a token names, or null when the server never issued it. */
    User user(String token) {
        return users.get(token);
    }

    /**
     * Who sent a request with this Authorization header (null when absent); null when it does not
     * authenticate.
     */
    User authenticate(String authorization) {
        if (authorization == null || authorization.isBlank()) return User.ANONYMOUS;
        String[] scheme = authorization.trim().split("\\s+", 2);
        if (scheme.length < 2 || !scheme[0].equalsIgnoreCase("Bearer")) return null;
        return users.get(scheme[1].trim());
    }
}
