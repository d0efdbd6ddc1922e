package io.upshift.demo;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfig;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigPool;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigPoolCondition;
import io.upshift.pools.model.Canaries;
import io.upshift.pools.model.HealthGates;
import io.upshift.pools.model.NodeAnnotations;
import io.upshift.pools.model.OneFileConfig;
import io.upshift.pools.model.PoolMembers;
import io.upshift.pools.model.SoakTime;
import io.upshift.runtime.kube.MergePatch;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

/**
 * The demo's canary, as an administrator would run one: the worker pool gets one canary, a soak and
 * a health gate on pods labelled {@code app=backup}; a MachineConfig changes a file on its nodes;
 * while the canary soaks, a backup pod starts, the gate fires, and the pool controller pauses the
 * pool itself. The administrator then asks for the canary back on the previous config, ends the
 * backup, lifts the controls and unpauses: the change reaches every node. Every step is the real
 * pool controller's and agents', on the simulated cluster; each write here is conditional on the
 * object as read.
 */
public final class CanaryRun {
    public static final String PATH = "/etc/upshift-demo/canary";
    static final String POOL = "worker";

    private final KubernetesClient client;
    private final Clock clock;
    private final Consumer<String> say;

    CanaryRun(KubernetesClient client, Clock clock, Consumer<String> say) {
        this.client = client;
        this.clock = clock;
        this.say = say;
    }

    /** Runs the story, calling {@code tick} about once a second while it waits. */
    void run(Duration timeout, Runnable tick) throws InterruptedException {
        String before = target();
        patchPool(
                p ->
                        p.annotate(Canaries.ANNOTATION, "1")
                                .annotate(SoakTime.ANNOTATION, "1h")
                                .annotate(HealthGates.PODS, "app=backup"));
        say.accept(
                "pool worker: "
                        + Canaries.ANNOTATION
                        + "=1, "
                        + SoakTime.ANNOTATION
                        + "=1h, "
                        + HealthGates.PODS
                        + "=app=backup; changing "
                        + PATH
                        + " on its nodes");
        machineConfig();
        await("the canary soaking", timeout, tick, () -> "SoakTime".equals(heldReason()));
        String after = target();
        List<String> canaries = on(after);
        say.accept(String.join(", ", canaries) + ", the canary, runs " + after + "; " + held());

        List<Node> others =
                members().stream()
                        .filter(n -> !canaries.contains(n.getMetadata().getName()))
                        .toList();
        client.pods()
                .inNamespace("default")
                .resource(backup(others.get(others.size() - 1).getMetadata().getName()))
                .create();
        say.accept("pod default/backup-0 (app=backup) starts during the canary's soak");
        await(
                "the pool paused by its canary",
                timeout,
                tick,
                () -> paused() && "CanaryHalted".equals(heldReason()));
        say.accept("pool worker paused itself (spec.paused=true); " + held());

        patchPool(p -> p.annotate(Canaries.ROLLBACK, "true"));
        say.accept("asked for the canary back (" + Canaries.ROLLBACK + "=true)");
        await(
                "the canary back on " + before,
                timeout,
                tick,
                () -> on(before).size() == members().size());
        say.accept(String.join(", ", canaries) + " is back on " + before);

        client.pods().inNamespace("default").withName("backup-0").withGracePeriod(0).delete();
        patchPool(
                p ->
                        p.annotate(Canaries.ANNOTATION, "0")
                                .annotate(SoakTime.ANNOTATION, "0")
                                .set("spec.paused", false));
        say.accept("backup done; canaries and soak off, pool unpaused");
        await(
                "every worker on " + after,
                timeout,
                tick,
                () -> on(after).size() == members().size());
        say.accept("all " + members().size() + " workers run " + after);
    }

    private void await(String what, Duration timeout, Runnable tick, BooleanSupplier done)
            throws InterruptedException {
        Instant deadline = clock.instant().plus(timeout);
        while (!done.getAsBoolean()) {
            if (!clock.instant().isBefore(deadline))
                throw new IllegalStateException("canary: no " + what + " in " + timeout);
            tick.run();
            Thread.sleep(500);
        }
    }

    private MachineConfigPool pool() {
        return client.resources(MachineConfigPool.class).withName(POOL).get();
    }

    /**
     * A merge patch of the pool, conditional on it as read; read again when it changed meanwhile.
     */
    private void patchPool(UnaryOperator<MergePatch> change) {
        for (int attempt = 0; ; attempt++) {
            MachineConfigPool p = pool();
            try {
                change.apply(MergePatch.against(p)).sendTo(client, p);
                return;
            } catch (KubernetesClientException e) {
                if (e.getCode() != 409 || attempt == 4) throw e;
            }
        }
    }

    private String target() {
        MachineConfigPool p = pool();
        return p.getSpec().getConfiguration() == null
                ? ""
                : p.getSpec().getConfiguration().getName();
    }

    /** The pool's RolloutHeld condition, as kubectl shows it: status, reason, since, message. */
    private String held() {
        MachineConfigPool p = pool();
        return p.getStatus().getConditions().stream()
                .filter(c -> "RolloutHeld".equals(c.getType()))
                .map(
                        c ->
                                "RolloutHeld="
                                        + c.getStatus()
                                        + " "
                                        + c.getReason()
                                        + " since "
                                        + c.getLastTransitionTime()
                                        + ": "
                                        + c.getMessage())
                .findFirst()
                .orElse("RolloutHeld not reported");
    }

    private boolean paused() {
        return Boolean.TRUE.equals(pool().getSpec().getPaused());
    }

    private String heldReason() {
        MachineConfigPool p = pool();
        if (p.getStatus() == null || p.getStatus().getConditions() == null) return "";
        return p.getStatus().getConditions().stream()
                .filter(c -> "RolloutHeld".equals(c.getType()) && "True".equals(c.getStatus()))
                .map(MachineConfigPoolCondition::getReason)
                .findFirst()
                .orElse("");
    }

    private List<Node> members() {
        return PoolMembers.assign(List.of(pool()), client.nodes().list().getItems())
                .getOrDefault(POOL, List.of());
    }

    /** The pool's nodes done with {@code config}. */
    private List<String> on(String config) {
        return members().stream()
                .filter(
                        n -> {
                            Map<String, String> a = n.getMetadata().getAnnotations();
                            return a != null
                                    && config.equals(a.get(NodeAnnotations.CURRENT_CONFIG))
                                    && config.equals(a.get(NodeAnnotations.DESIRED_CONFIG))
                                    && NodeAnnotations.DONE.equals(a.get(NodeAnnotations.STATE));
                        })
                .map(n -> n.getMetadata().getName())
                .sorted()
                .toList();
    }

    private void machineConfig() {
        client.resources(MachineConfig.class)
                .resource(
                        OneFileConfig.of(
                                "99-worker-upshift-demo-canary",
                                POOL,
                                PATH,
                                "Changed first on the canary.\n"))
                .create();
    }

    private static Pod backup(String node) {
        return new PodBuilder()
                .withNewMetadata()
                .withName("backup-0")
                .withNamespace("default")
                .addToLabels("app", "backup")
                .endMetadata()
                .withNewSpec()
                .withNodeName(node)
                .addNewContainer()
                .withName("backup")
                .withImage("backup")
                .withCommand("sleep", "infinity")
                .endContainer()
                .endSpec()
                .build();
    }
}
