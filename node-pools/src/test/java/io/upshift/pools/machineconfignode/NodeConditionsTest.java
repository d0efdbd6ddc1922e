package io.upshift.pools.machineconfignode;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Condition;
import io.upshift.pools.disruption.DisruptionAction;
import io.upshift.pools.disruption.DisruptionPlan;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Upstream's rules for a MachineConfigNode's conditions, and the steps of an update reported by
 * them.
 */
class NodeConditionsTest {
    static final Instant T0 = Instant.parse("2026-11-01T10:00:00Z"),
            T1 = T0.plusSeconds(60),
            T2 = T0.plusSeconds(120);
    static final String TO = "rendered-worker-b";

    static Condition get(List<Condition> conditions, ConditionType type) {
        return conditions.stream()
                .filter(c -> c.getType().equals(type.name()))
                .findFirst()
                .orElseThrow();
    }

    @Test
    void theFirstReportLaysDownEveryConditionNotYetOccurred() {
        List<Condition> c =
                NodeConditions.apply(null, List.of(UpdateSteps.needsUpdate("w0")), TO, T0);
        assertThat(c)
                .extracting(Condition::getType)
                .containsExactly(
                        "UpdatePrepared",
                        "UpdateExecuted",
                        "UpdatePostActionComplete",
                        "UpdateComplete",
                        "Resumed",
                        "Drained",
                        "AppliedFilesAndOS",
                        "Cordoned",
                        "RebootedNode",
                        "Updated",
                        "Uncordoned",
                        "NodeDegraded");
        assertThat(get(c, ConditionType.Updated))
                .extracting(Condition::getStatus, Condition::getReason, Condition::getMessage)
                .containsExactly("False", "Updated", "Node w0 needs an update");
        assertThat(get(c, ConditionType.Drained))
                .extracting(Condition::getStatus, Condition::getReason, Condition::getMessage)
                .containsExactly(
                        "False",
                        "NotYetOccurred",
                        "This node has not yet entered the Drained phase");
        assertThat(c)
                .allSatisfy(
                        x ->
                                assertThat(x.getLastTransitionTime())
                                        .isEqualTo("2026-11-01T10:00:00Z"));
    }

    @Test
    void aParentAndItsChildAreSetTogetherAndAnUnchangedParentChangesNothing() {
        List<Condition> c =
                NodeConditions.apply(
                        null,
                        List.of(UpdateSteps.needsUpdate("w0"), UpdateSteps.cordoned()),
                        TO,
                        T0);
        assertThat(get(c, ConditionType.UpdateExecuted))
                .extracting(Condition::getStatus, Condition::getReason, Condition::getMessage)
                .containsExactly(
                        "Unknown", "Cordoned", "Cordoned Node as part of update executed phase");
        assertThat(get(c, ConditionType.Cordoned))
                .extracting(Condition::getStatus, Condition::getReason)
                .containsExactly("True", "UpdateExecutedCordoned");
        // the same parent with another child: upstream returns before looking at the child
        Transition sameParent =
                new Transition(
                        UpdateSteps.cordoned().parent(),
                        new Report(
                                ConditionType.Drained, "True", "UpdateExecutedDrained", "drained"));
        assertThat(NodeConditions.apply(c, List.of(sameParent), TO, T1)).isEqualTo(c);
        // reported again: nothing changes, times included
        assertThat(
                        NodeConditions.apply(
                                c,
                                List.of(UpdateSteps.needsUpdate("w0"), UpdateSteps.cordoned()),
                                TO,
                                T1))
                .isEqualTo(c);
    }

