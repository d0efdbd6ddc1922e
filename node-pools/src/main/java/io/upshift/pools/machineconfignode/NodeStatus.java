package io.upshift.pools.machineconfignode;

import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigNode;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigNodeStatus;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigNodeStatusMachineConfigVersion;
import java.time.Instant;
import java.util.List;

/**
 * The status a node agent writes into its MachineConfigNode after reporting some steps: the
 * conditions ({@link NodeConditions}), the configs ({@code configVersion}) and the generation of
 * the spec it saw. As upstream: {@code configVersion.current} is the node's {@code currentConfig}
 * (left out while it has none); {@code configVersion.desired} its {@code desiredConfig} once the
 * config was validated, {@value #NOT_YET_SET} while a failed validation is the last thing reported
 * or the node has been told no config. Pinned image sets are kept as they are.
 */
public final class NodeStatus {
    /** Upstream's placeholder for a config not known yet. */
    public static final String NOT_YET_SET = "not-yet-set";

    private NodeStatus() {}

    /**
     * @param currentConfig the node's {@code currentConfig} annotation ("" when it has none)
     * @param desiredConfig the node's {@code desiredConfig} annotation ("" when it has none)
     */
    public static MachineConfigNodeStatus next(
            MachineConfigNode mcn,
            List<Transition> steps,
            String currentConfig,
            String desiredConfig,
            Instant now) {
        MachineConfigNodeStatus before =
                mcn.getStatus() == null ? new MachineConfigNodeStatus() : mcn.getStatus();
        String specDesired =
                mcn.getSpec() == null || mcn.getSpec().getConfigVersion() == null
                        ? desiredConfig
                        : mcn.getSpec().getConfigVersion().getDesired();
        MachineConfigNodeStatus out = new MachineConfigNodeStatus();
        out.setConditions(NodeConditions.apply(before.getConditions(), steps, specDesired, now));
        Report last = steps.isEmpty() ? null : steps.get(steps.size() - 1).parent();
        boolean invalid =
                last != null
                        && last.type() == ConditionType.UpdatePrepared
                        && !Report.TRUE.equals(last.status());
        String desired = invalid || desiredConfig.isEmpty() ? NOT_YET_SET : desiredConfig;
        out.setConfigVersion(
                new MachineConfigNodeStatusMachineConfigVersion(
                        currentConfig.isEmpty() ? null : currentConfig, desired));
        Long generation = mcn.getMetadata() == null ? null : mcn.getMetadata().getGeneration();
        out.setObservedGeneration(
                generation != null && generation >= 1
                        ? generation
                        : before.getObservedGeneration());
        out.setPinnedImageSets(before.getPinnedImageSets());
        out.setIrreconcilableChanges(before.getIrreconcilableChanges());
        return out;
    }
}
