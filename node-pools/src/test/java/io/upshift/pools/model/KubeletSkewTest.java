package io.upshift.pools.model;

import static org.assertj.core.api.Assertions.assertThat;

import io.upshift.base.version.SemVer;
import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * The kube-apiserver operator's kubelet skew rule (kubelet_version_skew_controller.go and its test,
 * main), in release versions.
 */
class KubeletSkewTest {

    static List<KubeletSkew.Node> nodes(String... versions) {
        return IntStream.range(0, versions.length)
                .mapToObj(
                        i ->
                                KubeletSkew.Node.of(
                                        String.format("test%03d", i), "worker", versions[i]))
                .toList();
    }

    static KubeletSkew.Verdict assess(String controlPlane, String... versions) {
        return KubeletSkew.assess(controlPlane, nodes(versions));
    }

    @Test
    void evenFourMinorsAllowTwoBehindOddOnlyOneAndFiveFollowsAThreeReleaseCycle() {
        assertThat(
                        Arrays.asList(18, 19, 20, 21, 22, 23).stream()
                                .map(
                                        m ->
                                                KubeletSkew.minSupportedSkew(
                                                        SemVer.parse("4." + m + ".0"))))
                .containsExactly(-2, -1, -2, -1, -2, -1);
        assertThat(
                        Arrays.asList(0, 1, 2, 3, 4, 5).stream()
                                .map(
                                        m ->
                                                KubeletSkew.minSupportedSkew(
                                                        SemVer.parse("5." + m + ".0"))))
                .containsExactly(-1, -2, -3, -1, -2, -3);
    }

    @Test
    void theEusPathWithPausedWorkers() {
        // 4.18 control plane, 4.18 workers: synced.
        KubeletSkew.Verdict synced = assess("4.18.1", "4.18.1", "4.18.1");
        assertThat(synced.status()).isEqualTo("True");
        assertThat(synced.reason()).isEqualTo(KubeletSkew.SYNCED);
        assertThat(synced.message())
                .isEqualTo(
                        "Kubelet and API server versions are synced. Compared by release for nodes"
                                + " test000 and test001, which report no kubelet version.");

        // 4.19 control plane, workers left on 4.18: one behind is supported on 4.19 and, two
        // behind, on 4.20 too.
        KubeletSkew.Verdict at419 = assess("4.19.0", "4.19.0", "4.18.1", "4.18.1");
        assertThat(at419.status()).isEqualTo("True");
        assertThat(at419.reason()).isEqualTo(KubeletSkew.SUPPORTED_NEXT_UPGRADE);
        assertThat(at419.message())
                .isEqualTo(
                        "Kubelet versions on nodes test001 and test002 are behind the expected API"
                            + " server version; nevertheless, they will continue to be supported in"
                            + " the next OpenShift version upgrade. Compared by release for nodes"
                            + " test001 and test002, which report no kubelet version.");

        // 4.20 control plane, workers still on 4.18: supported now, not on 4.21 (odd: one behind).
        KubeletSkew.Verdict at420 = assess("4.20.0", "4.20.0", "4.18.1", "4.18.1");
        assertThat(at420.status()).isEqualTo("False");
        assertThat(at420.reason()).isEqualTo(KubeletSkew.UNSUPPORTED_NEXT_UPGRADE);
        assertThat(at420.message())
                .isEqualTo(
                        "Kubelet versions on nodes test001 and test002 will not be supported in the"
                                + " next OpenShift version upgrade. Compared by release for nodes"
                                + " test001 and test002, which report no kubelet version.");
        assertThat(at420.lagging())
                .extracting(KubeletSkew.Node::name)
                .containsExactly("test001", "test002");

        // 4.19 control plane, a node on 4.17: already beyond what 4.19 supports.
        KubeletSkew.Verdict too = assess("4.19.0", "4.17.3");
        assertThat(too.status()).isEqualTo("False");
        assertThat(too.reason()).isEqualTo(KubeletSkew.UNSUPPORTED);
        assertThat(too.message())
                .isEqualTo(
                        "Unsupported Kubelet version (4.17.3) on node test000 is too far behind the"
                                + " control plane's release (4.19.0). Compared by release for node"
                                + " test000, which reports no kubelet version.");
    }

