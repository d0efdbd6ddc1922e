package io.upshift.pools.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobConditionBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.JobStatusBuilder;
import io.upshift.pools.model.HookJob;
import io.upshift.pools.model.HookKind;
import io.upshift.pools.model.HookTemplate;
import io.upshift.pools.model.NodeAnnotations;
import io.upshift.pools.model.RolloutHold;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The pools' hooks (issue 39) with the real pool controller and node agents on the embedded API
 * server. The embedded server runs no Job controller, so the test plays it: it finishes each hook's
 * Job by writing the status a Job controller writes (Complete, or Failed), and so decides when a
 * hook succeeds or fails.
 */
@Tag("e2e")
class HooksTest {
    static final String NS = PoolControllerOptions.NAMESPACE;

    @TempDir Path hosts;

    static void hookTemplate(PoolHarness h, String name) {
        h.client
                .configMaps()
                .inNamespace(NS)
                .resource(
                        new ConfigMapBuilder()
                                .withNewMetadata()
                                .withName(name)
                                .endMetadata()
                                .addToData(
                                        HookTemplate.KEY,
                                        """
                                        apiVersion: batch/v1
                                        kind: Job
                                        spec:
                                          backoffLimit: 0
                                          template:
                                            spec:
                                              containers:
                                              - name: hook
                                                image: registry.example/db-tools:1
                                                command: [db-handover]
                                        """)
                                .build())
                .create();
    }

    static Job job(PoolHarness h, String name) {
        return h.client.batch().v1().jobs().inNamespace(NS).withName(name).get();
    }

    /** What a Job controller writes when the Job's pod succeeded, or failed its last retry. */
    static void finish(PoolHarness h, String name, boolean succeeded) {
        String now = Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
        h.client
                .batch()
                .v1()
                .jobs()
                .inNamespace(NS)
                .withName(name)
                .editStatus(
                        j -> {
                            j.setStatus(
                                    new JobStatusBuilder()
                                            .withStartTime(now)
                                            .withSucceeded(succeeded ? 1 : 0)
                                            .withFailed(succeeded ? 0 : 1)
                                            .withCompletionTime(succeeded ? now : null)
                                            .withConditions(
                                                    succeeded
                                                            ? new JobConditionBuilder()
                                                                    .withType("Complete")
                                                                    .withStatus("True")
                                                                    .withLastTransitionTime(now)
                                                                    .build()
                                                            : new JobConditionBuilder()
                                                                    .withType("Failed")
                                                                    .withStatus("True")
                                                                    .withReason(
                                                                            "BackoffLimitExceeded")
                                                                    .withMessage(
                                                                            "Job has reached the"
                                                                                + " specified"
                                                                                + " backoff limit")
                                                                    .withLastTransitionTime(now)
                                                                    .build())
                                            .build());
                            return j;
                        });
    }

    static String target(PoolHarness h, String pool) {
        return h.pool(pool).getSpec().getConfiguration().getName();
    }

    static List<Event> poolEvents(PoolHarness h, String reason) {
        return h.client.v1().events().inNamespace("default").list().getItems().stream()
                .filter(e -> "MachineConfigPool".equals(e.getInvolvedObject().getKind()))
                .filter(e -> reason.equals(e.getReason()))
                .toList();
    }

    static boolean untouched(PoolHarness h, String node) {
        Node n = h.client.nodes().withName(node).get();
        return h.annotation(node, NodeAnnotations.DESIRED_CONFIG) == null
                && !Boolean.TRUE.equals(n.getSpec().getUnschedulable());
    }

    /** A few more of the controller's passes, each of which could have done what is asserted. */
    static void passesGoBy(PoolHarness h) {
        long seen = h.controller.passes();
        await("more passes")
                .atMost(Duration.ofMinutes(1))
                .until(() -> h.controller.passes() > seen + 3);
    }

