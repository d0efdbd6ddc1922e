package io.upshift.pools.agent;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigNode;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigNodeStatus;
import io.upshift.api.json.Mappers;
import io.upshift.pools.machineconfignode.NodeStatus;
import io.upshift.pools.machineconfignode.Transition;
import io.upshift.pools.model.NodeAnnotations;
import io.upshift.runtime.kube.ApiErrors;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The node agent's reports in its node's MachineConfigNode (created by the pool controller): the
 * steps of the update under way, all of them each time, so that a report lost to an outage or a
 * restart is made good by the next, and one status write per phase, none when nothing changed
 * ({@link NodeStatus}). The status is written as an update conditional on the object it was
 * computed from; the agent is its only writer, so the object it last wrote is what it computes
 * from, read again only when the pool controller changed the spec (a new desired config) or a write
 * found the object changed. The report is the update's witness, not its driver: a node without a
 * MachineConfigNode (none yet, the CRD not installed) or a refused write leaves the update going.
 */
final class ProgressReport {
    private static final Logger LOG = LoggerFactory.getLogger(ProgressReport.class);
    private static final ObjectMapper JSON = Mappers.JSON;

    /**
     * How often an idle agent reads its MachineConfigNode again (one someone else may have
     * replaced): it wakes on every event of its node, and compares in memory otherwise.
     */
    static final Duration LOOK_AGAIN = Duration.ofMinutes(10);

    /**
     * How soon an idle agent reads again a MachineConfigNode it did not find: the pool controller
     * makes one anew soon after it is deleted, and no event of the node says so. The wait doubles
     * at each look that finds none, up to {@link #LOOK_AGAIN}: a cluster without the kind costs a
     * handful of reads, then one each ten minutes.
     */
    static final Duration LOOK_FOR_MISSING = Duration.ofSeconds(10);

    private final KubernetesClient client;
    private final String nodeName;
    private final Clock clock;
    private final List<Transition> steps = new ArrayList<>();
    private MachineConfigNode known;

    /** When the agent last read the object (found or not). */
    private Instant readAt;

    private boolean missingSaid;

    /** Reads in a row that found no object. */
    private int missingLooks;

    ProgressReport(KubernetesClient client, String nodeName, Clock clock) {
        this.client = client;
        this.nodeName = nodeName;
        this.clock = clock;
    }

    /** A new update begins with {@code first}, reported with the next report. */
    synchronized void begin(List<Transition> first) {
        steps.clear();
        steps.addAll(first);
    }

    /** Steps reached, reported with the next report (which comes with the node's next write). */
    synchronized void note(List<Transition> more) {
        steps.addAll(more);
    }

    /** The update reached further steps: every step so far is reported. */
    synchronized void report(Node node, List<Transition> more) {
        steps.addAll(more);
        write(node, List.copyOf(steps), false);
    }

    /**
     * The node runs the config it is told and nothing is under way: reported once, then only looked
     * at in memory.
     */
    synchronized void idle(Node node, List<Transition> state) {
        steps.clear();
        write(node, state, true);
    }

    private void write(Node node, List<Transition> report, boolean idle) {
        Map<String, String> a =
                node.getMetadata().getAnnotations() == null
                        ? Map.of()
                        : node.getMetadata().getAnnotations();
        String current = a.getOrDefault(NodeAnnotations.CURRENT_CONFIG, ""),
                desired = a.getOrDefault(NodeAnnotations.DESIRED_CONFIG, "");
        try {
            MachineConfigNode mcn = known;
            boolean lately = readAt != null && clock.instant().isBefore(readAt.plus(lookAgain()));
            if (idle ? !lately : mcn == null || !desired.equals(specDesired(mcn))) mcn = read();
            if (mcn == null) return;
            for (int attempt = 0; mcn != null; attempt++) {
                MachineConfigNodeStatus next =
                        NodeStatus.next(mcn, report, current, desired, clock.instant());
                if (JSON.valueToTree(next).equals(JSON.valueToTree(mcn.getStatus()))) return;
                MachineConfigNode write =
                        JSON.convertValue(JSON.valueToTree(mcn), MachineConfigNode.class);
                write.setStatus(next);
                try {
                    known = client.resource(write).updateStatus();
                    return;
                } catch (KubernetesClientException e) {
                    if ((e.getCode() != 409 && e.getCode() != 404) || attempt >= 4) throw e;
                    mcn = read(); // the pool controller wrote the spec meanwhile, or deleted and
                    // made the object anew
                }
            }
        } catch (KubernetesClientException e) {
            known = null;
            LOG.warn(
                    "machineconfignodes/{}: progress not reported ({}); reported again at the next"
                            + " step",
                    nodeName,
                    ApiErrors.describe(e));
        }
    }

    private MachineConfigNode read() {
        readAt = clock.instant(); // a refused read counts too: an idle agent does not ask again
        // at every event
        MachineConfigNode mcn;
        try {
            mcn = client.resources(MachineConfigNode.class).withName(nodeName).get();
        } catch (KubernetesClientException e) {
            if (e.getCode() != 404) throw e;
            mcn = null; // no such kind here: the CRD is not installed
        }
        if (mcn == null && !missingSaid) {
            LOG.info(
                    "machineconfignodes/{}: none; the update's progress is reported once the pool"
                            + " controller creates it",
                    nodeName);
        }
        missingSaid = mcn == null;
        missingLooks = mcn == null ? missingLooks + 1 : 0;
        known = mcn;
        return mcn;
    }

    /** How long after a read an idle agent trusts it. */
    private Duration lookAgain() {
        if (missingLooks == 0) return LOOK_AGAIN;
        Duration wait = LOOK_FOR_MISSING.multipliedBy(1L << Math.min(missingLooks - 1, 6));
        return wait.compareTo(LOOK_AGAIN) < 0 ? wait : LOOK_AGAIN;
    }

    private static String specDesired(MachineConfigNode mcn) {
        return mcn.getSpec() == null || mcn.getSpec().getConfigVersion() == null
                ? ""
                : mcn.getSpec().getConfigVersion().getDesired();
    }
}
