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
 * <p>As upstream, what is allowed follows the control plane's release, and what is compared is each
 * node's kubelet ({@code Node.status.nodeInfo.kubeletVersion}) with the API server's own version
 * ({@code /version}); an update of the cluster's release is assumed to move the API server one
 * minor. Where a node reports no kubelet version (or the API server's version is not known), the
 * release that rendered the config the node runs is compared with the control plane's release
 * instead (an OpenShift minor moves the Kubernetes minor by one, so the count is the same), and the
 * message says so. Versions of two different major versions cannot be counted this way: such a node
 * is reported as of unknown version.
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
     * One node.
     *
     * @param kubelet the version its kubelet reports ("" when it reports none)
     * @param release the release whose controller rendered the config it runs ("" when none)
     */
    public record Node(String name, String pool, String kubelet, String release) {
        /** A node that reports no kubelet version. */
        public static Node of(String name, String pool, String release) {
            return new Node(name, pool, "", release);
        }
    }

    /**
     * The verdict: the condition upstream sets, and the nodes that make it False (too far behind
     * now, or after the next minor update).
     */
    public record Verdict(String status, String reason, String message, List<Node> lagging) {}

    /**
     * A node as compared: the version shown, its skew in minors, whether by release, or why it
     * could not be compared.
     */
    private record Compared(Node node, String version, long skew, boolean byRelease, String why) {
        static Compared unknown(Node node, String why) {
            return new Compared(node, "", 0, false, why);
        }
    }

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

    /** As {@link #assess(String, String, List)} with the API server's version unknown. */
    public static Verdict assess(String controlPlane, List<Node> nodes) {
        return assess(controlPlane, "", nodes);
    }

    /**
     * @param controlPlane the control plane's release, whose minor sets what is allowed
     * @param apiServer the API server's version as {@code /version} gives it ({@code v1.32.13}), ""
     *     when unknown
     */
    public static Verdict assess(String controlPlane, String apiServer, List<Node> nodes) {
        SemVer cp = SemVer.parse(controlPlane);
        String api = withoutV(apiServer);
        SemVer apiVersion = SemVer.isValid(api) ? SemVer.parse(api) : null;
        int minSkew = minSupportedSkew(cp);
        int minSkewNext =
                minSupportedSkew(new SemVer(cp.major(), cp.minor() + 1, 0, List.of(), ""));
        List<Compared> errors = new ArrayList<>(),
                unsupported = new ArrayList<>(),
                limit = new ArrayList<>(),
                behindButOk = new ArrayList<>(),
                ahead = new ArrayList<>(),
                all = new ArrayList<>();
        for (Node n : nodes.stream().sorted(Comparator.comparing(Node::name)).toList()) {
            Compared c = compare(n, cp, apiVersion);
            all.add(c);
            if (!c.why().isEmpty()) errors.add(c);
            else if (c.skew() == 0) continue;
            else if (c.skew() < minSkew) unsupported.add(c);
            else if (c.skew() - 1 < minSkewNext)
                limit.add(c); // the next minor moves the control plane one further
            else if (c.skew() < 0) behindButOk.add(c);
            else ahead.add(c);
        }
        boolean apiKnown = apiVersion != null;
        // The most severe kind decides, in upstream's order.
        if (!unsupported.isEmpty()) {
            return new Verdict(
                    "False",
                    UNSUPPORTED,
                    unsupported(unsupported, "too far behind", api, apiKnown, controlPlane),
                    concat(unsupported, limit));
        }
        if (!ahead.isEmpty()) {
            return new Verdict(
                    "Unknown",
                    AHEAD,
                    unsupported(ahead, "ahead of", api, apiKnown, controlPlane),
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
                                        + errors.get(0).why();
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
                    kubelets(limit)
                            + " will not be supported in the next OpenShift version upgrade."
                            + versions(limit, api, apiKnown, true),
                    concat(limit, List.of()));
        }
        if (!behindButOk.isEmpty()) {
            boolean one = behindButOk.size() == 1;
            return new Verdict(
                    "True",
                    SUPPORTED_NEXT_UPGRADE,
                    kubelets(behindButOk)
                            + (one ? " is" : " are")
                            + " behind the expected API server version; nevertheless, "
                            + (one ? "it" : "they")
                            + " will continue to be supported in the next OpenShift version"
                            + " upgrade."
                            + versions(behindButOk, api, apiKnown, true),
                    List.of());
        }
        return new Verdict(
                "True",
                SYNCED,
                "Kubelet and API server versions are synced." + basis(all, apiKnown),
                List.of());
    }

    /**
     * The node's kubelet against the API server where both are known; else the release that
     * rendered its config against the control plane's.
     */
    private static Compared compare(Node n, SemVer cp, SemVer api) {
        if (!n.kubelet().isEmpty() && api != null) {
            String k = withoutV(n.kubelet());
            if (!SemVer.isValid(k))
                return Compared.unknown(n, "kubelet version " + n.kubelet() + " does not parse");
            SemVer kv = SemVer.parse(k);
            if (kv.major() != api.major())
                return Compared.unknown(
                        n,
                        "its kubelet "
                                + n.kubelet()
                                + " is of another major version than the API server's");
            return new Compared(n, k, kv.minor() - api.minor(), false, "");
        }
        if (n.release().isEmpty())
            return Compared.unknown(
                    n,
                    n.kubelet().isEmpty()
                            ? "it reports no kubelet version and runs no config rendered by a"
                                    + " known release"
                            : "the API server's version is unknown and it runs no config rendered"
                                    + " by a known release");
        if (!SemVer.isValid(n.release()))
            return Compared.unknown(n, "release version " + n.release() + " does not parse");
        SemVer rv = SemVer.parse(n.release());
        if (rv.major() != cp.major())
            return Compared.unknown(
                    n,
                    "its release "
                            + n.release()
                            + " is of another major version than the control plane's");
        return new Compared(n, n.release(), rv.minor() - cp.minor(), true, "");
    }

    /**
     * "Kubelet version (1.31.4) on node a", "Kubelet versions on nodes a and b", "Kubelet versions
     * on 4 nodes", as upstream words them.
     */
    private static String kubelets(List<Compared> group) {
        return switch (group.size()) {
            case 1 -> "Kubelet version (" + group.get(0).version() + ") on node " + names(group);
            case 2, 3 -> "Kubelet versions on nodes " + names(group);
            default -> "Kubelet versions on " + group.size() + " nodes";
        };
    }

    /**
     * "Unsupported Kubelet version (1.29.3) on node a is too far behind the target API server
     * version (1.32.0).", as upstream words it; the target is the control plane's release where the
     * first named node was compared by release.
     */
    private static String unsupported(
            List<Compared> group, String where, String api, boolean apiKnown, String controlPlane) {
        String target =
                group.get(0).byRelease()
                        ? "the control plane's release (" + controlPlane + ")"
                        : "the target API server version (" + api + ")";
        return "Unsupported "
                + kubelets(group)
                + (group.size() == 1 ? " is " : " are ")
                + where
                + " "
                + target
                + "."
                + versions(group, api, apiKnown, false);
    }

    /**
     * What a message on {@code group} does not say of the versions compared: the API server's
     * (where {@code nameApi}, for a message that does not name it), the kubelets' (for a group of
     * more than one, whose message names none), then which were compared by release ({@link
     * #basis}).
     */
    private static String versions(
            List<Compared> group, String api, boolean apiKnown, boolean nameApi) {
        List<String> kubelets =
                group.stream()
                        .filter(c -> !c.byRelease())
                        .map(Compared::version)
                        .distinct()
                        .sorted()
                        .toList();
        String out = "";
        if (nameApi && !kubelets.isEmpty()) out += " The API server's version is " + api + ".";
        if (group.size() > 1 && !kubelets.isEmpty())
            out += " Kubelet versions: " + String.join(", ", kubelets) + ".";
        return out + basis(group, apiKnown);
    }

    /**
     * Which of {@code group} were compared by release rather than by kubelet: "" when none.
     *
     * @param apiKnown whether the API server's version is known
     */
    private static String basis(List<Compared> group, boolean apiKnown) {
        List<Compared> byRelease = group.stream().filter(Compared::byRelease).toList();
        if (byRelease.isEmpty()) return "";
        if (!apiKnown && byRelease.stream().anyMatch(c -> !c.node().kubelet().isEmpty()))
            return " Compared by release: the API server's version is unknown.";
        return switch (byRelease.size()) {
            case 1 ->
                    " Compared by release for node "
                            + names(byRelease)
                            + ", which reports no kubelet version.";
            case 2, 3 ->
                    " Compared by release for nodes "
                            + names(byRelease)
                            + ", which report no kubelet version.";
            default ->
                    " Compared by release for "
                            + byRelease.size()
                            + " nodes, which report no kubelet version.";
        };
    }

    /** "1.32.13" for Kubernetes' "v1.32.13". */
    private static String withoutV(String version) {
        return version.startsWith("v") ? version.substring(1) : version;
    }

    /** "a", "a and b", "a, b, and c", as upstream joins node names. */
    static String names(List<Compared> nodes) {
        List<String> s = new ArrayList<>(nodes.stream().map(c -> c.node().name()).toList());
        if (s.size() == 2) return String.join(" and ", s);
        if (s.size() > 2) s.set(s.size() - 1, "and " + s.get(s.size() - 1));
        return String.join(", ", s);
    }

    private static List<Node> concat(List<Compared> a, List<Compared> b) {
        List<Node> out = new ArrayList<>();
        a.forEach(c -> out.add(c.node()));
        b.forEach(c -> out.add(c.node()));
        return out;
    }
}
