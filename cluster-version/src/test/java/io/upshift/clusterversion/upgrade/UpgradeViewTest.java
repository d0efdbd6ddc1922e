package io.upshift.clusterversion.upgrade;

import static io.upshift.clusterversion.upgrade.Cv.image;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * Bare {@code upgrade} against what bare {@code oc adm upgrade} prints for the same ClusterVersion.
 * oc has no example outputs for this view, so each expected text is written from the default case
 * of {@code Options.Run} in openshift/oc release-4.19 {@code pkg/cli/admin/upgrade/upgrade.go} (its
 * format strings, its tabwriter settings {@code NewWriter(out, 14, 2, 1, ' ', 0)}, its {@code
 * sortReleasesBySemanticVersions}); the branch each case takes is named on it.
 */
class UpgradeViewTest {

    static final String NOTE =
            "\n"
                + "Additional updates which are not recommended for your cluster configuration are"
                + " available, to view those re-run the command with --include-not-recommended.\n";

    /**
     * Failing=False (nothing printed), Progressing=False (its message alone), channel in spec with
     * the release's channels, upstream unset, available updates newest first with the 14-wide first
     * column, and a Recommended=False conditional update (the note without a qualifier).
     */
    @Test
    void healthyClusterWithUpdates() {
        var cv =
                Cv.at("4.18.1", image('1'))
                        .channel("stable-4.18", "candidate-4.18", "fast-4.18", "stable-4.18")
                        .condition("Failing", "False", "", "")
                        .condition("Progressing", "False", "", "Cluster version is 4.18.1")
                        .condition("RetrievedUpdates", "True", "", "")
                        .condition("Upgradeable", "True", "", "")
                        .available("4.18.2", image('2'))
                        .available("4.18.10", image('a'))
                        .available("4.18.9", image('9'))
                        .conditional(
                                "4.19.0",
                                image('b'),
                                "False",
                                "EtcdSlow",
                                "Etcd may be slow. https://issues.example/1")
                        .get();

        UpgradeView.Output o = UpgradeView.render(cv, false);

        assertThat(o.out())
                .isEqualTo(
                        """
                        Cluster version is 4.18.1

                        Upstream is unset, so the cluster will use an appropriate default.
                        Channel: stable-4.18 (available channels: candidate-4.18, fast-4.18, stable-4.18)

                        Recommended updates:

                          VERSION     IMAGE
                          4.18.10     quay.example/ocp/release@sha256:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa
                          4.18.9      quay.example/ocp/release@sha256:9999999999999999999999999999999999999999999999999999999999999999
                          4.18.2      quay.example/ocp/release@sha256:2222222222222222222222222222222222222222222222222222222222222222
                        """
                                + NOTE);
        assertThat(o.err()).isEmpty();
    }

