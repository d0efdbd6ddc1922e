package io.upshift.pools.agent;

import static io.upshift.pools.model.NodeAnnotations.LAST_APPLIED_DRAIN;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfig;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigPool;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigSpec;
import io.upshift.api.json.Mappers;
import io.upshift.pools.controller.MachineConfigurations;
import io.upshift.pools.machineconfignode.Transition;
import io.upshift.pools.machineconfignode.UpdateSteps;
import io.upshift.pools.model.DrainRules;
import io.upshift.pools.model.HostMarker;
import io.upshift.pools.model.NodeAnnotations;
import io.upshift.pools.model.PoolMembers;
import io.upshift.pools.model.UpdatePlan;
import java.io.InterruptedIOException;
import java.nio.channels.ClosedByInterruptException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One update of the node, from the config it runs to the one it is told, as a chain of steps:
 * prepare (read both configs and the disruption policies, plan), cordon and drain, apply the files
 * and OS, reboot or act, finish. Each step starts from what the one before left on the node and the
 * host, and each is idempotent, so an agent killed at any point redoes the remaining steps; after
 * the reboot the marker on the host ({@link HostMarker}) tells the next agent only to finish. A
 * step that fails records why on the node (Degraded, or Unreconcilable) and ends the update.
 */
final class NodeUpdate {
    private static final Logger LOG = LoggerFactory.getLogger(NodeUpdate.class);

    /** The update ended with the node failed; the reason is on the node. */
    private static final class NodeFailed extends Exception {
        NodeFailed() {
            super(null, null, false, false);
        }
    }

    private final KubernetesClient client;
    private final String nodeName;
    private final HostFiles host;
    private final HostOs os;
    private final AgentOptions options;
    private final Drainer drainer;
    private final RebootlessActions actions;
    private final NodeRecorder recorder;
    private final BooleanSupplier stopped;
    private final AgentMetrics metrics;

    /**
     * @param stopped whether the agent is being stopped: see {@link #stopping(RuntimeException)}
     */
    NodeUpdate(
            KubernetesClient client,
            String nodeName,
            HostFiles host,
            HostOs os,
            AgentOptions options,
            Drainer drainer,
            NodeRecorder recorder,
            BooleanSupplier stopped,
            AgentMetrics metrics) {
        this.client = client;
        this.nodeName = nodeName;
        this.host = host;
        this.os = os;
        this.options = options;
        this.drainer = drainer;
        this.actions = new RebootlessActions(os, recorder);
        this.recorder = recorder;
        this.stopped = stopped;
        this.metrics = metrics;
    }

    /**
     * Takes the node from {@code current} to {@code desired}.
     *
     * @return false when the node failed on {@code desired} (Degraded or Unreconcilable)
     */
    boolean run(Node node, String current, String desired) throws InterruptedException {
        try {
            UpdatePlan.Steps plan = prepare(node, current, desired);
            node = cordonAndDrain(node, plan);
            applyFilesAndOs(node, plan);
            node = rebootOrAct(node, plan);
            return finishAfterBoot(node, desired, plan.finished());
        } catch (NodeFailed e) {
            return false;
        }
    }

    /**
     * Reads the configs (and the node disruption policies, for a change) and plans; a config the
     * node cannot take in place is refused.
     */
    private UpdatePlan.Steps prepare(Node node, String current, String desired) throws NodeFailed {
        MachineConfig target = machineConfig(desired);
        recorder.begin(List.of(UpdateSteps.needsUpdate(nodeName)));
        MachineConfig running = target == null || current.isEmpty() ? null : machineConfig(current);
        GenericKubernetesResource configuration = running == null ? null : machineConfiguration();
        UpdatePlan plan =
                UpdatePlan.of(
                        nodeName,
                        current,
                        running,
                        desired,
                        target,
                        configuration,
                        annotations(node).getOrDefault(LAST_APPLIED_DRAIN, ""));
        if (plan instanceof UpdatePlan.Refused refused) {
            recorder.warning("FailedToReconcile", refused.reason());
            recorder.report(recorder.unreconcilable(node, refused.reason()), refused.report());
            LOG.warn("nodes/{}: Unreconcilable: {}", nodeName, refused.reason());
            throw new NodeFailed();
        }
        if (plan instanceof UpdatePlan.Failed failed) throw fail(node, failed.reason());
        UpdatePlan.Steps steps = (UpdatePlan.Steps) plan;
        LOG.info(
                "nodes/{}: {} -> {}: {}",
                nodeName,
                current.isEmpty() ? "(first config)" : current,
                desired,
                steps.disruption());
        return steps;
    }

