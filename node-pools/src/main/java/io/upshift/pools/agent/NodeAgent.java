package io.upshift.pools.agent;

import static io.upshift.pools.model.NodeAnnotations.CURRENT_CONFIG;
import static io.upshift.pools.model.NodeAnnotations.DEGRADED;
import static io.upshift.pools.model.NodeAnnotations.DESIRED_CONFIG;
import static io.upshift.pools.model.NodeAnnotations.DESIRED_DRAIN;
import static io.upshift.pools.model.NodeAnnotations.DONE;
import static io.upshift.pools.model.NodeAnnotations.LAST_APPLIED_DRAIN;
import static io.upshift.pools.model.NodeAnnotations.REASON;
import static io.upshift.pools.model.NodeAnnotations.REBOOTING;
import static io.upshift.pools.model.NodeAnnotations.STATE;
import static io.upshift.pools.model.NodeAnnotations.UNRECONCILABLE;
import static io.upshift.pools.model.NodeAnnotations.UPDATE_DONE_AT;
import static io.upshift.pools.model.NodeAnnotations.UPDATE_STARTED_AT;
import static io.upshift.pools.model.NodeAnnotations.WORKING;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfig;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigSpec;
import io.upshift.api.json.Mappers;
import io.upshift.pools.controller.MachineConfigurations;
import io.upshift.pools.disruption.ConfigDiff;
import io.upshift.pools.disruption.DisruptionPlan;
import io.upshift.pools.disruption.DisruptionPolicies;
import io.upshift.pools.disruption.Reconcilable;
import io.upshift.pools.machineconfignode.Transition;
import io.upshift.pools.machineconfignode.UpdateSteps;
import io.upshift.pools.model.DrainEvents;
import io.upshift.runtime.kube.ApiErrors;
import io.upshift.runtime.kube.Events;
import io.upshift.runtime.kube.InformerFailures;
import io.upshift.runtime.kube.MergePatch;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The node agent: brings its node to the config the pool controller set in {@code desiredConfig},
 * as disruptive as the change needs and no more. The change between the node's config and the new
 * one, weighed against the cluster's node disruption policies ({@link DisruptionPlan}), says what
 * it takes: a Reboot (the OS changes, or a file or unit no policy covers) is Working and cordon
 * (one write), drain (evictions), write files and units, stage the OS, Rebooting, reboot; a Drain
 * is the same without the OS and the reboot; None and the systemd actions (reload, restart,
 * daemon-reload) write the files and act, with no cordon, drain or reboot. Each records an Event on
 * the node, with upstream's reasons (Drain, Reboot, SkipReboot, ServiceReload, ServiceRestart).
 * Then {@code currentConfig}, Done, empty reason and uncordon (one write). A config it cannot take
 * in place makes it Unreconcilable. It wakes on every event on its node (a watch), polling only as
 * a fallback. Each step starts from the node's annotations and a marker on the host (the config
 * written and the boot it was written in), so an agent killed at any point picks up where it was:
 * before the reboot it does the remaining steps again (all of them are idempotent), after it only
 * finishes. It reports each phase in its node's MachineConfigNode with upstream's conditions
 * ({@link ProgressReport}, {@link UpdateSteps}), at the moments it writes the node: Working
 * (prepared, cordoned and draining, or applying), drained, Rebooting (files and OS applied), Done
 * (rebooted, resumed, uncordoned), then Updated.
 */