    @Test
    void aPreDrainHookRunsBeforeTheDrainAndAFailingOneHoldsItsNodeNamingTheJob() {
        try (PoolHarness h = PoolHarness.onEmbeddedServer(hosts)) {
            hookTemplate(h, "db-handover");
            h.pool("worker", 1, false);
            RolloutControlsTest.annotate(h, "worker", HookKind.PRE_DRAIN.annotation, "db-handover");
            h.config("00-worker", "worker", "one", "os@sha256:1");
            h.node("worker-0", "worker", "zone-a", 10);
            h.node("worker-1", "worker", "zone-a", 9);
            h.createPod("db-0", "worker-0", "db", false);
            h.createPod("db-1", "worker-1", "db", false);
            h.startAgents();
            h.startController("4.19.0");

            await("the pool's target")
                    .atMost(Duration.ofMinutes(1))
                    .until(() -> h.pool("worker").getSpec().getConfiguration() != null);
            String target = target(h, "worker");
            String first = new HookJob(HookKind.PRE_DRAIN, "worker", "worker-0", target).name();
            await("worker-0's pre-drain Job")
                    .atMost(Duration.ofMinutes(1))
                    .until(() -> job(h, first) != null);
            // while it runs: the node is not told, not cordoned, its pod not evicted; the pool
            // names the Job
            passesGoBy(h);
            assertThat(untouched(h, "worker-0")).isTrue();
            assertThat(untouched(h, "worker-1")).isTrue();
            assertThat(h.client.pods().inNamespace("shop").withName("db-0").get()).isNotNull();
            assertThat(h.condition("worker", RolloutHold.CONDITION).getReason())
                    .isEqualTo(RolloutHold.HOOK);
            assertThat(h.condition("worker", RolloutHold.CONDITION).getMessage())
                    .contains("Job " + NS + "/" + first + ", the pre-drain hook");
            assertThat(poolEvents(h, "HookStarted"))
                    .singleElement()
                    .satisfies(e -> assertThat(e.getMessage()).contains(first));
            Job running = job(h, first);
            assertThat(running.getMetadata().getAnnotations())
                    .containsEntry(HookJob.NODE, "worker-0");
            // a controller restarted meanwhile finds the Job and makes no other
            h.startController("4.19.0");
            passesGoBy(h);
            assertThat(job(h, first).getMetadata().getUid())
                    .isEqualTo(running.getMetadata().getUid());
            assertThat(h.client.batch().v1().jobs().inNamespace(NS).list().getItems()).hasSize(1);
            assertThat(untouched(h, "worker-0")).isTrue();

            finish(h, first, true);
            await("worker-0 updated once its hook succeeded")
                    .atMost(Duration.ofMinutes(2))
                    .until(
                            () ->
                                    target.equals(
                                                    h.annotation(
                                                            "worker-0",
                                                            NodeAnnotations.CURRENT_CONFIG))
                                            && "Done"
                                                    .equals(
                                                            h.annotation(
                                                                    "worker-0",
                                                                    NodeAnnotations.STATE)));
            // drained after the hook: its pod evicted, its drain carried out, and its update
            // started after the Job was created
            assertThat(h.client.pods().inNamespace("shop").withName("db-0").get()).isNull();
            assertThat(h.annotation("worker-0", NodeAnnotations.LAST_APPLIED_DRAIN))
                    .isEqualTo("uncordon-" + target);
            assertThat(Instant.parse(h.annotation("worker-0", NodeAnnotations.UPDATE_STARTED_AT)))
                    .isAfterOrEqualTo(Instant.parse(running.getMetadata().getCreationTimestamp()));
            // the Job was created once, whatever the passes in between
            assertThat(job(h, first).getMetadata().getUid())
                    .isEqualTo(running.getMetadata().getUid());

            // worker-1's hook fails: the node stays as it was, the pool held naming the Job
            String second = new HookJob(HookKind.PRE_DRAIN, "worker", "worker-1", target).name();
            await("worker-1's pre-drain Job")
                    .atMost(Duration.ofMinutes(1))
                    .until(() -> job(h, second) != null);
            finish(h, second, false);
            await("the pool held by the failed hook")
                    .atMost(Duration.ofMinutes(1))
                    .until(
                            () ->
                                    h.conditionTrue("worker", RolloutHold.CONDITION)
                                            && RolloutHold.HOOK_FAILED.equals(
                                                    h.condition("worker", RolloutHold.CONDITION)
                                                            .getReason()));
            assertThat(h.condition("worker", RolloutHold.CONDITION).getMessage())
                    .isEqualTo(
                            "Job "
                                    + NS
                                    + "/"
                                    + second
                                    + ", the pre-drain hook (upshift.io/pre-drain-hook) of node"
                                    + " worker-1, failed: BackoffLimitExceeded: Job has reached"
                                    + " the specified backoff limit; the node is not told"
                                    + " MachineConfig "
                                    + target
                                    + " (nor drained). Delete the Job to run the hook again");
            await("a RolloutHeld event naming the failed Job")
                    .atMost(Duration.ofMinutes(1))
                    .until(
                            () ->
                                    poolEvents(h, RolloutHold.CONDITION).stream()
                                            .anyMatch(
                                                    e ->
                                                            e.getMessage().contains(second)
                                                                    && e.getMessage()
                                                                            .contains("failed")));
            passesGoBy(h);
            assertThat(untouched(h, "worker-1")).isTrue();
            assertThat(h.client.pods().inNamespace("shop").withName("db-1").get()).isNotNull();

            // deleted by the administrator: the hook runs again, and this time succeeds
            String failedUid = job(h, second).getMetadata().getUid();
            h.client.batch().v1().jobs().inNamespace(NS).withName(second).delete();
            await("worker-1's hook started again")
                    .atMost(Duration.ofMinutes(1))
                    .until(
                            () ->
                                    job(h, second) != null
                                            && !failedUid.equals(
                                                    job(h, second).getMetadata().getUid()));
            finish(h, second, true);
            await("every node updated")
                    .atMost(Duration.ofMinutes(2))
                    .until(() -> h.settled("worker"));
            await("the hold lifted")
                    .atMost(Duration.ofMinutes(1))
                    .until(() -> !h.conditionTrue("worker", RolloutHold.CONDITION));
        }
    }

