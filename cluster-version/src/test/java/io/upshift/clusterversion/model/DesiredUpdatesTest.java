package io.upshift.clusterversion.model;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.openshift.api.model.config.v1.ClusterVersion;
import io.fabric8.openshift.api.model.config.v1.ClusterVersionBuilder;
import io.fabric8.openshift.api.model.config.v1.ClusterVersionStatus;
import io.fabric8.openshift.api.model.config.v1.ReleaseBuilder;
import io.fabric8.openshift.api.model.config.v1.UpdateBuilder;
import io.upshift.releases.capability.CapabilitySets;
import io.upshift.releases.taskgraph.Mode;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A version alone names an available update, as upstream resolves it; anything else is Invalid and
 * changes nothing.
 */
class DesiredUpdatesTest {

    /**
     * At 4.18.1 (after 4.18.0): 4.18.2 available; 4.18.3 only a conditional update whose risk
     * applies.
     */
    static ClusterVersion cv(String version, String image) {
        return new ClusterVersionBuilder()
                .withNewMetadata()
                .withName("version")
                .withGeneration(2L)
                .endMetadata()
                .withNewSpec()
                .withClusterID("c")
                .withDesiredUpdate(
                        new UpdateBuilder().withVersion(version).withImage(image).build())
                .endSpec()
                .withNewStatus()
                .withNewDesired()
                .withVersion("4.18.1")
                .withImage("img-4.18.1")
                .endDesired()
                .addNewHistory()
                .withVersion("4.18.1")
                .withImage("img-4.18.1")
                .withState("Completed")
                .endHistory()
                .addNewHistory()
                .withVersion("4.18.0")
                .withImage("img-4.18.0")
                .withState("Completed")
                .endHistory()
                .addNewAvailableUpdate()
                .withVersion("4.18.2")
                .withImage("img-4.18.2")
                .endAvailableUpdate()
                .addNewConditionalUpdate()
                .withNewRelease()
                .withVersion("4.18.3")
                .withImage("img-4.18.3")
                .endRelease()
                .addToConditions(
                        new ConditionBuilder()
                                .withType("Recommended")
                                .withStatus("False")
                                .withReason("SomeRisk")
                                .withMessage("m")
                                .withLastTransitionTime("2026-01-01T00:00:00Z")
                                .build())
                .endConditionalUpdate()
                .endStatus()
                .build();
    }

    /**
     * --to-multi-arch (architecture Multi, the current version): the current version's release
     * among the available updates, the multi-architecture one the graph offers alone; none there
     * yet (or the graph has none): the current release stays; a cluster already Multi is asked
     * nothing new.
     */
    @Test
    void multiAskedForIsTheCurrentVersionsMultiArchitectureRelease() {
        ClusterVersion cv = cv("4.18.1", null);
        cv.getSpec().getDesiredUpdate().setArchitecture("Multi");
        // before the graph answered for multi: the current release
        assertThat(DesiredUpdates.resolve(cv, null).target().image()).isEqualTo("img-4.18.1");
        assertThat(DesiredUpdates.resolve(cv, null).valid()).isTrue();

        cv.getStatus()
                .setAvailableUpdates(
                        List.of(
                                new ReleaseBuilder()
                                        .withVersion("4.18.1")
                                        .withImage("img-4.18.1-multi")
                                        .withArchitecture("Multi")
                                        .build()));
        var target = DesiredUpdates.resolve(cv, null).target();
        assertThat(target.version()).isEqualTo("4.18.1");
        assertThat(target.image()).isEqualTo("img-4.18.1-multi");
        // once the cluster runs the multi-architecture release, its graph's edges are the updates
        cv.getStatus().getDesired().setImage("img-4.18.1-multi");
        cv.getStatus().getDesired().setArchitecture("Multi");
        cv.getStatus()
                .setAvailableUpdates(
                        List.of(
                                new ReleaseBuilder()
                                        .withVersion("4.18.2")
                                        .withImage("img-4.18.2-multi")
                                        .build()));
        assertThat(DesiredUpdates.resolve(cv, null).target().image()).isEqualTo("img-4.18.1-multi");
    }

    @Test
    void aVersionAloneIsLookedUpAmongTheAvailableUpdatesOnly() {
        assertThat(DesiredUpdates.resolve(cv("4.18.2", null), null).target().image())
                .isEqualTo("img-4.18.2");

        DesiredUpdates.Resolution conditional = DesiredUpdates.resolve(cv("4.18.3", null), null);
        assertThat(conditional.invalidReason()).isEqualTo("InvalidClusterVersion");
        assertThat(conditional.invalidMessage())
                .isEqualTo(
                        "The cluster version is invalid: spec.desiredUpdate.version: Invalid value:"
                                + " \"4.18.3\": when image is empty the update must be an available"
                                + " update");
        assertThat(conditional.target().image())
                .as("the current release stays the target")
                .isEqualTo("img-4.18.1");
        // named by image, the conditional update is what is asked for
        assertThat(DesiredUpdates.resolve(cv("4.18.3", "img-4.18.3"), null).target().image())
                .isEqualTo("img-4.18.3");
    }

