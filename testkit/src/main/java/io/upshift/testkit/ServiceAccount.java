package io.upshift.testkit;

import java.util.List;

/**
 * A ServiceAccount a client of the embedded API server acts as ({@link
 * EmbeddedApiServer#client(String, ServiceAccount)}), named as a real API server names its tokens'
 * users: {@code system:serviceaccount:<namespace>:<name>}, in the groups {@code
 * system:serviceaccounts}, {@code system:serviceaccounts:<namespace>} and {@code
 * system:authenticated}.
 */
public record ServiceAccount(String namespace, String name) {
    /**
     * The cluster-version and UpdateStatus controllers ({@code upshift operator}), as deploy/ runs
     * them.
     */
    public static final ServiceAccount UPSHIFT = of("openshift-cluster-version", "upshift");

    /**
     * The pool controller ({@code upshift pools}), as deploy/ runs it, where OpenShift runs its
     * machine-config operator.
     */
    public static final ServiceAccount MACHINE_CONFIG_OPERATOR =
            of("openshift-machine-config-operator", "machine-config-operator");

    /**
     * The node agent ({@code upshift agent}), as deploy/ runs it, where OpenShift runs its
     * machine-config daemon.
     */
    public static final ServiceAccount MACHINE_CONFIG_DAEMON =
            of("openshift-machine-config-operator", "machine-config-daemon");

    /** Whoever runs {@code upshift rehearse} against the cluster: get and list only. */
    public static final ServiceAccount REHEARSE =
            of("openshift-cluster-version", "upshift-rehearse");

    public static ServiceAccount of(String namespace, String name) {
        return new ServiceAccount(namespace, name);
    }

    /** The user name its tokens authenticate as. */
    public String username() {
        return "system:serviceaccount:" + namespace + ":" + name;
    }

    /** The user its tokens authenticate as. */
    User user() {
        return new User(
                username(),
                List.of(
                        "system:serviceaccounts",
                        "system:serviceaccounts:" + namespace,
                        User.AUTHENTICATED));
    }

    @Override
    public String toString() {
        return namespace + "/" + name;
    }
}