    @Test
    void oddToEvenOnlyOneBehindIsAllowedNow() {
        // 4.18 control plane with 4.17 nodes: supported (-1 >= -2), but 4.19 allows only one
        // behind.
        assertThat(assess("4.18.0", "4.17.9").reason())
                .isEqualTo(KubeletSkew.UNSUPPORTED_NEXT_UPGRADE);
        // 5.1 control plane, 5.0 nodes: 5.2 (an EUS) allows three behind.
        assertThat(assess("5.1.0", "5.0.0").reason()).isEqualTo(KubeletSkew.SUPPORTED_NEXT_UPGRADE);
        // 5.2 control plane, 5.0 nodes: 5.3 allows one behind.
        assertThat(assess("5.2.0", "5.0.0").reason())
                .isEqualTo(KubeletSkew.UNSUPPORTED_NEXT_UPGRADE);
    }

    @Test
    void messagesNameOneToThreeNodesAndCountMore() {
        assertThat(assess("4.19.0", "4.17.0", "4.17.0", "4.17.0").message())
                .isEqualTo(
                        "Unsupported Kubelet versions on nodes test000, test001, and test002 are"
                            + " too far behind the control plane's release (4.19.0). Compared by"
                            + " release for nodes test000, test001, and test002, which report no"
                            + " kubelet version.");
        assertThat(assess("4.19.0", "4.17.0", "4.17.0", "4.17.0", "4.17.0").message())
                .isEqualTo(
                        "Unsupported Kubelet versions on 4 nodes are too far behind the control"
                            + " plane's release (4.19.0). Compared by release for 4 nodes, which"
                            + " report no kubelet version.");
        assertThat(assess("4.20.0", "4.18.0", "4.18.0", "4.18.0", "4.18.0").message())
                .isEqualTo(
                        "Kubelet versions on 4 nodes will not be supported in the next OpenShift"
                            + " version upgrade. Compared by release for 4 nodes, which report no"
                            + " kubelet version.");
    }

    @Test
    void theMostSevereKindDecidesInUpstreamsOrder() {
        // unsupported beats ahead, which beats unknown, which beats unsupported-next-upgrade
        assertThat(assess("4.19.0", "4.20.0", "4.17.0").reason())
                .isEqualTo(KubeletSkew.UNSUPPORTED);
        KubeletSkew.Verdict ahead = assess("4.19.0", "4.20.0", "");
        assertThat(ahead.status()).isEqualTo("Unknown");
        assertThat(ahead.message())
                .isEqualTo(
                        "Unsupported Kubelet version (4.20.0) on node test000 is ahead of the"
                                + " control plane's release (4.19.0). Compared by release for node"
                                + " test000, which reports no kubelet version.");
        KubeletSkew.Verdict unknown = assess("4.20.0", "", "4.18.0");
        assertThat(unknown.status()).isEqualTo("Unknown");
        assertThat(unknown.reason()).isEqualTo(KubeletSkew.UNKNOWN);
        assertThat(unknown.message())
                .isEqualTo(
                        "Unable to determine the kubelet version on node test000: it reports no"
                            + " kubelet version and runs no config rendered by a known release");
        assertThat(assess("5.0.0", "4.23.0").message())
                .isEqualTo(
                        "Unable to determine the kubelet version on node test000: its release"
                                + " 4.23.0 is of another major version than the control plane's");
    }

