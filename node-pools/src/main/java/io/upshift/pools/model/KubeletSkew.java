package io.upshift.pools.model;

import io.upshift.base.version.SemVer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Whether the nodes stay within the kubelet skew OpenShift supports, now and after the next minor
 * update: the rule, reasons and messages of the kube-apiserver operator's
 * KubeletVersionSkewController (openshift/cluster-kube-apiserver-operator,
 * pkg/operator/kubeletversionskewcontroller/kubelet_version_skew_controller.go, main). OpenShift
 * 4.y allows kubelets two minors behind the API server on even minors (the EUS releases) and one on
 * odd minors; 5.y follows a three-release EUS cycle (one, two, three behind). The next minor update
 * is refused when a node would be beyond what the next minor allows, so a pool paused across one
 * minor may stay paused for an EUS-to-EUS update, and no further.
 *
 * <p>Upstream compares each node's kubelet with the API server's Kubernetes version. Upshift does
 * not ship Kubernetes versions: a node's version is the release whose controller rendered the
 * config the node runs, and the control plane's the release of the pool controller; an OpenShift
 * minor moves the Kubernetes minor by one, so the skew is the same count. Minors of two different
 * major versions cannot be counted this way: such a node is reported as of unknown version.
 */
public final class KubeletSkew {
    /**
     * The kube-apiserver operator's condition type; its ClusterOperator shows it in Upgradeable
     * prefixed by this.
     */
    public static final String CONDITION = "KubeletMinorVersionUpgradeable";

    public static final String UNKNOWN = "KubeletVersionUnknown";
    public static final String SYNCED = "KubeletMinorVersionsSynced";
    public static final String SUPPORTED_NEXT_UPGRADE = "KubeletMinorVersionSupportedNextUpgrade";
    public static final String UNSUPPORTED_NEXT_UPGRADE =
            "KubeletMinorVersionUnsupportedNextUpgrade";
    public static final String UNSUPPORTED = "KubeletMinorVersionUnsupported";
    public static final String AHEAD = "KubeletMinorVersionAhead";

    /**
     * One node: its pool and its version ("" when it runs no config of a known release).
     *
     * @param unknownWhy why its version is unknown, shown as upstream shows a kubelet version it
     *     cannot parse
     */
    public record Node(String name, String pool, String version, String unknownWhy) {
        public static Node of(String name, String pool, String version) {
            return new Node(
                    name,
                    pool,
                    version,
                    version.isEmpty() ? "it runs no config rendered by a known release" : "");
        }
    }

    /**
     * The verdict: the condition upstream sets, and the nodes that make it False (too far behind
     * now, or after the next minor update).
     */
    public record Verdict(String status, String reason, String message, List<Node> lagging) {}

    private KubeletSkew() {}

    /**
     * How far behind (a negative number of minors) kubelets may be on a control plane of version
     * {@code v}.
     */
    public static int minSupportedSkew(SemVer v) {
        if (v.major() == 4)
            return v.minor() % 2 == 0 ? -2 : -1; // 4.18, 4.20, 4.22 ...: two; 4.19, 4.21 ...: one
        return switch ((int) (v.minor() % 3)) { // 5.2, 5.5, 5.8 ... are the EUS releases
            case 0 -> -1;
            case 1 -> -2;
            default -> -3;
        };
    }