public final class NodeAgent implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(NodeAgent.class);
    private static final ObjectMapper JSON = Mappers.JSON;

    /** Where the agent remembers, on the host, which config it wrote and in which boot. */
    static final String MARKER = "/etc/upshift/pending-config";

    private final KubernetesClient client;
    private final String nodeName;
    private final HostFiles host;
    private final HostOs os;
    private final AgentOptions options;
    private final Clock clock;
    private final Drainer drainer;
    private final Events events;
    private final RebootlessActions actions;
    private final ProgressReport progress;
    private final Thread thread;

    /**
     * Released by every event on the node, so the agent steps at once instead of at its next poll.
     */
    private final Semaphore wake = new Semaphore(0);

    private volatile Watch watch;

    /** The resourceVersion the agent's last write produced. */
    private volatile String ownWrite = "";

    /**
     * The node as the watch (or the agent's own last write) last showed it; read from the API while
     * there is no watch.
     */
    private volatile Node seen;

    private volatile boolean stopped;
    private Instant degradedAt;

    /** The config the node failed on; another one is tried at once. */
    private String degradedFor;

    public NodeAgent(
            KubernetesClient client,
            String nodeName,
            HostFiles host,
            HostOs os,
            AgentOptions options,
            Clock clock) {
        this.client = client;
        this.nodeName = nodeName;
        this.host = host;
        this.os = os;
        this.options = options;
        this.clock = clock;
        this.events = new Events(client, clock, "v1", "Node", nodeName, "upshift-agent");
        this.actions = new RebootlessActions(os, events);
        this.progress = new ProgressReport(client, nodeName, clock);
        this.drainer =
                new Drainer(
                        client,
                        clock,
                        options,
                        (pod, budget) -> {
                            String refusal = DrainEvents.refusal(budget, pod);
                            events.warning(DrainEvents.REASON, refusal);
                            Node node = seen;
                            if (node != null)
                                progress.report(
                                        node,
                                        List.of(
                                                UpdateSteps.drainFailed(
                                                        refusal,
                                                        "drain-" + annotation(node, DESIRED_CONFIG),
                                                        annotation(node, LAST_APPLIED_DRAIN))));
                        });
        this.thread = new Thread(this::run, "agent-" + nodeName);
        this.thread.setDaemon(true);
    }

    /**
     * The client an agent needs: one that does not retry by itself, since a refused eviction (429)
     * must come back at once for the agent's own drain timing rather than after the client's
     * backoff.
     */
    public static KubernetesClient client(Config config) {
        return new KubernetesClientBuilder()
                .withConfig(new ConfigBuilder(config).withRequestRetryBackoffLimit(0).build())
                .build();
    }

    public NodeAgent start() {
        thread.start();
        return this;
    }

    private void run() {
        String lastFailure =
                null; // a failure repeated at every poll is logged once, until something else
        // happens
        while (!stopped) {
            try {
                watchNode();
                wake.drainPermits(); // an event from here on wakes the wait below, even one
                // that comes during the step
                boolean busy = step();
                lastFailure = null;
                if (!busy) wake.tryAcquire(options.poll().toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                if (stopped) return;
                boolean api = ApiErrors.code(e) > 0;
                String failure = api ? ApiErrors.describe(e) : e.toString();
                if (failure.equals(lastFailure)) {
                    LOG.debug("nodes/{}: again: {}", nodeName, failure, e);
                } else if (api) {
                    LOG.warn(
                            "nodes/{}: {}; retrying every {}",
                            nodeName,
                            failure,
                            InformerFailures.human(options.poll()));
                    LOG.debug("nodes/{}: API error", nodeName, e);
                } else {
                    LOG.error(
                            "nodes/{}: {}; retrying every {}",
                            nodeName,
                            failure,
                            InformerFailures.human(options.poll()),
                            e);
                }
                lastFailure = failure;
                sleepQuietly(options.poll());
            }
        }
    }

    /**
     * Watches the node (again, after the watch ended), as the agent's wake-up; the poll remains the
     * fallback.
     */
    private void watchNode() {
        if (watch != null) return;
        watch =
                client.nodes()
                        .withName(nodeName)
                        .watch(
                                new Watcher<>() {
                                    @Override
                                    public void eventReceived(Action action, Node node) {
                                        seen = action == Action.DELETED ? null : node;
                                        // the echo of the agent's own last write tells it nothing
                                        // new
                                        if (!node.getMetadata()
                                                .getResourceVersion()
                                                .equals(ownWrite)) wake.release();
                                    }

                                    @Override
                                    public void onClose(WatcherException cause) {
                                        watch = null;
                                        seen = null;
                                        wake.release();
                                    }
                                });
    }

    /**
     * One step towards the desired config.
     *
     * @return true when it did something (so the next step should follow at once)
     */
    public boolean step() throws InterruptedException {
        Node node = current();
        if (node == null) throw new IllegalStateException("node " + nodeName + " not found");
        Map<String, String> a =
                node.getMetadata().getAnnotations() == null
                        ? Map.of()
                        : node.getMetadata().getAnnotations();
        String desired = a.getOrDefault(DESIRED_CONFIG, "");
        String current = a.getOrDefault(CURRENT_CONFIG, "");
        String state = a.getOrDefault(STATE, "");
        if (desired.isEmpty()) return false; // the controller has not given this node a config yet
        String[] marker = marker();
        boolean rebooted =
                marker != null && marker[0].equals(desired) && !marker[1].equals(os.bootId());
        boolean failed = DEGRADED.equals(state) || UNRECONCILABLE.equals(state);
        // told the config it runs (a failed config taken back included): it is done with it
        if (rebooted || (current.equals(desired) && !DONE.equals(state))) {
            // rebooted into the config by an agent before this one, or told again the config it
            // runs: the report
            // tells how this update ends, not the steps of one left behind
            progress.begin(
                    rebooted
                            ? List.of(UpdateSteps.rebooted(), UpdateSteps.succeeded(nodeName))
                            : List.of());
            finish(node, desired, List.of());
            return true;
        }
        if (current.equals(desired)) {
            progress.idle(node, List.of(UpdateSteps.updated(nodeName)));
            return false;
        }
        if (failed) {
            if (degradedFor == null)
                degradedFor =
                        desired; // an agent restarted on a failed node waits as if it had just
            // failed
            if (degradedAt == null) degradedAt = clock.instant();
            // a new config is tried at once: it may be the fix
            if (desired.equals(degradedFor)
                    && clock.instant().isBefore(degradedAt.plus(options.degradedRetry())))
                return false;
        }
        degradedAt = null;
        degradedFor = null;
        update(node, current, desired);
        return true;
    }

    /**
     * Takes the node from {@code current} to {@code desired} as the node disruption policies allow:
     * refused when it cannot be done in place (Unreconcilable); else Working, and cordoned and
     * drained when the plan drains; files, units and keys written; then either the OS staged and a
     * reboot, or the plan's systemd actions (None: nothing).
     */
    private void update(Node node, String current, String desired) throws InterruptedException {
        MachineConfig target = client.resources(MachineConfig.class).withName(desired).get();
        progress.begin(List.of(UpdateSteps.needsUpdate(nodeName)));
        if (target == null) {
            degrade(node, desired, "missing MachineConfig " + desired);
            return;
        }
        MachineConfig running =
                current.isEmpty()
                        ? null
                        : client.resources(MachineConfig.class).withName(current).get();
        // a node's first config, or one whose config is gone: everything is applied, and the node
        // reboots into it
        MachineConfigSpec from = running == null ? null : spec(running), to = spec(target);
        Optional<String> refused = Reconcilable.check(current, from, desired, to);
        if (refused.isPresent()) {
            unreconcilable(node, current, desired, refused.get());
            return;
        }
        DisruptionPlan plan;
        try {
            plan =
                    from == null
                            ? DisruptionPlan.REBOOT
                            : DisruptionPlan.of(ConfigDiff.between(from, to), policies());
        } catch (IllegalArgumentException e) {
            degrade(
                    node,
                    desired,
                    "invalid MachineConfiguration "
                            + MachineConfigurations.NAME
                            + ": "
                            + e.getMessage());
            return;
        }
        LOG.info(
                "nodes/{}: {} -> {}: {}",
                nodeName,
                current.isEmpty() ? "(first config)" : current,
                desired,
                plan);
        String lastDrain = annotation(node, LAST_APPLIED_DRAIN);
        node =
                write(
                        node,
                        n -> {
                            MergePatch patch =
                                    MergePatch.against(n)
                                            .annotate(STATE, WORKING)
                                            .annotate(REASON, "");
                            if (!updating(n)) patch.annotate(UPDATE_STARTED_AT, stamp());
                            return plan.drains()
                                    ? patch.set("spec.unschedulable", true)
                                            .annotate(DESIRED_DRAIN, "drain-" + desired)
                                    : patch;
                        });
        ConfigDiff diff = ConfigDiff.between(from == null ? new MachineConfigSpec() : from, to);
        // upstream's "OS will (not) need an update": the image, extensions or kernel type; "SSH
        // Keys": the core user's keys
        boolean osChange = diff.osImage() || diff.extensions() || diff.kernelType();
        progress.report(
                node,
                plan.drains()
                        ? List.of(
                                UpdateSteps.prepared(plan),
                                UpdateSteps.cordoned(),
                                UpdateSteps.draining("drain-" + desired, lastDrain))
                        : List.of(
                                UpdateSteps.prepared(plan),
                                UpdateSteps.drainNotRequired(),
                                UpdateSteps.applying(osChange, diff.passwd())));
        if (plan.drains()) {
            events.normal("Drain", "Draining node to update config.");
            Drainer.Result drained = drainer.drain(nodeName);
            if (!drained.drained()) {
                String reason = DrainEvents.timedOut(nodeName, options.drainTimeout());
                events.warning(
                        "FailedToDrain",
                        reason
                                + " (evictions refused: "
                                + String.join(", ", drained.refused())
                                + ")");
                progress.note(
                        List.of(UpdateSteps.drainFailed(reason, "drain-" + desired, lastDrain)));
                degrade(node, desired, reason);
                return;
            }
            progress.report(
                    node,
                    List.of(
                            UpdateSteps.drained("drain-" + desired),
                            UpdateSteps.applying(osChange, diff.passwd())));
        }
        try {
            host.apply(ignition(from), ignition(to));
            if (plan.reboots()) {
                os.stageOs(OsTarget.of(to));
                host.write(
                        MARKER,
                        (desired + "\n" + os.bootId() + "\n").getBytes(StandardCharsets.UTF_8),
                        0600);
            }
        } catch (RuntimeException e) {
            stopping(e);
            degrade(node, desired, "failed to apply " + desired + ": " + e.getMessage());
            return;
        }
        List<Transition> finished = new ArrayList<>();
        if (plan.reboots()) {
            node =
                    write(
                            node,
                            n ->
                                    MergePatch.against(n)
                                            .annotate(LAST_APPLIED_DRAIN, "drain-" + desired)
                                            .annotate(STATE, REBOOTING));
            progress.report(
                    node,
                    List.of(
                            UpdateSteps.applied(osChange, diff.passwd()),
                            UpdateSteps.rebooting(),
                            UpdateSteps.succeeded(nodeName)));
            events.normal("Reboot", "Node will reboot into config " + desired);
            os.reboot();
            finished.add(
                    UpdateSteps
                            .rebooted()); // where the reboot ends the agent, the next one reports
            // it (step)
        } else {
            try {
                actions.carryOut(plan);
            } catch (RuntimeException e) {
                stopping(e);
                degrade(node, desired, e.getMessage());
                return;
            }
            finished.add(UpdateSteps.applied(osChange, diff.passwd()));
            finished.addAll(UpdateSteps.postActions(plan));
            finished.add(UpdateSteps.succeeded(nodeName));
        }
        finish(node, desired, finished);
    }

    /**
     * The cluster's node disruption policies, read once per update: the defaults when there is no
     * MachineConfiguration.
     */
    private DisruptionPolicies policies() {
        return MachineConfigurations.policies(
                client.genericKubernetesResources(MachineConfigurations.CONTEXT)
                        .withName(MachineConfigurations.NAME)
                        .get());
    }

    private static MachineConfigSpec spec(MachineConfig mc) {
        return mc.getSpec() == null ? new MachineConfigSpec() : mc.getSpec();
    }

    private static JsonNode ignition(MachineConfigSpec spec) {
        return spec == null || spec.getConfig() == null
                ? JSON.createObjectNode()
                : JSON.valueToTree(spec.getConfig());
    }

    /**
     * Done and uncordoned in one write: no moment where the node is Done but still cordoned,
     * whatever kills the agent. Reported with {@code steps} (how the update ended), resumed and
     * uncordoned; Updated follows at the next step.
     */
    private void finish(Node node, String desired, List<Transition> steps) {
        node =
                write(
                        node,
                        n ->
                                MergePatch.against(n)
                                        .annotate(CURRENT_CONFIG, desired)
                                        .annotate(STATE, DONE)
                                        .annotate(REASON, "")
                                        .annotate(DESIRED_DRAIN, "uncordon-" + desired)
                                        .set("spec.unschedulable", false)
                                        .annotate(LAST_APPLIED_DRAIN, "uncordon-" + desired)
                                        .annotate(UPDATE_DONE_AT, stamp()));
        List<Transition> report = new ArrayList<>(steps);
        report.addAll(List.of(UpdateSteps.resumed(desired), UpdateSteps.uncordoned()));
        progress.report(node, report);
        host.delete(
                MARKER); // a later update to this same config must be applied again, not taken as
        // done
        LOG.info("nodes/{}: Done with {}", nodeName, desired);
    }

    /**
     * Whether the node's update is already under way (started after it was last done): an agent
     * restarted mid-update, or trying again after a failure, keeps the time it first started, so
     * the measured time is the whole update's.
     */
    private static boolean updating(Node n) {
        Map<String, String> a =
                n.getMetadata().getAnnotations() == null
                        ? Map.of()
                        : n.getMetadata().getAnnotations();
        String started = a.get(UPDATE_STARTED_AT), done = a.get(UPDATE_DONE_AT);
        try {
            return started != null
                    && (done == null || Instant.parse(started).isAfter(Instant.parse(done)));
        } catch (java.time.DateTimeException e) {
            return false;
        }
    }

    /** A time for the update annotations: RFC 3339 to the millisecond. */
    private String stamp() {
        return clock.instant().truncatedTo(java.time.temporal.ChronoUnit.MILLIS).toString();
    }

    private void degrade(Node node, String desired, String reason) {
        node =
                write(
                        node,
                        n ->
                                MergePatch.against(n)
                                        .annotate(STATE, DEGRADED)
                                        .annotate(REASON, reason));
        progress.report(node, List.of(UpdateSteps.degraded(nodeName, reason)));
        degradedAt = clock.instant();
        degradedFor = desired;
        LOG.warn("nodes/{}: Degraded: {}", nodeName, reason);
    }

    /**
     * A config the node cannot take in place: state Unreconcilable with the reason, and a
     * FailedToReconcile event.
     */
    private void unreconcilable(Node node, String current, String desired, String reason) {
        events.warning("FailedToReconcile", reason);
        node =
                write(
                        node,
                        n ->
                                MergePatch.against(n)
                                        .annotate(STATE, UNRECONCILABLE)
                                        .annotate(REASON, reason));
        // upstream reports the validation error without the "can't reconcile config A with B: " its
        // annotation carries
        String prefix = "can't reconcile config " + current + " with " + desired + ": ";
        progress.report(
                node,
                List.of(
                        UpdateSteps.incompatible(
                                current,
                                desired,
                                reason.startsWith(prefix)
                                        ? reason.substring(prefix.length())
                                        : reason),
                        UpdateSteps.degraded(nodeName, reason)));
        degradedAt = clock.instant();
        degradedFor = desired;
        LOG.warn("nodes/{}: Unreconcilable: {}", nodeName, reason);
    }

    private static String annotation(Node node, String key) {
        Map<String, String> a = node.getMetadata().getAnnotations();
        return a == null ? "" : a.getOrDefault(key, "");
    }

    /** The node as the watch shows it, or from the API while there is no watch. */
    private Node current() {
        Node node = watch == null ? null : seen;
        if (node == null) node = client.nodes().withName(nodeName).get();
        if (node == null) throw new IllegalStateException("node " + nodeName + " not found");
        return node;
    }

    /**
     * Writes the agent's fields onto {@code node}, conditional on the node as read: when someone
     * wrote the node meanwhile (409), the patch is made again against the node as it is now (the
     * agent's fields are its own, the rest is left as the other writer left it).
     */
    private Node write(Node node, java.util.function.Function<Node, MergePatch> patchOf) {
        for (int attempt = 0; ; attempt++) {
            MergePatch patch = patchOf.apply(node);
            if (patch.isEmpty()) return node;
            try {
                Node written = patch.sendTo(client, node);
                ownWrite = written.getMetadata().getResourceVersion();
                seen = written;
                return written;
            } catch (KubernetesClientException e) {
                if (e.getCode() != 409 || attempt >= 4) throw e;
                node = client.nodes().withName(nodeName).get();
                if (node == null) throw e;
            }
        }
    }

    /**
     * A host step that failed because the agent is being stopped (its write or command interrupted)
     * says nothing about the host: the agent ends without degrading the node, and the next agent
     * does the step again.
     */
    private void stopping(RuntimeException e) throws InterruptedException {
        boolean interrupted = stopped || Thread.currentThread().isInterrupted();
        for (Throwable c = e; c != null && !interrupted; c = c.getCause()) {
            interrupted =
                    c instanceof java.nio.channels.ClosedByInterruptException
                            || c instanceof java.io.InterruptedIOException;
        }
        if (interrupted)
            throw new InterruptedException("stopped during a host step: " + e.getMessage());
    }

    /** The config written before the last reboot and the boot id then, or null. */
    private String[] marker() {
        byte[] content = host.read(MARKER);
        if (content == null) return null;
        String[] lines = new String(content, StandardCharsets.UTF_8).split("\n");
        return lines.length >= 2 ? new String[] {lines[0], lines[1]} : null;
    }

    private void sleepQuietly(Duration d) {
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            stopped = true;
        }
    }

    @Override
    public void close() {
        stopped = true;
        Watch w = watch;
        if (w != null) w.close();
        thread.interrupt();
        try {
            thread.join(5000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