    /** Working (and cordoned, when the plan drains), then the drain. */
    private Node cordonAndDrain(Node node, UpdatePlan.Steps plan)
            throws NodeFailed, InterruptedException {
        node = recorder.working(node, plan.drain(), plan.drains());
        recorder.report(node, plan.working());
        if (!plan.drains()) return node;
        DrainRules rules;
        try {
            rules = drainRules(node);
        } catch (IllegalArgumentException e) {
            throw fail(node, "failed to drain node: " + nodeName + ": " + e.getMessage());
        }
        recorder.event("Drain", "Draining node to update config.");
        Drainer.Result drained;
        try {
            drained = drainer.drain(nodeName, rules);
        } catch (RuntimeException | InterruptedException e) {
            metrics.drainEnded(true); // no longer refused; whether it drains is for the next try
            throw e;
        }
        metrics.drainEnded(drained.drained());
        String forced =
                drained.forced().isEmpty()
                        ? ""
                        : "deleted past their disruption budget after "
                                + options.drainTimeout()
                                + " ("
                                + DrainRules.AFTER_TIMEOUT
                                + ": Force): "
                                + String.join(", ", drained.forced());
        if (!forced.isEmpty()) recorder.warning("ForcedDrain", forced);
        if (!drained.drained()) {
            String reason =
                    drained.why() != null
                            ? "failed to drain node: "
                                    + nodeName
                                    + ": "
                                    + drained.why()
                                    + ": "
                                    + String.join(", ", drained.refused())
                            : plan.drainFailure(options.drainTimeout());
            recorder.warning(
                    "FailedToDrain",
                    drained.why() != null
                            ? reason
                            : reason
                                    + " (evictions refused: "
                                    + String.join(", ", drained.refused())
                                    + ")");
            recorder.note(plan.drainFailed(reason));
            throw fail(node, reason);
        }
        recorder.report(node, plan.drained(forced));
        return node;
    }

    /**
     * The drain rules of the node's pool ({@link DrainRules}), read once per drain; the defaults
     * when no pool selects the node.
     *
     * @throws IllegalArgumentException naming the annotation that does not parse
     */
    private DrainRules drainRules(Node node) {
        List<MachineConfigPool> pools = client.resources(MachineConfigPool.class).list().getItems();
        for (Map.Entry<String, List<Node>> e :
                PoolMembers.assign(pools, List.of(node)).entrySet()) {
            if (e.getValue().isEmpty()) continue;
            for (MachineConfigPool p : pools)
                if (p.getMetadata().getName().equals(e.getKey())) return DrainRules.of(p);
        }
        return DrainRules.DEFAULT;
    }

    /**
     * The files, units and keys; for a reboot, the OS staged and the marker that tells the next
     * agent the reboot is under way.
     */
    private void applyFilesAndOs(Node node, UpdatePlan.Steps plan)
            throws NodeFailed, InterruptedException {
        try {
            host.apply(ignition(plan.from()), ignition(plan.to()));
            if (plan.reboots()) {
                try {
                    os.stageOs(OsTarget.of(plan.to()));
                } catch (RuntimeException e) {
                    if (!stopped.getAsBoolean()) metrics.pivotFailed();
                    throw e;
                }
                host.write(
                        HostMarker.PATH, new HostMarker(plan.desired(), os.boot()).bytes(), 0600);
            }
        } catch (RuntimeException e) {
            stopping(e);
            throw fail(node, "failed to apply " + plan.desired() + ": " + e.getMessage());
        }
    }