    /**
     * Failing=True ("Failing=True:" and its indented multi-line message), Progressing=True ("info:
     * An upgrade is in progress. "), Upgradeable=False and ReleaseAccepted=False blocks, an
     * upstream, a channel the release lists no channels for, and no available updates while
     * RetrievedUpdates=False ("Cannot display", on stderr).
     */
    @Test
    void failingUpdateWithEveryBlock() {
        var cv =
                Cv.at("4.18.2", image('2'))
                        .channel("stable-4.18")
                        .upstream("https://updates.example/api/upgrades_info/v1/graph")
                        .condition(
                                "Failing",
                                "True",
                                "ClusterOperatorDegraded",
                                "Cluster operator etcd is degraded\n"
                                        + "EtcdMembersDegraded: 2 of 3 members are available")
                        .condition(
                                "Progressing",
                                "True",
                                "ClusterOperatorDegraded",
                                "Unable to apply 4.18.2: wait has exceeded 40 minutes for these"
                                        + " operators: etcd")
                        .condition(
                                "Upgradeable",
                                "False",
                                "AdminAckRequired",
                                "Kubernetes 1.32 removes APIs.\nSee the release notes.")
                        .condition(
                                "ReleaseAccepted",
                                "False",
                                "RetrievePayload",
                                "Retrieving payload failed version=\"4.18.3\"")
                        .condition(
                                "RetrievedUpdates",
                                "False",
                                "RemoteFailed",
                                "Unable to retrieve available updates: connection refused")
                        .get();

        UpgradeView.Output o = UpgradeView.render(cv, false);

        assertThat(o.out())
                .isEqualTo(
                        """
                        Failing=True:

                          Reason: ClusterOperatorDegraded
                          Message: Cluster operator etcd is degraded
                          EtcdMembersDegraded: 2 of 3 members are available

                        info: An upgrade is in progress. Unable to apply 4.18.2: wait has exceeded 40 minutes for these operators: etcd

                        Upgradeable=False

                          Reason: AdminAckRequired
                          Message: Kubernetes 1.32 removes APIs.
                          See the release notes.

                        ReleaseAccepted=False

                          Reason: RetrievePayload
                          Message: Retrieving payload failed version="4.18.3"

                        Upstream: https://updates.example/api/upgrades_info/v1/graph
                        Channel: stable-4.18
                        """);
        assertThat(o.err())
                .isEqualTo(
                        """
                        warning: Cannot display available updates:
                          Reason: RemoteFailed
                          Message: Unable to retrieve available updates: connection refused

                        """);
    }

    /**
     * No Failing and no Progressing condition (two warnings naming `oc describe clusterversion`),
     * no channel, no updates.
     */
    @Test
    void noConditionsNoChannelNoUpdates() {
        UpgradeView.Output o = UpgradeView.render(Cv.at("4.18.1", image('1')).get(), false);

        assertThat(o.out())
                .isEqualTo(
                        "\n"
                            + "No updates available. You may still upgrade to a specific release"
                            + " image with --to-image or wait for new updates to be available.\n");
        assertThat(o.err())
                .isEqualTo(
                        """
                        warning: No current Failing info, see `oc describe clusterversion` for more details.
                        warning: No current Progressing info, see `oc describe clusterversion` for more details.
                        """);
    }

    /**
     * Failing=Unknown is shown ("Failing=Unknown:"); a Progressing condition without a message is a
     * warning; updates are listed while RetrievedUpdates=False ("Cannot refresh"). The Failing
     * block's blank line, oc's empty line after the (missing) Progressing message and the one
     * before "Recommended updates:" make three blank lines. Versions: pre-releases below their
     * release (numeric identifiers below alphanumeric ones), versions that do not parse last; one
     * longer than the 14-column minimum widens the column to its width plus one.
     */
    @Test
    void staleUpdatesOddVersionsAndAWideColumn() {
        var cv =
                Cv.at("4.18.1", image('1'))
                        .condition(
                                "Failing",
                                "Unknown",
                                "ClusterVersionOperatorStarting",
                                "The cluster version operator is starting.")
                        .condition("Progressing", "False", "", "")
                        .condition(
                                "RetrievedUpdates",
                                "False",
                                "VersionNotFound",
                                "Unable to retrieve available updates: current version 4.18.1 not"
                                        + " found in the \"stable-4.18\" channel")
                        .available("not-a-version", image('n'))
                        .available("4.18.2", image('2'))
                        .available("4.19.0-0.nightly-2025-02-03-040506", image('0'))
                        .available("4.19.0-ec.3", image('e'))
                        .get();

        UpgradeView.Output o = UpgradeView.render(cv, false);

        assertThat(o.out())
                .isEqualTo(
                        """
                        Failing=Unknown:

                          Reason: ClusterVersionOperatorStarting
                          Message: The cluster version operator is starting.



                        Recommended updates:

                          VERSION                            IMAGE
                          4.19.0-ec.3                        quay.example/ocp/release@sha256:eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee
                          4.19.0-0.nightly-2025-02-03-040506 quay.example/ocp/release@sha256:0000000000000000000000000000000000000000000000000000000000000000
                          4.18.2                             quay.example/ocp/release@sha256:2222222222222222222222222222222222222222222222222222222222222222
                          not-a-version                      quay.example/ocp/release@sha256:nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn
                        """);
        assertThat(o.err())
                .isEqualTo(
                        """
                        warning: No current Progressing info, see `oc describe clusterversion` for more details.
                        warning: Cannot refresh available updates:
                          Reason: VersionNotFound
                          Message: Unable to retrieve available updates: current version 4.18.1 not found in the "stable-4.18" channel

                        """);
    }

