package io.upshift.pools.model;

import static io.upshift.pools.model.PoolDecisionTest.NOW;
import static io.upshift.pools.model.PoolDecisionTest.config;
import static io.upshift.pools.model.PoolDecisionTest.node;
import static io.upshift.pools.model.PoolDecisionTest.pool;
import static io.upshift.pools.model.PoolDecisionTest.rendered;
import static io.upshift.pools.model.PoolDecisionTest.renderedName;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.JobConditionBuilder;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfig;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigPool;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigPoolCondition;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The pools' hooks as the pool controller's decision runs them, from concrete caches. */
class HookDecisionTest {
    static final String NS = "openshift-machine-config-operator";
    static final String TEMPLATE =
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
                    command: [/bin/sh, -c, 'db-handover "$UPSHIFT_NODE"']
            """;

    static ConfigMap template(String name, String job) {
        return new ConfigMapBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace(NS)
                .endMetadata()
                .addToData(HookTemplate.KEY, job)
                .build();
    }

    final List<MachineConfig> configs =
            new ArrayList<>(List.of(config("00-worker", "worker", null)));
    final String target = renderedName(configs);
    final Map<String, ConfigMap> configMaps =
            new HashMap<>(Map.of("db-handover", template("db-handover", TEMPLATE)));
    final Map<String, Job> jobs = new LinkedHashMap<>();
    final Map<String, String> refused = new HashMap<>();

    HookDecisionTest() {
        configs.add(rendered(target, "4.19.0"));
    }

    static MachineConfigPool annotated(MachineConfigPool pool, String... keyValues) {
        Map<String, String> a = new HashMap<>();
        for (int i = 0; i < keyValues.length; i += 2) a.put(keyValues[i], keyValues[i + 1]);
        pool.getMetadata().setAnnotations(a);
        return pool;
    }

    PoolPlan decide(List<MachineConfigPool> pools, List<Node> nodes, Instant now) {
        return PoolDecision.decide(
                new PoolDecision.Input(
                        "4.19.0",
                        "",
                        Duration.ofMinutes(10),
                        pools,
                        configs,
                        null,
                        nodes,
                        Map.of(),
                        now,
                        List.of(),
                        Map.of(),
                        new PoolDecision.Hooks(NS, configMaps, jobs, refused)));
    }

    PoolPlan.Pool worker(List<MachineConfigPool> pools, List<Node> nodes) {
        return decide(pools, nodes, NOW).pools().stream()
                .filter(p -> p.name().equals("worker"))
                .findFirst()
                .orElseThrow();
    }

    /** The Job as the API server keeps it once created: a creation time, then the status. */
    void created(Job job, Instant at) {
        job.getMetadata().setCreationTimestamp(at.toString());
        jobs.put(job.getMetadata().getName(), job);
    }

    static void finished(Job job, String type, String reason, String message) {
        job.setStatus(
                new io.fabric8.kubernetes.api.model.batch.v1.JobStatusBuilder()
                        .withConditions(
                                new JobConditionBuilder()
                                        .withType(type)
                                        .withStatus("True")
                                        .withReason(reason)
                                        .withMessage(message)
                                        .build())
                        .build());
    }

    static MachineConfigPoolCondition held(PoolPlan.Pool p) {
        return p.status().getConditions().stream()
                .filter(c -> c.getType().equals(RolloutHold.CONDITION))
                .findFirst()
                .orElseThrow();
    }

    static List<String> told(PoolPlan.Pool p) {
        return p.tell().stream().map(t -> t.node().getMetadata().getName()).toList();
    }

    @Test
    void aPreDrainHookRunsItsJobOnceBeforeTheNodeIsToldAndTheNodeIsToldOnceItSucceeded() {
        MachineConfigPool pool =
                annotated(pool("worker", target, 1), HookKind.PRE_DRAIN.annotation, "db-handover");
        List<Node> nodes =
                List.of(
                        node("w-a", "zone-a", 2, "old", "old", "Done"),
                        node("w-b", "zone-a", 1, "old", "old", "Done"));
        String name = new HookJob(HookKind.PRE_DRAIN, "worker", "w-a", target).name();

        PoolPlan.Pool first = worker(List.of(pool), nodes);
        assertThat(first.tell()).isEmpty(); // the oldest node's hook first, not its config
        Job job = first.hookJobs().create().get(0);
        assertThat(first.hookJobs().create()).hasSize(1);
        assertThat(job.getMetadata().getName()).isEqualTo(name).hasSizeLessThanOrEqualTo(63);
        assertThat(job.getMetadata().getNamespace()).isEqualTo(NS);
        assertThat(job.getMetadata().getOwnerReferences().get(0).getUid()).isEqualTo("uid-worker");
        assertThat(job.getMetadata().getLabels()).containsEntry(HookJob.LABEL, "pre-drain");
        assertThat(job.getMetadata().getAnnotations())
                .containsEntry(HookJob.NODE, "w-a")
                .containsEntry(HookJob.CONFIG, target);
        assertThat(job.getSpec().getActiveDeadlineSeconds()).isEqualTo(3600L); // the default 1h
        assertThat(job.getSpec().getTemplate().getSpec().getRestartPolicy()).isEqualTo("Never");
        assertThat(job.getSpec().getTemplate().getSpec().getContainers().get(0).getEnv())
                .contains(
                        new EnvVar("UPSHIFT_HOOK", "pre-drain", null),
                        new EnvVar("UPSHIFT_NODE", "w-a", null),
                        new EnvVar("UPSHIFT_CONFIG", target, null));
        assertThat(first.hold().reason()).isEqualTo(RolloutHold.HOOK);

        // created: while it runs, nothing is created again, no node is told, and w-a counts as
        // updating (maxUnavailable 1: w-b waits)
        created(job, NOW);
        PoolPlan.Pool running = worker(List.of(pool), nodes);
        assertThat(running.hookJobs().create()).isEmpty();
        assertThat(running.tell()).isEmpty();
        assertThat(running.status().getUnavailableMachineCount()).isEqualTo(1);
        assertThat(running.hold().until()).isEqualTo(NOW.plus(Duration.ofHours(1)));
        // said the same way from the pass that created it: one status write, not two
        assertThat(running.hold().message()).isEqualTo(first.hold().message());
        assertThat(held(running).getMessage())
                .isEqualTo(
                        "Waiting for Job "
                                + NS
                                + "/"
                                + name
                                + ", the pre-drain hook (upshift.io/pre-drain-hook) of node w-a,"
                                + " to succeed before the node is told MachineConfig "
                                + target);

        finished(job, "Complete", null, null);
        PoolPlan.Pool done = worker(List.of(pool), nodes);
        assertThat(told(done)).containsExactly("w-a");
        assertThat(done.hookJobs().create()).isEmpty();
        assertThat(done.hookJobs().delete()).isEmpty(); // it stays: the record the hook ran
    }

    @Test
    void aFailedOrTimedOutPreDrainHookHoldsItsNodeUntouchedNamingTheJob() {
        MachineConfigPool pool =
                annotated(
                        pool("worker", target, 1),
                        HookKind.PRE_DRAIN.annotation,
                        "db-handover",
                        PoolHooks.TIMEOUT,
                        "10m");
        List<Node> nodes =
                List.of(
                        node("w-a", "zone-a", 2, "old", "old", "Done"),
                        node("w-b", "zone-a", 1, "old", "old", "Done"));
        Job job = worker(List.of(pool), nodes).hookJobs().create().get(0);
        created(job, NOW.minusSeconds(60));
        finished(
                job,
                "Failed",
                "BackoffLimitExceeded",
                "Job has reached the specified backoff limit");

        PoolPlan.Pool failed = worker(List.of(pool), nodes);
        assertThat(failed.tell()).isEmpty();
        assertThat(failed.hookJobs().create()).isEmpty();
        assertThat(failed.hold().reason()).isEqualTo(RolloutHold.HOOK_FAILED);
        assertThat(held(failed).getMessage())
                .isEqualTo(
                        "Job "
                                + NS
                                + "/"
                                + job.getMetadata().getName()
                                + ", the pre-drain hook (upshift.io/pre-drain-hook) of node w-a,"
                                + " failed: BackoffLimitExceeded: Job has reached the specified"
                                + " backoff limit; the node is not told MachineConfig "
                                + target
                                + " (nor drained). Delete the Job to run the hook again");

        // one that never finishes fails at the timeout, and wakes the controller for it
        job.setStatus(null);
        PoolPlan.Pool before = worker(List.of(pool), nodes);
        assertThat(before.hold().until()).isEqualTo(NOW.plus(Duration.ofMinutes(9)));
        PoolPlan.Pool late =
                decide(List.of(pool), nodes, NOW.plus(Duration.ofMinutes(9))).pools().get(0);
        assertThat(late.tell()).isEmpty();
        assertThat(late.hold().reason()).isEqualTo(RolloutHold.HOOK_FAILED);
        assertThat(late.hold().message())
                .contains("failed: not finished within 10m0s (upshift.io/hook-timeout)");

        // deleted by an administrator: the hook runs again, as a new Job of the same name
        jobs.clear();
        assertThat(worker(List.of(pool), nodes).hookJobs().create())
                .extracting(j -> j.getMetadata().getName())
                .containsExactly(job.getMetadata().getName());
    }

    @Test
    void aPostUpdateHookKeepsTheTaintAndHoldsTheNextNodeUntilItSucceeds() {
        MachineConfigPool pool =
                annotated(
                        pool("worker", target, 1), HookKind.POST_UPDATE.annotation, "db-handover");
        Node done = node("w-a", "zone-a", 2, target, target, "Done");
        done.getSpec()
                .setTaints(List.of(new Taint("PreferNoSchedule", "UpdateInProgress", null, null)));
        List<Node> nodes = List.of(done, node("w-b", "zone-a", 1, "old", "old", "Done"));

        PoolPlan.Pool first = worker(List.of(pool), nodes);
        assertThat(first.hookJobs().create())
                .extracting(j -> j.getMetadata().getAnnotations().get(HookJob.NODE))
                .containsExactly("w-a");
        assertThat(first.untaint()).isEmpty();
        assertThat(first.tell()).isEmpty();
        assertThat(first.hold().message())
                .startsWith("Waiting for Job " + NS + "/upshift-post-update-w-a-");

        Job job = first.hookJobs().create().get(0);
        created(job, NOW);
        finished(job, "Complete", null, null);
        PoolPlan.Pool after = worker(List.of(pool), nodes);
        assertThat(after.untaint()).extracting(u -> u.node()).containsExactly(done);
        assertThat(told(after)).containsExactly("w-b");
        assertThat(after.hold()).isNull();

        // a pool level before the hook was named (no update taint) runs no hook at all
        done.getSpec().setTaints(List.of());
        List<Node> level = List.of(done, node("w-b", "zone-a", 1, target, target, "Done"));
        jobs.clear();
        PoolPlan.Pool quiet = worker(List.of(pool), level);
        assertThat(quiet.hookJobs().create()).isEmpty();
        assertThat(quiet.hold()).isNull();
    }

    @Test
    void theBeforeWorkersHookWaitsForTheControlPlaneAndHoldsTheWorkersUntilItSucceeds() {
        configs.add(config("00-master", "master", null));
        String masterTarget =
                RenderedConfig.render(
                                "master",
                                pool("master", null, null).getSpec().getMachineConfigSelector(),
                                configs)
                        .name();
        configs.add(rendered(masterTarget, "4.19.0"));
        MachineConfigPool master = pool("master", masterTarget, 1);
        master.getMetadata().setLabels(Map.of(RequiredPools.LABEL, ""));
        MachineConfigPool worker =
                annotated(
                        pool("worker", target, 1),
                        HookKind.BEFORE_WORKERS.annotation,
                        "db-handover");
        Node m = masterNode("m-0", "old", masterTarget, "Working");
        List<Node> nodes = List.of(m, node("w-a", "zone-a", 2, "old", "old", "Done"));

        PoolPlan.Pool waiting = worker(List.of(master, worker), nodes);
        assertThat(waiting.tell()).isEmpty();
        assertThat(waiting.hookJobs().create()).isEmpty();
        assertThat(waiting.hold().message())
                .isEqualTo(
                        "Waiting for the control plane (pool master: 1 of 1 nodes not yet updated"
                                + " to MachineConfig "
                                + masterTarget
                                + " of release 4.19.0) before the before-workers hook"
                                + " (upshift.io/before-workers-hook) of pool worker runs for"
                                + " MachineConfig "
                                + target);

        List<Node> cpDone =
                List.of(
                        masterNode("m-0", masterTarget, masterTarget, "Done"),
                        node("w-a", "zone-a", 2, "old", "old", "Done"));
        PoolPlan.Pool started = worker(List.of(master, worker), cpDone);
        assertThat(started.tell()).isEmpty();
        Job job = started.hookJobs().create().get(0);
        assertThat(job.getMetadata().getName())
                .isEqualTo(new HookJob(HookKind.BEFORE_WORKERS, "worker", "", target).name());
        assertThat(job.getMetadata().getName()).startsWith("upshift-before-workers-worker-");

        created(job, NOW);
        finished(
                job, "Failed", "DeadlineExceeded", "Job was active longer than specified deadline");
        PoolPlan.Pool failed = worker(List.of(master, worker), cpDone);
        assertThat(failed.tell()).isEmpty();
        assertThat(failed.hold().message())
                .contains("failed: DeadlineExceeded: Job was active longer than specified deadline")
                .contains("no node of the pool starts on MachineConfig " + target);

        finished(job, "Complete", null, null);
        assertThat(told(worker(List.of(master, worker), cpDone))).containsExactly("w-a");
    }

    @Test
    void aJobTheApiServerRefusedHoldsThePoolWithItsAnswerUntilTheTemplateChanges() {
        MachineConfigPool pool =
                annotated(pool("worker", target, 1), HookKind.PRE_DRAIN.annotation, "db-handover");
        configMaps.get("db-handover").getMetadata().setResourceVersion("5");
        List<Node> nodes = List.of(node("w-a", "zone-a", 2, "old", "old", "Done"));
        Job job = worker(List.of(pool), nodes).hookJobs().create().get(0);
        refused.put(
                HookJob.refusalKey(job),
                "422 Unprocessable Entity: spec.template.spec.containers[0].name: Invalid value");

        PoolPlan.Pool held = worker(List.of(pool), nodes);
        assertThat(held.hookJobs().create()).isEmpty(); // not asked for again at every pass
        assertThat(held.tell()).isEmpty();
        assertThat(held.hold().reason()).isEqualTo(RolloutHold.HOOK_FAILED);
        assertThat(held.hold().message())
                .contains(
                        "failed: the API server refused to create it: 422 Unprocessable Entity:"
                                + " spec.template.spec.containers[0].name: Invalid value");

        configMaps.get("db-handover").getMetadata().setResourceVersion("6"); // fixed
        assertThat(worker(List.of(pool), nodes).hookJobs().create()).hasSize(1);
    }

    static Node masterNode(String name, String current, String desired, String state) {
        Node n = node(name, "zone-a", 3, current, desired, state);
        n.getMetadata().setLabels(Map.of("node-role.kubernetes.io/master", ""));
        return n;
    }

    @Test
    void aJobOfAnotherTargetIsDeletedAndABadHookTouchesNothing() {
        MachineConfigPool pool =
                annotated(pool("worker", target, 1), HookKind.PRE_DRAIN.annotation, "db-handover");
        List<Node> nodes = List.of(node("w-a", "zone-a", 2, "old", "old", "Done"));
        Job stale =
                new HookJob(HookKind.PRE_DRAIN, "worker", "w-a", "rendered-worker-before")
                        .build(
                                NS,
                                pool,
                                HookTemplate.of(configMaps.get("db-handover")),
                                Duration.ofHours(1));
        created(stale, NOW.minusSeconds(3600));
        assertThat(worker(List.of(pool), nodes).hookJobs().delete()).containsExactly(stale);

        for (String[] bad :
                new String[][] {
                    {HookKind.PRE_DRAIN.annotation, "Db_Handover", "not a ConfigMap name"},
                    {HookKind.PRE_DRAIN.annotation, "missing", "no ConfigMap " + NS + "/missing"},
                    {PoolHooks.TIMEOUT, "soon", "not a duration (e.g. 10m, 1h)"},
                    {PoolHooks.TIMEOUT, "0s", "must be more than 0"},
                    {PoolHooks.TIMEOUT, "48h", "longer than 24h0m0s"},
                }) {
            Map<String, String> a = new HashMap<>(pool.getMetadata().getAnnotations());
            a.put(bad[0], bad[1]);
            MachineConfigPool broken = pool("worker", target, 1);
            broken.getMetadata().setAnnotations(a);
            PoolPlan.Pool p = worker(List.of(broken), nodes);
            String why = "annotation " + bad[0] + " \"" + bad[1] + "\": " + bad[2];
            assertThat(p.problems()).containsExactly("no node touched: " + why);
            assertThat(p.tell()).isEmpty();
            assertThat(p.hookJobs()).isEqualTo(PoolPlan.HookJobs.NONE); // not even the stale one
        }
    }

    @Test
    void aTemplateIsAJobWithContainersAndARestartPolicyAJobAllows() {
        assertThat(HookTemplate.of(template("t", TEMPLATE)).runOnNode()).isFalse();
        assertThatThrownBy(() -> HookTemplate.of(template("t", "kind: Deployment\nspec: {}\n")))
                .hasMessage("ConfigMap t job.yaml: kind Deployment, not Job");
        assertThatThrownBy(
                        () ->
                                HookTemplate.of(
                                        template(
                                                "t", "spec: {template: {spec: {containers: []}}}")))
                .hasMessage("ConfigMap t job.yaml: spec.template.spec.containers is empty");
        assertThatThrownBy(
                        () ->
                                HookTemplate.of(
                                        template(
                                                "t",
                                                TEMPLATE.replace(
                                                        "backoffLimit: 0",
                                                        "backoffLimit: 0\n"
                                                                + "  selector: {matchLabels: {a:"
                                                                + " b}}"))))
                .hasMessage("ConfigMap t job.yaml: spec.selector is the Job controller's to set");
        assertThatThrownBy(
                        () ->
                                HookTemplate.of(
                                        template(
                                                "t",
                                                TEMPLATE.replace(
                                                        "    spec:\n      containers",
                                                        "    spec:\n"
                                                                + "      restartPolicy: Always\n"
                                                                + "      containers"))))
                .hasMessage(
                        "ConfigMap t job.yaml: spec.template.spec.restartPolicy Always (a Job's is"
                                + " Never or OnFailure)");
        assertThatThrownBy(
                        () ->
                                HookTemplate.of(
                                        template(
                                                "t",
                                                TEMPLATE.replace(
                                                        "backoffLimit: 0",
                                                        "ttlSecondsAfterFinished: 60"))))
                .hasMessageStartingWith(
                        "ConfigMap t job.yaml: spec.ttlSecondsAfterFinished: the Job is the record"
                                + " that the hook ran");
        assertThatThrownBy(() -> HookTemplate.of(template("t", "spec: [")))
                .hasMessageStartingWith("ConfigMap t job.yaml is not a Job: ");
        ConfigMap none = template("t", "x");
        none.setData(Map.of());
        assertThatThrownBy(() -> HookTemplate.of(none))
                .hasMessage("ConfigMap t has no key job.yaml");

        // pinned to its node when asked, for a node's hook only
        ConfigMap pinned = template("t", TEMPLATE);
        pinned.getData().put(HookTemplate.RUN_ON_NODE, "true");
        HookTemplate t = HookTemplate.of(pinned);
        MachineConfigPool pool = pool("worker", target, 1);
        assertThat(
                        new HookJob(HookKind.PRE_DRAIN, "worker", "w-a", target)
                                .build(NS, pool, t, Duration.ofMinutes(5))
                                .getSpec())
                .satisfies(
                        s -> {
                            assertThat(s.getTemplate().getSpec().getNodeName()).isEqualTo("w-a");
                            assertThat(s.getActiveDeadlineSeconds()).isEqualTo(300L);
                        });
        assertThat(
                        new HookJob(HookKind.BEFORE_WORKERS, "worker", "", target)
                                .build(NS, pool, t, Duration.ofMinutes(5))
                                .getSpec()
                                .getTemplate()
                                .getSpec()
                                .getNodeName())
                .isNull();
    }

    @Test
    void aBeforeWorkersHookOnARequiredPoolIsRefused() {
        MachineConfigPool master =
                annotated(
                        pool("master", null, 1), HookKind.BEFORE_WORKERS.annotation, "db-handover");
        master.getMetadata().setLabels(Map.of(RequiredPools.LABEL, ""));
        assertThatThrownBy(() -> PoolHooks.of(master, NS, configMaps, true))
                .hasMessage(
                        "annotation upshift.io/before-workers-hook \"db-handover\": the pool is"
                            + " required for the update"
                            + " (operator.machineconfiguration.openshift.io/required-for-upgrade):"
                            + " it would wait for itself");
    }

    @Test
    void aJobsNameIsTheSameForTheSameRunFitsALabelAndDiffersPerConfig() {
        String longNode = "ip-10-0-131-44.eu-central-1.compute.internal.example.com";
        HookJob a = new HookJob(HookKind.POST_UPDATE, "worker", longNode, "rendered-worker-1");
        assertThat(a.name())
                .isEqualTo(
                        new HookJob(HookKind.POST_UPDATE, "worker", longNode, "rendered-worker-1")
                                .name())
                .hasSizeLessThanOrEqualTo(63)
                .matches("[a-z0-9]([-a-z0-9.]*[a-z0-9])?")
                .isNotEqualTo(
                        new HookJob(HookKind.POST_UPDATE, "worker", longNode, "rendered-worker-2")
                                .name());
        Job plain = new JobBuilder().withNewMetadata().withName("x").endMetadata().build();
        assertThat(HookJob.state(plain, Duration.ofMinutes(1), NOW))
                .isEqualTo(new HookJob.Running(null));
    }
}
