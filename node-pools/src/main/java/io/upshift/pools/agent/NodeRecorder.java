package io.upshift.pools.agent;

import static io.upshift.pools.model.NodeAnnotations.CURRENT_CONFIG;
import static io.upshift.pools.model.NodeAnnotations.DEGRADED;
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

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.upshift.pools.machineconfignode.Transition;
import io.upshift.runtime.kube.Events;
import io.upshift.runtime.kube.MergePatch;
import java.time.Clock;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The one writer of the node agent: its node's annotations and cordon, each a merge patch
 * conditional on the node as read (when someone wrote the node meanwhile, 409, the patch is made
 * again against the node as it is now: the agent's fields are its own, the rest is left as the
 * other writer left it); the Events on the node, with upstream's reasons; and the update's progress
 * in the node's MachineConfigNode ({@link ProgressReport}).
 */
final class NodeRecorder {
    private final KubernetesClient client;
    private final OwnNode own;
    private final Clock clock;
    private final Events events;
    private final ProgressReport progress;

    NodeRecorder(KubernetesClient client, String nodeName, OwnNode own, Clock clock) {
        this.client = client;
        this.own = own;
        this.clock = clock;
        this.events = new Events(client, clock, "v1", "Node", nodeName, "upshift-agent");
        this.progress = new ProgressReport(client, nodeName, clock);
    }

    /**
     * Working, with an empty reason, and cordoned with {@code desiredDrain} when the update drains:
     * one write. An update already under way (an agent restarted mid-update, or trying again after
     * a failure) keeps the time it first started, so that the time measured is the whole update's.
     */
    Node working(Node node, String desiredDrain, boolean cordon) {
        return write(
                node,
                n -> {
                    MergePatch patch =
                            MergePatch.against(n).annotate(STATE, WORKING).annotate(REASON, "");
                    if (!underWay(annotations(n))) patch.annotate(UPDATE_STARTED_AT, stamp());
                    return cordon
                            ? patch.set("spec.unschedulable", true)
                                    .annotate(DESIRED_DRAIN, desiredDrain)
                            : patch;
                });
    }

    /** Drained, files and OS applied: Rebooting, one write. */
    Node rebooting(Node node, String drain) {
        return write(
                node,
                n ->
                        MergePatch.against(n)
                                .annotate(LAST_APPLIED_DRAIN, drain)
                                .annotate(STATE, REBOOTING));
    }

    /**
     * {@code config} current, Done, no reason, and uncordoned, in one write: no moment where the
     * node is Done but still cordoned, whatever kills the agent.
     */
    Node done(Node node, String config) {
        return write(
                node,
                n ->
                        MergePatch.against(n)
                                .annotate(CURRENT_CONFIG, config)
                                .annotate(STATE, DONE)
                                .annotate(REASON, "")
                                .annotate(DESIRED_DRAIN, "uncordon-" + config)
                                .set("spec.unschedulable", false)
                                .annotate(LAST_APPLIED_DRAIN, "uncordon-" + config)
                                .annotate(UPDATE_DONE_AT, stamp()));
    }

    /**
     * Degraded with {@code reason}, and uncordoned in the same write: the host fell back to the OS
     * it ran before ({@link HostOs#bootFailure()}), so the node is as it was before the update and
     * may take workloads again, and a later config may be rolled out to it.
     */
    Node fellBack(Node node, String reason) {
        String current = annotations(node).getOrDefault(CURRENT_CONFIG, "");
        return write(
                node,
                n ->
                        MergePatch.against(n)
                                .annotate(STATE, DEGRADED)
                                .annotate(REASON, reason)
                                .annotate(DESIRED_DRAIN, "uncordon-" + current)
                                .set("spec.unschedulable", false)
                                .annotate(LAST_APPLIED_DRAIN, "uncordon-" + current));
    }

    Node degraded(Node node, String reason) {
        return write(
                node,
                n -> MergePatch.against(n).annotate(STATE, DEGRADED).annotate(REASON, reason));
    }

    Node unreconcilable(Node node, String reason) {
        return write(
                node,
                n ->
                        MergePatch.against(n)
                                .annotate(STATE, UNRECONCILABLE)
                                .annotate(REASON, reason));
    }

    void event(String reason, String message) {
        events.normal(reason, message);
    }

    void warning(String reason, String message) {
        events.warning(reason, message);
    }

    /** A new update's report begins with {@code first}. */
    void begin(List<Transition> first) {
        progress.begin(first);
    }

    /** Steps reached, reported with the next report. */
    void note(List<Transition> steps) {
        progress.note(steps);
    }

    /** Every step of the update so far, with {@code more}. */
    void report(Node node, List<Transition> more) {
        progress.report(node, more);
    }

    /** The node runs its config and nothing is under way. */
    void idle(Node node, List<Transition> state) {
        progress.idle(node, state);
    }

    private Node write(Node node, Function<Node, MergePatch> patchOf) {
        for (int attempt = 0; ; attempt++) {
            MergePatch patch = patchOf.apply(node);
            if (patch.isEmpty()) return node;
            try {
                Node written = patch.sendTo(client, node);
                own.wrote(written);
                return written;
            } catch (KubernetesClientException e) {
                if (e.getCode() != 409 || attempt >= 4) throw e;
                node = own.read();
            }
        }
    }

    /** A time for the update annotations: RFC 3339 to the millisecond. */
    private String stamp() {
        return clock.instant().truncatedTo(ChronoUnit.MILLIS).toString();
    }

    /** The node's update started after it was last done. */
    private static boolean underWay(Map<String, String> a) {
        String started = a.get(UPDATE_STARTED_AT), done = a.get(UPDATE_DONE_AT);
        try {
            return started != null
                    && (done == null || Instant.parse(started).isAfter(Instant.parse(done)));
        } catch (DateTimeException e) {
            return false;
        }
    }

    private static Map<String, String> annotations(Node n) {
        return n.getMetadata().getAnnotations() == null
                ? Map.of()
                : n.getMetadata().getAnnotations();
    }
}