    @Test
    void anImageAloneIsKnownByTheVersionStatusListsItUnder() {
        ClusterVersion c = cv(null, "img-4.18.0");
        java.util.function.Function<String, String> known =
                image ->
                        DesiredUpdates.knownVersion(
                                new DesiredUpdates.Target("", image, false, List.of()), c);
        assertThat(known.apply("img-4.18.0")).as("history: a rollback").isEqualTo("4.18.0");
        assertThat(known.apply("img-4.18.2")).as("an available update").isEqualTo("4.18.2");
        assertThat(known.apply("img-4.18.3")).as("a conditional update").isEqualTo("4.18.3");
        assertThat(known.apply("elsewhere.example/img@sha256:00")).isEmpty();
        assertThat(
                        DesiredUpdates.knownVersion(
                                new DesiredUpdates.Target("4.18.9", "img-4.18.0", false, List.of()),
                                c))
                .as("the version asked for wins")
                .isEqualTo("4.18.9");
        ClusterVersion byDigest =
                new ClusterVersionBuilder(c)
                        .editStatus()
                        .addNewAvailableUpdate()
                        .withVersion("4.18.4")
                        .withImage("quay.example/ocp/release@sha256:4444")
                        .endAvailableUpdate()
                        .endStatus()
                        .build();
        assertThat(
                        DesiredUpdates.knownVersion(
                                new DesiredUpdates.Target(
                                        "", "mirror.example/ocp@sha256:4444", false, List.of()),
                                byDigest))
                .as("the same digest from a mirror")
                .isEqualTo("4.18.4");
    }

    @Test
    void invalidRequestsAreWordedAsUpstreamsFieldErrors() {
        assertThat(DesiredUpdates.resolve(cv("four", null), null).invalidMessage())
                .isEqualTo(
                        "The cluster version is invalid: spec.desiredUpdate.version: Invalid value:"
                                + " \"four\": must be a semantic version (1.2.3[-...])");
        assertThat(DesiredUpdates.resolve(cv(null, null), null).invalidMessage())
                .isEqualTo(
                        "The cluster version is invalid: spec.desiredUpdate: Required value: must"
                                + " specify architecture, version, or image");
        ClusterVersion twice = cv("4.18.2", null);
        twice.getStatus()
                .getAvailableUpdates()
                .add(new ReleaseBuilder().withVersion("4.18.2").withImage("img-other").build());
        assertThat(DesiredUpdates.resolve(twice, null).invalidMessage())
                .endsWith(
                        "there are multiple possible payloads for this version, specify the exact"
                                + " image");
    }

    @Test
    void aVersionInHistoryButNotAvailableIsValidAndKeepsTheCurrentRelease() {
        DesiredUpdates.Resolution previous = DesiredUpdates.resolve(cv("4.18.0", null), null);
        assertThat(previous.valid()).isTrue();
        assertThat(previous.target().image()).isEqualTo("img-4.18.1");
    }

    @Test
    void statusShowsInvalidOnlyWhileTheSpecIsInvalidAndProgressingSaysSo() {
        Instant t = Instant.parse("2026-11-22T10:00:00Z");
        ClusterVersion cv = cv("4.18.3", null);
        SyncStatus done =
                SyncStatus.IDLE
                        .withAcceptance(
                                new SyncStatus.Target("img-4.18.1", "4.18.1"),
                                new SyncStatus.Acceptance.Accepted(
                                        "4.18.1", "img-4.18.1", "", List.of(), true, "", "amd64"))
                        .afterPass(Mode.RECONCILING, 5, 5, List.of(), Failing.NONE, true, t);
        ClusterVersionStatus s =
                VersionStatus.next(
                        new VersionStatus.Input(
                                cv,
                                DesiredUpdates.resolve(cv, null),
                                done,
                                UpdatesReport.unchanged(t),
                                VersionStatusTest.UPGRADEABLE,
                                CapabilitySets.of(null, List.of(), List.of(), Set.of()),
                                t));
        assertThat(VersionStatusTest.condition(s, "Invalid"))
                .startsWith("True InvalidClusterVersion The cluster version is invalid: ");
        assertThat(VersionStatusTest.condition(s, "Progressing"))
                .isEqualTo(
                        "False InvalidClusterVersion Stopped at 4.18.1: the cluster version is"
                                + " invalid");

        cv.setStatus(s);
        cv.getSpec().getDesiredUpdate().setVersion("4.18.2");
        ClusterVersionStatus fixed =
                VersionStatus.next(
                        new VersionStatus.Input(
                                cv,
                                DesiredUpdates.resolve(cv, null),
                                done,
                                UpdatesReport.unchanged(t),
                                VersionStatusTest.UPGRADEABLE,
                                CapabilitySets.of(null, List.of(), List.of(), Set.of()),
                                t));
        assertThat(VersionStatusTest.condition(fixed, "Invalid")).isNull();
        assertThat(VersionStatusTest.condition(fixed, "Progressing"))
                .isEqualTo("False  Cluster version is 4.18.1");
    }
}
