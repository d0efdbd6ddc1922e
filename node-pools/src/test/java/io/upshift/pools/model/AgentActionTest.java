package io.upshift.pools.model;

import static io.upshift.pools.model.NodeAnnotations.CURRENT_CONFIG;
import static io.upshift.pools.model.NodeAnnotations.DESIRED_CONFIG;
import static io.upshift.pools.model.NodeAnnotations.STATE;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.upshift.pools.machineconfignode.UpdateSteps;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What the agent does next, from its node's annotations, its host's marker and boot and the failure
 * it remembers: whatever killed the agent before, these decide.
 */
class AgentActionTest {
    static final Instant NOW = Instant.parse("2026-11-22T10:00:00Z");
    static final Duration RETRY = Duration.ofMinutes(5);
    static final HostBoot BOOT_1 = new HostBoot("boot-1", "run-1"),
            BOOT_2 = new HostBoot("boot-2", "run-2");

    static Map<String, String> node(String current, String desired, String state) {
        return Map.of(CURRENT_CONFIG, current, DESIRED_CONFIG, desired, STATE, state);
    }

    static AgentAction.Decision next(
            Map<String, String> annotations, HostMarker marker, AgentAction.Failure failure) {
        return AgentAction.next("w0", annotations, marker, BOOT_2, failure, NOW, RETRY);
    }

    @Test
    void aNodeNotToldAnyConfigIsLeftAlone() {
        AgentAction.Failure remembered = new AgentAction.Failure("b", NOW);
        assertThat(next(Map.of(), null, remembered))
                .isEqualTo(new AgentAction.Decision(new AgentAction.Idle(), remembered));
    }

    @Test
    void aHostRebootedIntoTheDesiredConfigOnlyFinishesAndSaysItRebooted() {
        assertThat(next(node("a", "b", "Rebooting"), new HostMarker("b", BOOT_1), null).action())
                .isEqualTo(
                        new AgentAction.Finish(
                                "b", List.of(UpdateSteps.rebooted(), UpdateSteps.succeeded("w0"))));
    }

    @Test
    void aMarkerOfThisBootOrOfAnotherConfigMeansTheRebootIsStillToDo() {
        assertThat(next(node("a", "b", "Rebooting"), new HostMarker("b", BOOT_2), null).action())
                .isEqualTo(new AgentAction.Update("a", "b"));
        assertThat(next(node("a", "c", "Working"), new HostMarker("b", BOOT_1), null).action())
                .isEqualTo(new AgentAction.Update("a", "c"));
    }

    @Test
    void toldAgainTheConfigItRunsAFailedNodeIsDoneWithItAtOnce() {
        assertThat(next(node("a", "a", "Degraded"), null, null).action())
                .isEqualTo(new AgentAction.Finish("a", List.of()));
    }

    @Test
    void aNodeDoneWithItsConfigReportsUpdated() {
        assertThat(next(node("b", "b", "Done"), null, null).action())
                .isEqualTo(new AgentAction.Updated("b", List.of(UpdateSteps.updated("w0"))));
    }

    @Test
    void aFailedNodeWaitsTheRetryTimeFromItsFailureThenTriesAgain() {
        // an agent started on a failed node waits as if it had just failed
        assertThat(next(node("a", "b", "Degraded"), null, null))
                .isEqualTo(
                        new AgentAction.Decision(
                                new AgentAction.WaitDegraded(NOW.plus(RETRY)),
                                new AgentAction.Failure("b", NOW)));
        AgentAction.Failure aMinuteAgo = new AgentAction.Failure("b", NOW.minusSeconds(60));
        assertThat(next(node("a", "b", "Unreconcilable"), null, aMinuteAgo))
                .isEqualTo(
                        new AgentAction.Decision(
                                new AgentAction.WaitDegraded(NOW.plusSeconds(240)), aMinuteAgo));
        assertThat(
                        next(
                                node("a", "b", "Degraded"),
                                null,
                                new AgentAction.Failure("b", NOW.minus(RETRY))))
                .isEqualTo(new AgentAction.Decision(new AgentAction.Update("a", "b"), null));
    }

    @Test
    void aFailedNodeToldAnotherConfigTriesItAtOnce() {
        assertThat(next(node("a", "c", "Degraded"), null, new AgentAction.Failure("b", NOW)))
                .isEqualTo(new AgentAction.Decision(new AgentAction.Update("a", "c"), null));
    }

    @Test
    void aHostWhoseBootIdStaysTheSameIsToldRebootedByItsEmptiedRun() {
        // a container machine whose boot id, as the agent reads it, is the kernel's: only /run
        // tells
        HostMarker marker = new HostMarker("b", new HostBoot("kernel", "run-1"));
        assertThat(
                        AgentAction.next(
                                        "w0",
                                        node("a", "b", "Rebooting"),
                                        marker,
                                        new HostBoot("kernel", "run-2"),
                                        null,
                                        NOW,
                                        RETRY)
                                .action())
                .isInstanceOf(AgentAction.Finish.class);
        // the agent restarted, the host did not: the reboot is still to do
        assertThat(
                        AgentAction.next(
                                        "w0",
                                        node("a", "b", "Rebooting"),
                                        marker,
                                        new HostBoot("kernel", "run-1"),
                                        null,
                                        NOW,
                                        RETRY)
                                .action())
                .isEqualTo(new AgentAction.Update("a", "b"));
    }

    @Test
    void aBootIsAnotherWhenEitherSideTheHostShowsChanged() {
        HostBoot then = new HostBoot("boot-1", "run-1");
        assertThat(then.otherThan(new HostBoot("boot-1", "run-1"))).isFalse();
        assertThat(then.otherThan(new HostBoot("boot-2", "run-1"))).isTrue();
        assertThat(then.otherThan(new HostBoot("boot-1", "run-2"))).isTrue();
        // a side not read on one of the boots says nothing
        assertThat(then.otherThan(new HostBoot("boot-1", ""))).isFalse();
        assertThat(new HostBoot("boot-1", "").otherThan(new HostBoot("boot-1", "run-2"))).isFalse();
        assertThat(new HostBoot("", "run-1").otherThan(new HostBoot("boot-2", "run-2"))).isTrue();
    }

    @Test
    void theMarkerReadsBackAsWritten() {
        HostMarker m = new HostMarker("rendered-worker-b", new HostBoot("7f1c", "0b3e"));
        assertThat(HostMarker.parse(m.bytes())).isEqualTo(m);
        // as an agent before the /run marker wrote it: the boot id alone
        assertThat(HostMarker.parse("rendered-worker-b\n7f1c\n".getBytes(UTF_8)))
                .isEqualTo(new HostMarker("rendered-worker-b", new HostBoot("7f1c", "")));
        assertThat(HostMarker.parse("rendered-worker-b".getBytes(UTF_8))).isNull();
        assertThat(HostMarker.parse(null)).isNull();
    }
}