    @Test
    void updatedTurnsEveryOtherConditionFalseNamingTheUpdate() {
        List<Condition> c =
                NodeConditions.apply(
                        null,
                        List.of(
                                UpdateSteps.needsUpdate("w0"),
                                UpdateSteps.prepared(DisruptionPlan.REBOOT),
                                UpdateSteps.cordoned(),
                                UpdateSteps.drained("drain-" + TO),
                                UpdateSteps.applied(true, false),
                                UpdateSteps.rebooting()),
                        TO,
                        T0);
        c =
                NodeConditions.apply(
                        c,
                        List.of(
                                UpdateSteps.rebooted(),
                                UpdateSteps.resumed(TO),
                                UpdateSteps.uncordoned(),
                                UpdateSteps.succeeded("w0")),
                        TO,
                        T1);
        assertThat(c)
                .filteredOn(x -> x.getStatus().equals("True"))
                .extracting(Condition::getType)
                .containsExactly(
                        "UpdatePrepared",
                        "UpdateExecuted",
                        "UpdateComplete",
                        "Resumed",
                        "Drained",
                        "AppliedFilesAndOS",
                        "Cordoned",
                        "RebootedNode",
                        "Uncordoned");
        c = NodeConditions.apply(c, List.of(UpdateSteps.updated("w0")), TO, T2);
        assertThat(c)
                .filteredOn(x -> !x.getStatus().equals("False"))
                .extracting(Condition::getType)
                .containsExactly("Updated");
        assertThat(get(c, ConditionType.RebootedNode))
                .extracting(
                        Condition::getReason,
                        Condition::getMessage,
                        Condition::getLastTransitionTime)
                .containsExactly(
                        "RebootedNode",
                        "Action during update to " + TO + ": Node has rebooted",
                        "2026-11-01T10:02:00Z");
        assertThat(get(c, ConditionType.AppliedFilesAndOS).getMessage())
                .isEqualTo(
                        "Action during update to "
                                + TO
                                + ": Applied files and new OS config to node. OS did  need an"
                                + " update. SSH Keys did not need an update");
        // already False: left as it was
        assertThat(get(c, ConditionType.NodeDegraded))
                .extracting(Condition::getMessage, Condition::getLastTransitionTime)
                .containsExactly("Node w0 upgrade succeeded", "2026-11-01T10:01:00Z");
        assertThat(get(c, ConditionType.UpdatePostActionComplete).getReason())
                .isEqualTo("NotYetOccurred");
    }

    @Test
    void anotherPhaseWhileUpdatedSensesDisruption() {
        List<Condition> c = NodeConditions.apply(null, List.of(UpdateSteps.updated("w0")), TO, T0);
        c = NodeConditions.apply(c, List.of(UpdateSteps.rebooted()), TO, T1);
        assertThat(get(c, ConditionType.Updated))
                .extracting(Condition::getStatus, Condition::getMessage)
                .containsExactly(
                        "False",
                        "This node is not updated, sensed disruption via a manual update.");
    }

    @Test
    void postActionsReportTheLastActionCarriedOut() {
        DisruptionPlan plan =
                new DisruptionPlan(
                        List.of(
                                DisruptionAction.DRAIN,
                                DisruptionAction.reload("crio.service"),
                                DisruptionAction.restart("app.service")));
        assertThat(UpdateSteps.prepared(plan).parent().message())
                .isEqualTo(
                        "Update Compatible. Post Cfg Actions: [Drain, Reload crio.service, Restart"
                                + " app.service] Drain Required: true");
        List<Condition> c = NodeConditions.apply(null, UpdateSteps.postActions(plan), TO, T0);
        assertThat(get(c, ConditionType.UpdatePostActionComplete))
                .extracting(Condition::getReason, Condition::getMessage)
                .containsExactly(
                        "UpdatePostActionComplete", "Node has restarted service app.service");
        c =
                NodeConditions.apply(
                        null,
                        UpdateSteps.postActions(new DisruptionPlan(List.of(DisruptionAction.NONE))),
                        TO,
                        T0);
        assertThat(get(c, ConditionType.UpdatePostActionComplete))
                .extracting(Condition::getReason, Condition::getMessage)
                .containsExactly("None", "Changes do not require a reboot");
    }

    @Test
    void otherWritersConditionsAreKept() {
        Condition pinned =
                new Condition(
                        "2026-10-01T00:00:00Z",
                        "All is good",
                        null,
                        "AsExpected",
                        "False",
                        "PinnedImageSetsDegraded");
        List<Condition> c =
                NodeConditions.apply(
                        List.of(pinned), List.of(UpdateSteps.needsUpdate("w0")), TO, T0);
        assertThat(c).hasSize(13).last().isEqualTo(pinned);
    }
}
