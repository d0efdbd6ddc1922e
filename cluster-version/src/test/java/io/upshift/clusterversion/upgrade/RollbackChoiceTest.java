package io.upshift.clusterversion.upgrade;

import static io.upshift.clusterversion.upgrade.Cv.image;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.openshift.api.model.config.v1.ClusterVersion;
import io.upshift.api.json.Mappers;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Rollback as oc 4.19 chooses and refuses it. The cases follow oc's {@code TestRollback}
 * (release-4.19 {@code pkg/cli/admin/upgrade/rollback/rollback_test.go}: installing, installed,
 * update in progress, after an architecture pivot, after a minor update, after a patch update,
 * after a re-targeted partial update), on this project's own ClusterVersions; the messages are
 * written from {@code rollback.go}'s format strings.
 */
class RollbackChoiceTest {

    static Cv settledAt(String version, String image) {
        return Cv.at(version, image)
                .condition("Progressing", "False", "AsExpected", "Cluster version is " + version);
    }

    static String refusal(ClusterVersion cv) {
        Decision d = Rollback.decide(cv, "upshift upgrade");
        assertThat(d).isInstanceOf(Decision.Refused.class);
        assertThat(d.warnings()).isEmpty();
        return ((Decision.Refused) d).message();
    }

    static JsonNode requested(ClusterVersion cv) throws Exception {
        Decision d = Rollback.decide(cv, "upshift upgrade");
        assertThat(d).isInstanceOf(Decision.Patch.class);
        return Mappers.JSON.readTree(((Decision.Patch) d).body());
    }

    @Test
    void installingOrInstalledThereIsNothingToGoBackTo() {
        ClusterVersion installing =
                Cv.at("4.18.1", image('1'))
                        .condition("Progressing", "True", "", "Working towards 4.18.1")
                        .history("Partial", "4.18.1", image('1'))
                        .get();
        assertThat(refusal(installing))
                .isEqualTo(
                        "no previous version found in ClusterVersion's status.history besides the"
                                + " current 4.18.1 ("
                                + image('1')
                                + ").");
        assertThat(
                        refusal(
                                settledAt("4.18.1", image('1'))
                                        .history("Completed", "4.18.1", image('1'))
                                        .get()))
                .isEqualTo(
                        "no previous version found in ClusterVersion's status.history besides the"
                                + " current 4.18.1 ("
                                + image('1')
                                + ").");
    }

    @Test
    void notWhileAnUpdateIsProgressing() {
        ClusterVersion updating =
                Cv.at("4.18.2", image('2'))
                        .condition(
                                "Progressing",
                                "True",
                                "ClusterOperatorUpdating",
                                "Working towards 4.18.2")
                        .history("Partial", "4.18.2", image('2'))
                        .history("Completed", "4.18.1", image('1'))
                        .get();
        assertThat(refusal(updating))
                .isEqualTo(
                        "unable to rollback while an update is Progressing=True:"
                                + " ClusterOperatorUpdating: Working towards 4.18.2.");

        ClusterVersion unknown =
                Cv.at("4.18.2", image('2'))
                        .history("Completed", "4.18.2", image('2'))
                        .history("Completed", "4.18.1", image('1'))
                        .get();
        assertThat(refusal(unknown))
                .isEqualTo(
                        "no current Progressing info, see `oc describe clusterversion` for more"
                                + " details.\n");
    }

    /**
     * Same version, new image (single- to multi-architecture): the previous entry is not older, so
     * it is an update.
     */
    @Test
    void afterAnArchitecturePivot() {
        String multi = "quay.example/ocp/release-multi@sha256:" + "7".repeat(64);
        ClusterVersion cv =
                settledAt("4.18.1", multi)
                        .history("Completed", "4.18.1", multi)
                        .history("Completed", "4.18.1", image('1'))
                        .get();
        assertThat(refusal(cv))
                .isEqualTo(
                        "previous version 4.18.1 ("
                                + image('1')
                                + ") is greater than or equal to current version 4.18.1 ("
                                + multi
                                + ").  Use 'upshift upgrade ...' to update, and not this rollback"
                                + " command.");
    }

    @Test
    void notAcrossMinorVersions() {
        ClusterVersion cv =
                settledAt("4.19.0", image('9'))
                        .history("Completed", "4.19.0", image('9'))
                        .history("Completed", "4.18.3", image('3'))
                        .get();
        assertThat(refusal(cv))
                .isEqualTo(
                        "4.18.3 is less than the current target 4.19.0 and matches the cluster's"
                            + " previous version, but rollbacks that change major or minor versions"
                            + " are not recommended.");
    }

    @Test
    void afterAPatchUpdate() throws Exception {
        ClusterVersion cv =
                settledAt("4.18.2", image('2'))
                        .history("Completed", "4.18.2", image('2'))
                        .history("Completed", "4.18.1", image('1'))
                        .get();
        assertThat(requested(cv).toString())
                .isEqualTo(
                        "{\"spec\":{\"desiredUpdate\":{\"architecture\":\"\",\"version\":\"4.18.1\",\"image\":\""
                                + image('1')
                                + "\",\"force\":false}}}");
        assertThat(((Decision.Patch) Rollback.decide(cv, "upshift upgrade")).done().apply(cv))
                .isEqualTo("Requested rollback from 4.18.2 to 4.18.1\n");
    }

    /**
     * 4.18.1 -> 4.18.2, retargeted before it completed -> 4.18.3: back to 4.18.2, the release the
     * cluster was last attempting, not to 4.18.1, the last one it completed.
     */
    @Test
    void afterARetargetBackToThePartialRelease() throws Exception {
        ClusterVersion cv =
                settledAt("4.18.3", image('3'))
                        .history("Completed", "4.18.3", image('3'))
                        .history("Partial", "4.18.2", image('2'))
                        .history("Completed", "4.18.1", image('1'))
                        .get();
        JsonNode update = requested(cv).path("spec").path("desiredUpdate");
        assertThat(List.of(update.path("version").asText(), update.path("image").asText()))
                .containsExactly("4.18.2", image('2'));
        assertThat(((Decision.Patch) Rollback.decide(cv, "upshift upgrade")).done().apply(cv))
                .isEqualTo("Requested rollback from 4.18.3 to 4.18.2\n");
    }

    /**
     * The current target can be newer than every history entry (the update has not started): the
     * first entry is then the one.
     */
    @Test
    void theFirstEntryThatDiffersFromTheTarget() throws Exception {
        ClusterVersion cv =
                settledAt("4.18.3", image('3'))
                        .history("Partial", "4.18.2", image('2'))
                        .history("Completed", "4.18.1", image('1'))
                        .get();
        assertThat(requested(cv).path("spec").path("desiredUpdate").path("version").asText())
                .isEqualTo("4.18.2");
    }

    @Test
    void versionsThatDoNotParse() {
        assertThat(refusal(settledAt("4.18", image('1')).get()))
                .isEqualTo(
                        "invalid ClusterVersion status.desired.version: No Major.Minor.Patch"
                                + " elements found");
        ClusterVersion cv =
                settledAt("4.18.2", image('2'))
                        .history("Completed", "4.18.2", image('2'))
                        .history("Completed", "", image('1'))
                        .get();
        assertThat(refusal(cv))
                .isEqualTo("previous version \"\" invalid SemVer: Version string empty");
    }
}