    /**
     * On a real API server (the embedded one where no binaries are): the Job the controller builds
     * is one the server takes, and its verdict is the real Job controller's. The test plays the
     * kubelet only (no node runs the pod): it ends the Job's pod, succeeded, and kube-controller-
     * manager's Job controller marks the Job Complete.
     */
    @Test
    void aHookJobIsOneARealApiServerTakesAndItsJobControllersVerdictLetsTheNodeGo() {
        try (PoolHarness h = new PoolHarness(hosts)) {
            hookTemplate(h, "db-handover");
            h.pool("worker", 1, false);
            RolloutControlsTest.annotate(h, "worker", HookKind.PRE_DRAIN.annotation, "db-handover");
            h.config("00-worker", "worker", "one", "os@sha256:1");
            h.node("worker-0", "worker", "zone-a", 10);
            h.startAgents();
            h.startController("4.19.0");

            await("the pool's target")
                    .atMost(Duration.ofMinutes(1))
                    .until(() -> h.pool("worker").getSpec().getConfiguration() != null);
            String name =
                    new HookJob(HookKind.PRE_DRAIN, "worker", "worker-0", target(h, "worker"))
                            .name();
            await("the pre-drain Job")
                    .atMost(Duration.ofMinutes(1))
                    .until(() -> job(h, name) != null);
            assertThat(untouched(h, "worker-0")).isTrue();
            if (h.server.real()) podSucceeded(h, name);
            else finish(h, name, true);
            await("worker-0 updated once its hook succeeded")
                    .atMost(Duration.ofMinutes(2))
                    .until(() -> h.settled("worker"));
            assertThat(job(h, name).getStatus().getConditions())
                    .anyMatch(c -> "Complete".equals(c.getType()) && "True".equals(c.getStatus()));
        }
    }