    @Test
    void whereNodesReportTheirKubeletTheKubeletIsComparedWithTheApiServerNotTheRelease() {
        // A 4.20 control plane on Kubernetes 1.33: the node's config is of this very release, but
        // its kubelet is 1.31, two behind: allowed on 4.20, not on 4.21.
        KubeletSkew.Verdict v =
                KubeletSkew.assess(
                        "4.20.0",
                        "v1.33.2",
                        List.of(
                                new KubeletSkew.Node("worker-b", "worker", "v1.31.14", "4.20.0"),
                                new KubeletSkew.Node("worker-a", "worker", "v1.33.2", "4.20.0")));
        assertThat(v.status()).isEqualTo("False");
        assertThat(v.reason()).isEqualTo(KubeletSkew.UNSUPPORTED_NEXT_UPGRADE);
        assertThat(v.message())
                .isEqualTo(
                        "Kubelet version (1.31.14) on node worker-b will not be supported in the"
                                + " next OpenShift version upgrade. The API server's version is"
                                + " 1.33.2.");
        assertThat(v.lagging()).extracting(KubeletSkew.Node::name).containsExactly("worker-b");

        // Three behind on 4.21 (one allowed): already unsupported, naming both versions; an
        // OpenShift kubelet's build metadata is no obstacle.
        KubeletSkew.Verdict too =
                KubeletSkew.assess(
                        "4.21.0",
                        "v1.34.1",
                        List.of(new KubeletSkew.Node("w", "worker", "v1.31.6+a1b2c3d", "4.21.0")));
        assertThat(too.reason()).isEqualTo(KubeletSkew.UNSUPPORTED);
        assertThat(too.message())
                .isEqualTo(
                        "Unsupported Kubelet version (1.31.6+a1b2c3d) on node w is too far behind"
                                + " the target API server version (1.34.1).");

        // The same kubelets, synced with the API server, pass however far the releases differ.
        KubeletSkew.Verdict synced =
                KubeletSkew.assess(
                        "4.21.0",
                        "v1.34.1",
                        List.of(new KubeletSkew.Node("w", "worker", "v1.34.0", "4.17.0")));
        assertThat(synced.reason()).isEqualTo(KubeletSkew.SYNCED);
        assertThat(synced.message()).isEqualTo("Kubelet and API server versions are synced.");
    }

    @Test
    void nodesWithoutAKubeletVersionAreComparedByReleaseAndTheMessageSaysWhich() {
        KubeletSkew.Verdict mixed =
                KubeletSkew.assess(
                        "4.20.0",
                        "v1.33.2",
                        List.of(
                                new KubeletSkew.Node("a", "worker", "v1.31.1", "4.20.0"),
                                KubeletSkew.Node.of("b", "worker", "4.18.3")));
        assertThat(mixed.reason()).isEqualTo(KubeletSkew.UNSUPPORTED_NEXT_UPGRADE);
        assertThat(mixed.message())
                .isEqualTo(
                        "Kubelet versions on nodes a and b will not be supported in the next"
                                + " OpenShift version upgrade. The API server's version is 1.33.2."
                                + " Kubelet versions: 1.31.1. Compared by release for node b, which"
                                + " reports no kubelet version.");
        // The API server's version unknown: every node by release, and the message says why.
        KubeletSkew.Verdict noApi =
                KubeletSkew.assess(
                        "4.20.0",
                        "",
                        List.of(new KubeletSkew.Node("a", "worker", "v1.31.1", "4.18.0")));
        assertThat(noApi.reason()).isEqualTo(KubeletSkew.UNSUPPORTED_NEXT_UPGRADE);
        assertThat(noApi.message())
                .endsWith("Compared by release: the API server's version is unknown.");
        // A kubelet version that does not parse is unknown, as upstream's, not a release compare.
        KubeletSkew.Verdict garbled =
                KubeletSkew.assess(
                        "4.20.0",
                        "v1.33.2",
                        List.of(new KubeletSkew.Node("a", "worker", "latest", "4.20.0")));
        assertThat(garbled.reason()).isEqualTo(KubeletSkew.UNKNOWN);
        assertThat(garbled.message())
                .isEqualTo(
                        "Unable to determine the kubelet version on node a: kubelet version latest"
                                + " does not parse");
    }
}