    public static Verdict assess(String controlPlane, List<Node> nodes) {
        SemVer cp = SemVer.parse(controlPlane);
        int minSkew = minSupportedSkew(cp);
        int minSkewNext =
                minSupportedSkew(new SemVer(cp.major(), cp.minor() + 1, 0, List.of(), ""));
        List<Node> errors = new ArrayList<>(),
                unsupported = new ArrayList<>(),
                limit = new ArrayList<>(),
                behindButOk = new ArrayList<>(),
                ahead = new ArrayList<>();
        for (Node n : nodes.stream().sorted(Comparator.comparing(Node::name)).toList()) {
            String why = n.unknownWhy();
            if (why.isEmpty() && !SemVer.isValid(n.version()))
                why = "release version " + n.version() + " does not parse";
            if (why.isEmpty() && SemVer.parse(n.version()).major() != cp.major()) {
                why =
                        "its release "
                                + n.version()
                                + " is of another major version than the control plane's";
            }
            if (!why.isEmpty()) {
                errors.add(new Node(n.name(), n.pool(), n.version(), why));
                continue;
            }
            long skew = SemVer.parse(n.version()).minor() - cp.minor();
            if (skew == 0) continue;
            if (skew < minSkew) unsupported.add(n);
            else if (skew - 1 < minSkewNext)
                limit.add(n); // the next minor moves the control plane one further
            else if (skew < 0) behindButOk.add(n);
            else ahead.add(n);
        }
        // The most severe kind decides, in upstream's order.
        if (!unsupported.isEmpty()) {
            return new Verdict(
                    "False",
                    UNSUPPORTED,
                    switch (unsupported.size()) {
                        case 1 ->
                                "Unsupported Kubelet version ("
                                        + unsupported.get(0).version()
                                        + ") on node "
                                        + names(unsupported)
                                        + " is too far behind the target API server version ("
                                        + controlPlane
                                        + ").";
                        case 2, 3 ->
                                "Unsupported Kubelet versions on nodes "
                                        + names(unsupported)
                                        + " are too far behind the target API server version ("
                                        + controlPlane
                                        + ").";
                        default ->
                                "Unsupported Kubelet versions on "
                                        + unsupported.size()
                                        + " nodes are too far behind the target API server version"
                                        + " ("
                                        + controlPlane
                                        + ").";
                    },
                    concat(unsupported, limit));
        }
        if (!ahead.isEmpty()) {
            return new Verdict(
                    "Unknown",
                    AHEAD,
                    switch (ahead.size()) {
                        case 1 ->
                                "Unsupported Kubelet version ("
                                        + ahead.get(0).version()
                                        + ") on node "
                                        + names(ahead)
                                        + " is ahead of the target API server version ("
                                        + controlPlane
                                        + ").";
                        case 2, 3 ->
                                "Unsupported Kubelet versions on nodes "
                                        + names(ahead)
                                        + " are ahead of the target API server version ("
                                        + controlPlane
                                        + ").";
                        default ->
                                "Unsupported Kubelet versions on "
                                        + ahead.size()
                                        + " nodes are ahead of the target API server version ("
                                        + controlPlane
                                        + ").";
                    },
                    List.of());
        }
        if (!errors.isEmpty()) {
            return new Verdict(
                    "Unknown",
                    UNKNOWN,
                    switch (errors.size()) {
                        case 1 ->
                                "Unable to determine the kubelet version on node "
                                        + names(errors)
                                        + ": "
                                        + errors.get(0).unknownWhy();
                        case 2, 3 ->
                                "Unable to determine the kubelet version on nodes "
                                        + names(errors)
                                        + ".";
                        default ->
                                "Unable to determine the kubelet version on "
                                        + errors.size()
                                        + " nodes.";
                    },
                    List.of());
        }
        if (!limit.isEmpty()) {
            return new Verdict(
                    "False",
                    UNSUPPORTED_NEXT_UPGRADE,
                    switch (limit.size()) {
                        case 1 ->
                                "Kubelet version ("
                                        + limit.get(0).version()
                                        + ") on node "
                                        + names(limit)
                                        + " will not be supported in the next OpenShift version"
                                        + " upgrade.";
                        case 2, 3 ->
                                "Kubelet versions on nodes "
                                        + names(limit)
                                        + " will not be supported in the next OpenShift version"
                                        + " upgrade.";
                        default ->
                                "Kubelet versions on "
                                        + limit.size()
                                        + " nodes will not be supported in the next OpenShift"
                                        + " version upgrade.";
                    },
                    limit);
        }
        if (!behindButOk.isEmpty()) {
            return new Verdict(
                    "True",
                    SUPPORTED_NEXT_UPGRADE,
                    switch (behindButOk.size()) {
                        case 1 ->
                                "Kubelet version ("
                                        + behindButOk.get(0).version()
                                        + ") on node "
                                        + names(behindButOk)
                                        + " is behind the expected API server version;"
                                        + " nevertheless, it will continue to be supported in the"
                                        + " next OpenShift version upgrade.";
                        case 2, 3 ->
                                "Kubelet versions on nodes "
                                        + names(behindButOk)
                                        + " are behind the expected API server version;"
                                        + " nevertheless, they will continue to be supported in the"
                                        + " next OpenShift version upgrade.";
                        default ->
                                "Kubelet versions on "
                                        + behindButOk.size()
                                        + " nodes are behind the expected API server version;"
                                        + " nevertheless, they will continue to be supported in the"
                                        + " next OpenShift version upgrade.";
                    },
                    List.of());
        }
        return new Verdict(
                "True", SYNCED, "Kubelet and API server versions are synced.", List.of());
    }

    /** "a", "a and b", "a, b, and c", as upstream joins node names. */
    static String names(List<Node> nodes) {
        List<String> s = new ArrayList<>(nodes.stream().map(Node::name).toList());
        if (s.size() == 2) return String.join(" and ", s);
        if (s.size() > 2) s.set(s.size() - 1, "and " + s.get(s.size() - 1));
        return String.join(", ", s);
    }

    private static List<Node> concat(List<Node> a, List<Node> b) {
        List<Node> out = new ArrayList<>(a);
        out.addAll(b);
        return out;
    }
}
