package io.upshift.clusterversion.upgrade;

import static io.upshift.clusterversion.upgrade.Cv.image;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The client-side guards, on the cases of oc's {@code TestCheckForUpgrade} (release-4.19 {@code
 * pkg/cli/admin/upgrade/upgrade_test.go}: no conditions, invalid, failing and progressing), with
 * this project's own ClusterVersions.
 */
class UpgradeGuardsTest {

    @Test
    void noConditionsNoConcerns() {
        assertThat(UpgradeGuards.check(Cv.at("4.18.1", image('1')).get())).isEmpty();
    }

    @Test
    void invalid() {
        var cv =
                Cv.at("4.18.1", image('1'))
                        .condition(
                                "Invalid",
                                "True",
                                "InvalidClusterVersion",
                                "spec.desiredUpdate.version is not a version.")
                        .get();
        assertThat(UpgradeGuards.check(cv))
                .contains(
                        "the cluster version object is invalid, you must correct the invalid state"
                                + " first:\n\n"
                                + "  Reason: InvalidClusterVersion\n"
                                + "  Message: spec.desiredUpdate.version is not a version.");
    }

    /**
     * Failing names the target (version, else image, else a plea for a bug report), then
     * Progressing, a blank line apart.
     */
    @Test
    void failingAndProgressing() {
        var cv =
                Cv.at("4.18.2", image('2'))
                        .condition("Progressing", "True", "UpdatingTo", "Updating to 4.18.2.")
                        .condition(
                                "Failing",
                                "True",
                                "OperatorsDegraded",
                                "The ingress operator is degraded.")
                        .get();
        assertThat(UpgradeGuards.check(cv))
                .contains(
                        "the cluster is experiencing an error reconciling \"4.18.2\":\n\n"
                                + "  Reason: OperatorsDegraded\n"
                                + "  Message: The ingress operator is degraded.\n\n"
                                + "the cluster is already upgrading:\n\n"
                                + "  Reason: UpdatingTo\n"
                                + "  Message: Updating to 4.18.2.");

        var byImage = Cv.at("", image('2')).condition("Failing", "True", "X", "Y").get();
        assertThat(UpgradeGuards.check(byImage))
                .contains(
                        "the cluster is experiencing an error reconciling \""
                                + image('2')
                                + "\":\n\n  Reason: X\n  Message: Y");
        var nothing = Cv.at("", "").condition("Failing", "True", "X", "Y").get();
        assertThat(UpgradeGuards.check(nothing))
                .contains(
                        "the cluster is experiencing an error reconciling \"ClusterVersion"
                                + " status.desired has neither a version nor image; please open a"
                                + " bug\":\n\n"
                                + "  Reason: X\n"
                                + "  Message: Y");
    }

    @Test
    void falseConditionsAreNoConcern() {
        var cv =
                Cv.at("4.18.1", image('1'))
                        .condition("Invalid", "False", "", "")
                        .condition("Failing", "False", "", "")
                        .condition("Progressing", "False", "", "Cluster version is 4.18.1")
                        .get();
        assertThat(UpgradeGuards.check(cv)).isEmpty();
    }
}
