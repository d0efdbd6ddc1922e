package io.upshift.pools.model;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfig;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigSpec;
import io.upshift.api.json.Mappers;
import io.upshift.pools.disruption.ConfigDiff;
import io.upshift.pools.disruption.DisruptionPlan;
import io.upshift.pools.disruption.DisruptionPolicies;
import io.upshift.pools.disruption.Reconcilable;
import io.upshift.pools.machineconfignode.Transition;
import io.upshift.pools.machineconfignode.UpdateSteps;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * How the node agent takes its node from one config to another, planned before it touches anything,
 * as the machine-config daemon plans it ({@code update()} in pkg/daemon/update.go): refused when
 * the node cannot take the new config in place ({@link Refused}, the node Unreconcilable); failed
 * when the config is missing or the node disruption policies do not parse ({@link Failed}, the node
 * Degraded); otherwise the {@link Steps}: whether it drains, whether it reboots or carries out
 * actions ({@link DisruptionPlan}), and what the MachineConfigNode reports at each phase.
 */
public sealed interface UpdatePlan {

    /**
     * @param reason the node's reason annotation, in upstream's words
     * @param report the MachineConfigNode's report of it
     */
    record Refused(String reason, List<Transition> report) implements UpdatePlan {}

    /**
     * @param reason the node's reason annotation
     */
    record Failed(String reason) implements UpdatePlan {}

    /**
     * An update the node can take.
     *
     * @param from the config the node runs; null for its first config (everything is applied)
     * @param lastAppliedDrain the node's {@code lastAppliedDrain} before the update
     * @param os the OS changes: the image, extensions or kernel type (upstream's "OS will need an
     *     update")
     * @param sshKeys the core user's keys change
     */
    record Steps(
            String node,
            String desired,
            MachineConfigSpec from,
            MachineConfigSpec to,
            DisruptionPlan disruption,
            String lastAppliedDrain,
            boolean os,
            boolean sshKeys)
            implements UpdatePlan {

        /** Cordoned and drained before anything is written. */
        public boolean drains() {
            return disruption.drains();
        }

        /** The OS staged and a reboot, rather than the plan's actions. */
        public boolean reboots() {
            return disruption.reboots();
        }

        /** The drain this update asks for ({@code desiredDrain}). */
        public String drain() {
            return "drain-" + desired;
        }

        /** Reported with the Working write: prepared, then cordoned and draining, or applying. */
        public List<Transition> working() {
            return drains()
                    ? List.of(
                            UpdateSteps.prepared(disruption),
                            UpdateSteps.cordoned(),
                            UpdateSteps.draining(drain(), lastAppliedDrain))
                    : List.of(
                            UpdateSteps.prepared(disruption),
                            UpdateSteps.drainNotRequired(),
                            UpdateSteps.applying(os, sshKeys));
        }

        /** Reported once drained: applying the files and OS comes next. */
        public List<Transition> drained() {
            return drained("");
        }

        /**
         * Reported once drained, {@code forced} saying which pods were deleted past their budget
         * ("" for none).
         */
        public List<Transition> drained(String forced) {
            return List.of(UpdateSteps.drained(drain(), forced), UpdateSteps.applying(os, sshKeys));
        }

        /**
         * The node's reason when evictions were refused until {@code timeout}, as upstream's drain
         * controller words it.
         */
        public String drainFailure(Duration timeout) {
            return DrainEvents.timedOut(node, timeout);
        }

        public List<Transition> drainFailed(String reason) {
            return List.of(UpdateSteps.drainFailed(reason, drain(), lastAppliedDrain));
        }

        /** Reported with the Rebooting write: files and OS applied, the reboot to come. */
        public List<Transition> rebooting() {
            return List.of(
                    UpdateSteps.applied(os, sshKeys),
                    UpdateSteps.rebooting(),
                    UpdateSteps.succeeded(node));
        }

        /**
         * How the update ended, reported with Done: the reboot; or the files applied and the
         * actions carried out.
         */
        public List<Transition> finished() {
            if (reboots()) return List.of(UpdateSteps.rebooted());
            List<Transition> out = new ArrayList<>();
            out.add(UpdateSteps.applied(os, sshKeys));
            out.addAll(UpdateSteps.postActions(disruption));
            out.add(UpdateSteps.succeeded(node));
            return out;
        }
    }

    /**
     * @param running the MachineConfig the node runs ({@code currentName}); null for a node's first
     *     config, or when it is gone: everything is applied then, and the node reboots into it
     * @param target the MachineConfig the node is told; null when it does not exist
     * @param machineConfiguration the cluster's MachineConfiguration, whose node disruption
     *     policies weigh the change (null: the defaults); not read for a first config
     * @param lastAppliedDrain the node's {@code lastAppliedDrain}
     */
    static UpdatePlan of(
            String node,
            String currentName,
            MachineConfig running,
            String desiredName,
            MachineConfig target,
            GenericKubernetesResource machineConfiguration,
            String lastAppliedDrain) {
        if (target == null) return new Failed("missing MachineConfig " + desiredName);
        MachineConfigSpec from = running == null ? null : spec(running), to = spec(target);
        Optional<String> refused = Reconcilable.check(currentName, from, desiredName, to);
        if (refused.isPresent()) {
            String reason = refused.get();
            // upstream reports the validation error without the "can't reconcile config A with B: "
            // its annotation carries
            String prefix = "can't reconcile config " + currentName + " with " + desiredName + ": ";
            return new Refused(
                    reason,
                    List.of(
                            UpdateSteps.incompatible(
                                    currentName,
                                    desiredName,
                                    reason.startsWith(prefix)
                                            ? reason.substring(prefix.length())
                                            : reason),
                            UpdateSteps.degraded(node, reason)));
        }
        DisruptionPlan disruption;
        try {
            disruption =
                    from == null
                            ? DisruptionPlan.REBOOT
                            : DisruptionPlan.of(
                                    ConfigDiff.between(from, to), policies(machineConfiguration));
        } catch (IllegalArgumentException e) {
            return new Failed("invalid MachineConfiguration cluster: " + e.getMessage());
        }
        ConfigDiff diff = ConfigDiff.between(from, to);
        return new Steps(
                node,
                desiredName,
                from,
                to,
                disruption,
                lastAppliedDrain,
                diff.osImage() || diff.extensions() || diff.kernelType(),
                diff.passwd());
    }

    /** The defaults with the MachineConfiguration's {@code spec.nodeDisruptionPolicy} laid over. */
    private static DisruptionPolicies policies(GenericKubernetesResource mc) {
        return DisruptionPolicies.merge(
                mc == null
                        ? Mappers.JSON.missingNode()
                        : Mappers.JSON.valueToTree(mc).path("spec").path("nodeDisruptionPolicy"));
    }

    private static MachineConfigSpec spec(MachineConfig mc) {
        return mc.getSpec() == null ? new MachineConfigSpec() : mc.getSpec();
    }
}