    static Cv withConditionalUpdates() {
        return Cv.at("4.18.1", image('1'))
                .channel("fast-4.19", "fast-4.18", "fast-4.19")
                .condition("Failing", "False", "", "")
                .condition("Progressing", "False", "", "Cluster version is 4.18.1")
                .available("4.18.3", image('3'))
                .conditional(
                        "4.19.1",
                        image('c'),
                        "False",
                        "EtcdSlow",
                        "  Etcd may be slow on this platform.\nhttps://issues.example/ETCD-1\n")
                .conditional(
                        "4.18.3",
                        image('3'),
                        "True",
                        "AsExpected",
                        "The update is recommended, because none of the conditional update risks"
                                + " apply.")
                .conditional(
                        "4.19.0",
                        image('b'),
                        "Unknown",
                        "EvaluationFailed",
                        "Could not evaluate exposure to update risk EtcdSlow");
    }

    /**
     * --include-not-recommended: "Updates with known issues:", every update whose Recommended
     * status is not True, newest first, its message trimmed of surrounding space and indented.
     */
    @Test
    void includeNotRecommendedListsTheUpdatesWithKnownIssues() {
        UpgradeView.Output o = UpgradeView.render(withConditionalUpdates().get(), true);

        assertThat(o.out())
                .isEqualTo(
                        """
                        Cluster version is 4.18.1

                        Upstream is unset, so the cluster will use an appropriate default.
                        Channel: fast-4.19 (available channels: fast-4.18, fast-4.19)

                        Recommended updates:

                          VERSION     IMAGE
                          4.18.3      quay.example/ocp/release@sha256:3333333333333333333333333333333333333333333333333333333333333333

                        Updates with known issues:

                          Version: 4.19.1
                          Image: quay.example/ocp/release@sha256:cccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccc
                          Reason: EtcdSlow
                          Message: Etcd may be slow on this platform.
                          https://issues.example/ETCD-1

                          Version: 4.19.0
                          Image: quay.example/ocp/release@sha256:bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb
                          Reason: EvaluationFailed
                          Message: Could not evaluate exposure to update risk EtcdSlow
                        """);
        assertThat(o.err()).isEmpty();
    }

    /**
     * Without the flag: the note, qualified by the first not-recommended status that is neither
     * True nor False, quoted.
     */
    @Test
    void theNoteNamesAnUnknownRecommendation() {
        String out = UpgradeView.render(withConditionalUpdates().get(), false).out();

        assertThat(out)
                .endsWith(
                        "  4.18.3      "
                                + image('3')
                                + "\n\n"
                                + "Additional updates which are not recommended, or where the"
                                + " recommended status is \"Unknown\", for your cluster"
                                + " configuration are available, to view those re-run the command"
                                + " with --include-not-recommended.\n");
    }

    /** --include-not-recommended when every conditional update is recommended. */
    @Test
    void includeNotRecommendedWithNoneToShow() {
        var cv =
                Cv.at("4.18.1", image('1'))
                        .condition("Failing", "False", "", "")
                        .condition("Progressing", "False", "", "Cluster version is 4.18.1")
                        .conditional(
                                "4.18.3",
                                image('3'),
                                "True",
                                "AsExpected",
                                "The update is recommended.")
                        .get();

        assertThat(UpgradeView.render(cv, true).out())
                .isEqualTo(
                        """
                        Cluster version is 4.18.1

                        No updates available. You may still upgrade to a specific release image with --to-image or wait for new updates to be available.

                        No updates which are not recommended based on your cluster configuration are available.
                        """);
        assertThat(UpgradeView.render(cv, false).out()).doesNotContain("not recommended");
    }
}