    /** What a kubelet reports of the Job's pod whose one container exited 0. */
    static void podSucceeded(PoolHarness h, String job) {
        await("the Job controller's pod")
                .atMost(Duration.ofMinutes(1))
                .until(
                        () ->
                                !h.client
                                        .pods()
                                        .inNamespace(NS)
                                        .withLabel("job-name", job)
                                        .list()
                                        .getItems()
                                        .isEmpty());
        var pod =
                h.client.pods().inNamespace(NS).withLabel("job-name", job).list().getItems().get(0);
        String now = Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
        h.client
                .pods()
                .inNamespace(NS)
                .withName(pod.getMetadata().getName())
                .editStatus(
                        p -> {
                            p.getStatus().setPhase("Succeeded");
                            p.getStatus().setStartTime(now);
                            p.getStatus()
                                    .setContainerStatuses(
                                            List.of(
                                                    new io.fabric8.kubernetes.api.model
                                                                    .ContainerStatusBuilder()
                                                            .withName("hook")
                                                            .withImage(
                                                                    "registry.example/db-tools:1")
                                                            .withImageID("")
                                                            .withReady(false)
                                                            .withRestartCount(0)
                                                            .withNewState()
                                                            .withNewTerminated()
                                                            .withExitCode(0)
                                                            .withReason("Completed")
                                                            .withStartedAt(now)
                                                            .withFinishedAt(now)
                                                            .endTerminated()
                                                            .endState()
                                                            .build()));
                            return p;
                        });
    }

    @Test
    void aPostUpdateHookRunsOnceTheNodeIsBackAndTheNextNodeWaitsForIt() {
        try (PoolHarness h = PoolHarness.onEmbeddedServer(hosts)) {
            hookTemplate(h, "smoke-test");
            h.pool("worker", 1, false);
            RolloutControlsTest.annotate(
                    h, "worker", HookKind.POST_UPDATE.annotation, "smoke-test");
            h.config("00-worker", "worker", "one", "os@sha256:1");
            h.node("worker-0", "worker", "zone-a", 10);
            h.node("worker-1", "worker", "zone-a", 9);
            h.startAgents();
            h.startController("4.19.0");

            await("the pool's target")
                    .atMost(Duration.ofMinutes(1))
                    .until(() -> h.pool("worker").getSpec().getConfiguration() != null);
            String target = target(h, "worker");
            String name = new HookJob(HookKind.POST_UPDATE, "worker", "worker-0", target).name();
            await("worker-0's post-update Job")
                    .atMost(Duration.ofMinutes(2))
                    .until(() -> job(h, name) != null);
            // made once the node was back: done with the target, ready, uncordoned
            assertThat(h.annotation("worker-0", NodeAnnotations.CURRENT_CONFIG)).isEqualTo(target);
            assertThat(h.annotation("worker-0", NodeAnnotations.STATE)).isEqualTo("Done");
            assertThat(Instant.parse(job(h, name).getMetadata().getCreationTimestamp()))
                    .isAfterOrEqualTo(
                            Instant.parse(h.annotation("worker-0", NodeAnnotations.UPDATE_DONE_AT))
                                    .truncatedTo(ChronoUnit.SECONDS));
            passesGoBy(h);
            // the next node waits, and worker-0 keeps the update taint, until it succeeded
            assertThat(untouched(h, "worker-1")).isTrue();
            assertThat(h.client.nodes().withName("worker-0").get().getSpec().getTaints())
                    .anyMatch(t -> NodeAnnotations.UPDATE_TAINT.equals(t.getKey()));
            assertThat(h.condition("worker", RolloutHold.CONDITION).getMessage())
                    .contains(name)
                    .endsWith("to succeed after the node's update to MachineConfig " + target);

            finish(h, name, true);
            String next = new HookJob(HookKind.POST_UPDATE, "worker", "worker-1", target).name();
            await("worker-1 updated, and its own hook made")
                    .atMost(Duration.ofMinutes(2))
                    .until(() -> job(h, next) != null);
            finish(h, next, true);
            await("every node updated")
                    .atMost(Duration.ofMinutes(1))
                    .until(() -> h.settled("worker"));
        }
    }

