package io.upshift.testkit;

import java.util.ArrayList;
import java.util.List;

/**
 * Where a test that depends on the API server's semantics gets its server: the real kube-apiserver
 * of this JVM's control plane ({@link RealApiServer}) when the Kubernetes binaries are found
 * ({@link KubeBinaries}), otherwise the embedded one ({@link EmbeddedApiServer}). Which one it is,
 * the run says once, in one line:
 *
 * <pre>
 * API-semantics tests: on kube-apiserver v1.32.13 from /root/.cache/upshift-kube-… (started in 4.1 s)
 * API-semantics tests: on the embedded API server (no Kubernetes binaries: set KUBE_BIN or put ../shared/kube beside the repository)
 * </pre>
 *
 * {@code -Dupshift.apiserver=embedded} asks for the embedded one whatever is installed (to compare
 * the two on the same tests).
 */
public final class ApiServers {
    private static boolean said;

    private final List<String> crds = new ArrayList<>();
    private boolean controllers;

    private ApiServers() {}

    /** An API server with none of Upshift's CRDs and no controllers. */
    public static ApiServer start() {
        return new ApiServers().open();
    }

    /** An API server with these CRDs of deploy/crds installed and Established. */
    public static ApiServer start(String... crds) {
        return with(crds).open();
    }

    /**
     * A request for a server with these CRDs of deploy/crds (e.g. {@code
     * clusterversions.config.openshift.io}).
     */
    public static ApiServers with(String... crds) {
        ApiServers request = new ApiServers();
        request.crds.addAll(List.of(crds));
        return request;
    }

    /**
     * With kube-controller-manager's controllers on a real server (Deployments, ReplicaSets, Jobs,
     * garbage collection, namespace deletion, ServiceAccounts, PodDisruptionBudgets' status): what
     * the simulated cluster plays on the embedded one.
     */
    public ApiServers controllers() {
        this.controllers = true;
        return this;
    }

    public ApiServer open() {
        ControlPlane plane = embeddedAsked() ? null : ControlPlane.shared();
        say(plane);
        if (plane == null) {
            EmbeddedApiServer embedded = new EmbeddedApiServer().strict();
            if (!crds.isEmpty()) embedded.installCrds(crds.toArray(String[]::new));
            return embedded;
        }
        return new RealApiServer(plane, controllers, List.copyOf(crds));
    }

    /** Whether the tests of this JVM run on a real kube-apiserver. */
    public static boolean real() {
        return !embeddedAsked() && ControlPlane.shared() != null;
    }

    private static boolean embeddedAsked() {
        return "embedded".equals(System.getProperty("upshift.apiserver"));
    }

    private static synchronized void say(ControlPlane plane) {
        if (said) return;
        said = true;
        String line;
        if (plane != null) {
            line =
                    "API-semantics tests: on kube-apiserver "
                            + plane.binaries.version()
                            + " from "
                            + plane.binaries.dir()
                            + String.format(
                                    " (started in %.1f s)", plane.startTime.toMillis() / 1000.0);
        } else if (embeddedAsked()) {
            line = "API-semantics tests: on the embedded API server (-Dupshift.apiserver=embedded)";
        } else {
            line =
                    "API-semantics tests: on the embedded API server ("
                            + ControlPlane.absence().reason()
                            + ")";
        }
        System.out.println(line);
    }
}
