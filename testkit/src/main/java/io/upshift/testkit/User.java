package io.upshift.testkit;

import java.util.List;

/**
 * Who a request is from, as the API server's authenticator says: a user name and the groups it is
 * in.
 */
public record User(String name, List<String> groups) {
    public static final String AUTHENTICATED = "system:authenticated";
    public static final String UNAUTHENTICATED = "system:unauthenticated";

    /** The group whose members may do anything: the API server allows them before asking RBAC. */
    public static final String MASTERS = "system:masters";

    /** A request without credentials, as kube-apiserver's anonymous authenticator names it. */
    public static final User ANONYMOUS = new User("system:anonymous", List.of(UNAUTHENTICATED));

    public User {
        groups = List.copyOf(groups);
    }

    boolean in(String group) {
        return groups.contains(group);
    }
}