    @Test
    void aHookNamingNoConfigMapDegradesThePoolNamingItAndTouchesNothingUntilItIsThere() {
        try (PoolHarness h = PoolHarness.onEmbeddedServer(hosts)) {
            h.pool("worker", 1, false);
            RolloutControlsTest.annotate(h, "worker", HookKind.PRE_DRAIN.annotation, "db-handover");
            h.config("00-worker", "worker", "one", "os@sha256:1");
            h.node("worker-0", "worker", "zone-a", 10);
            h.startAgents();
            h.startController("4.19.0");

            await("the pool degraded")
                    .atMost(Duration.ofMinutes(1))
                    .until(() -> h.conditionTrue("worker", "Degraded"));
            assertThat(h.condition("worker", "Degraded").getMessage())
                    .isEqualTo(
                            "annotation upshift.io/pre-drain-hook \"db-handover\": no ConfigMap "
                                    + NS
                                    + "/db-handover");
            passesGoBy(h);
            assertThat(untouched(h, "worker-0")).isTrue();
            assertThat(h.client.batch().v1().jobs().inNamespace(NS).list().getItems()).isEmpty();

            hookTemplate(h, "db-handover"); // the ConfigMap's arrival is seen, and the hook runs
            await("the hook's Job once its template is there")
                    .atMost(Duration.ofMinutes(1))
                    .until(
                            () ->
                                    h.client
                                                    .batch()
                                                    .v1()
                                                    .jobs()
                                                    .inNamespace(NS)
                                                    .list()
                                                    .getItems()
                                                    .size()
                                            == 1);
            await("no longer degraded")
                    .atMost(Duration.ofMinutes(1))
                    .until(() -> !h.conditionTrue("worker", "Degraded"));
        }
    }

    @Test
    void theBeforeWorkersHookHoldsTheWorkersUntilTheControlPlaneIsDoneAndItSucceeded() {
        try (PoolHarness h = PoolHarness.onEmbeddedServer(hosts)) {
            hookTemplate(h, "check-cluster");
            h.pool("master", 1, false, true);
            h.pool("worker", 1, false);
            RolloutControlsTest.annotate(
                    h, "worker", HookKind.BEFORE_WORKERS.annotation, "check-cluster");
            h.config("00-master", "master", "one", "os@sha256:1");
            h.config("00-worker", "worker", "one", "os@sha256:1");
            h.node("master-0", "master", "zone-a", 10);
            h.node("worker-0", "worker", "zone-a", 10);
            h.startAgents();
            h.startController("4.19.0");

            await("the control plane updated")
                    .atMost(Duration.ofMinutes(2))
                    .until(() -> h.settled("master"));
            String target = target(h, "worker");
            String name = new HookJob(HookKind.BEFORE_WORKERS, "worker", "", target).name();
            await("the workers' hook Job")
                    .atMost(Duration.ofMinutes(1))
                    .until(() -> job(h, name) != null);
            // created only once the control plane was done
            Instant masterDone =
                    Instant.parse(h.annotation("master-0", NodeAnnotations.UPDATE_DONE_AT));
            assertThat(Instant.parse(job(h, name).getMetadata().getCreationTimestamp()))
                    .isAfterOrEqualTo(masterDone.truncatedTo(ChronoUnit.SECONDS));
            passesGoBy(h);
            assertThat(untouched(h, "worker-0")).isTrue();
            assertThat(h.condition("worker", RolloutHold.CONDITION).getMessage())
                    .contains("Waiting for Job " + NS + "/" + name + ", the before-workers hook");

            finish(h, name, true);
            await("the workers updated once the hook succeeded")
                    .atMost(Duration.ofMinutes(2))
                    .until(() -> h.settled("worker"));
            assertThat(job(h, name)).isNotNull(); // kept as the record that it ran for the target
            assertThat(h.client.batch().v1().jobs().inNamespace(NS).list().getItems()).hasSize(1);
        }
    }
}