    /** Rebooting and the reboot; or the plan's actions, without a reboot. */
    private Node rebootOrAct(Node node, UpdatePlan.Steps plan)
            throws NodeFailed, InterruptedException {
        if (plan.reboots()) {
            node = recorder.rebooting(node, plan.drain());
            recorder.report(node, plan.rebooting());
            recorder.event("Reboot", "Node will reboot into config " + plan.desired());
            try {
                os.reboot(); // a real host does not come back here: the next agent finishes
            } catch (RuntimeException e) {
                if (!stopped.getAsBoolean()) metrics.rebootFailed();
                throw e;
            }
            return node;
        }
        try {
            actions.carryOut(plan.disruption());
        } catch (RuntimeException e) {
            stopping(e);
            throw fail(node, e.getMessage());
        }
        return node;
    }

    /**
     * Done and uncordoned, reported with {@code steps} (how the update ended), resumed and
     * uncordoned; Updated follows at the agent's next step. The marker goes: a later update to this
     * same config must be applied again, not taken as done.
     */
    void finish(Node node, String desired, List<Transition> steps) {
        node = recorder.done(node, desired);
        List<Transition> report = new ArrayList<>(steps);
        report.addAll(List.of(UpdateSteps.resumed(desired), UpdateSteps.uncordoned()));
        recorder.report(node, report);
        host.delete(HostMarker.PATH);
        metrics.updateEnded(desired, "");
        LOG.info("nodes/{}: Done with {}", nodeName, desired);
    }

    /**
     * Finished as {@link #finish}; but after a reboot of this update (its marker on the host), not
     * when the host is not in the OS staged for this boot ({@link HostOs#bootFailure()}): then the
     * node is Degraded with the host's words and uncordoned, as it runs what it ran before, and the
     * marker goes (the boot it waited for is over); the config's files stay written.
     *
     * @return false when the node failed
     */
    boolean finishAfterBoot(Node node, String desired, List<Transition> steps) {
        Optional<String> failed =
                host.read(HostMarker.PATH) == null ? Optional.empty() : os.bootFailure();
        if (failed.isEmpty()) {
            finish(node, desired, steps);
            return true;
        }
        String reason = failed.get();
        recorder.warning("OSUpdateFailed", reason);
        metrics.updateEnded(desired, reason);
        recorder.report(
                recorder.fellBack(node, reason), List.of(UpdateSteps.degraded(nodeName, reason)));
        host.delete(HostMarker.PATH);
        LOG.warn("nodes/{}: Degraded, back on the OS it ran before: {}", nodeName, reason);
        return false;
    }

    /** The node Degraded with {@code reason}; the update ends. */
    private NodeFailed fail(Node node, String reason) {
        metrics.updateEnded(
                annotations(node).getOrDefault(NodeAnnotations.DESIRED_CONFIG, ""), reason);
        recorder.report(
                recorder.degraded(node, reason), List.of(UpdateSteps.degraded(nodeName, reason)));
        LOG.warn("nodes/{}: Degraded: {}", nodeName, reason);
        return new NodeFailed();
    }

    /**
     * A host step that failed because the agent is being stopped (its write or command interrupted)
     * says nothing about the host: the agent ends without degrading the node, and the next agent
     * does the step again.
     */
    private void stopping(RuntimeException e) throws InterruptedException {
        boolean interrupted = stopped.getAsBoolean() || Thread.currentThread().isInterrupted();
        for (Throwable c = e; c != null && !interrupted; c = c.getCause()) {
            interrupted =
                    c instanceof ClosedByInterruptException || c instanceof InterruptedIOException;
        }
        if (interrupted)
            throw new InterruptedException("stopped during a host step: " + e.getMessage());
    }

    private MachineConfig machineConfig(String name) {
        return client.resources(MachineConfig.class).withName(name).get();
    }

    /** The cluster's MachineConfiguration, read once per update; null when there is none. */
    private GenericKubernetesResource machineConfiguration() {
        return client.genericKubernetesResources(MachineConfigurations.CONTEXT)
                .withName(MachineConfigurations.NAME)
                .get();
    }

    private static JsonNode ignition(MachineConfigSpec spec) {
        return spec == null || spec.getConfig() == null
                ? Mappers.JSON.createObjectNode()
                : Mappers.JSON.valueToTree(spec.getConfig());
    }

    private static Map<String, String> annotations(Node n) {
        return n.getMetadata().getAnnotations() == null
                ? Map.of()
                : n.getMetadata().getAnnotations();
    }
}
