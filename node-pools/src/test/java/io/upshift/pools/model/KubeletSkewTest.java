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
        assertThat(synced.message()).isEqualTo("Kubelet and API server versions are synced.");

        // 4.19 control plane, workers left on 4.18: one behind is supported on 4.19 and, two
        // behind, on 4.20 too.
        KubeletSkew.Verdict at419 = assess("4.19.0", "4.19.0", "4.18.1", "4.18.1");
        assertThat(at419.status()).isEqualTo("True");
        assertThat(at419.reason()).isEqualTo(KubeletSkew.SUPPORTED_NEXT_UPGRADE);
        assertThat(at419.message())
                .isEqualTo(
                        "Kubelet versions on nodes test001 and test002 are behind the expected API"
                            + " server version; nevertheless, they will continue to be supported in"
                            + " the next OpenShift version upgrade.");

        // 4.20 control plane, workers still on 4.18: supported now, not on 4.21 (odd: one behind).
        KubeletSkew.Verdict at420 = assess("4.20.0", "4.20.0", "4.18.1", "4.18.1");
        assertThat(at420.status()).isEqualTo("False");
        assertThat(at420.reason()).isEqualTo(KubeletSkew.UNSUPPORTED_NEXT_UPGRADE);
        assertThat(at420.message())
                .isEqualTo(
                        "Kubelet versions on nodes test001 and test002 will not be supported in the"
                                + " next OpenShift version upgrade.");
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
                                + " target API server version (4.19.0).");
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
                                + " too far behind the target API server version (4.19.0).");
        assertThat(assess("4.19.0", "4.17.0", "4.17.0", "4.17.0", "4.17.0").message())
                .isEqualTo(
                        "Unsupported Kubelet versions on 4 nodes are too far behind the target API"
                                + " server version (4.19.0).");
        assertThat(assess("4.20.0", "4.18.0", "4.18.0", "4.18.0", "4.18.0").message())
                .isEqualTo(
                        "Kubelet versions on 4 nodes will not be supported in the next OpenShift"
                                + " version upgrade.");
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
                                + " target API server version (4.19.0).");
        KubeletSkew.Verdict unknown = assess("4.20.0", "", "4.18.0");
        assertThat(unknown.status()).isEqualTo("Unknown");
        assertThat(unknown.reason()).isEqualTo(KubeletSkew.UNKNOWN);
        assertThat(unknown.message())
                .isEqualTo(
                        "Unable to determine the kubelet version on node test000: it runs no config"
                                + " rendered by a known release");
        assertThat(assess("5.0.0", "4.23.0").message())
                .isEqualTo(
                        "Unable to determine the kubelet version on node test000: its release"
                                + " 4.23.0 is of another major version than the control plane's");
    }
}
