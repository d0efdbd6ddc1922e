package io.upshift.pools.model;

import io.fabric8.openshift.api.model.config.v1.ClusterOperatorStatus;
import io.fabric8.openshift.api.model.config.v1.ClusterOperatorStatusCondition;
import io.fabric8.openshift.api.model.config.v1.OperandVersion;
import io.upshift.base.conditions.StatusConditions;
import io.upshift.base.version.SemVer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * The machine-config ClusterOperator's status, which is how pools gate updates.
 *
 * <ul>
 *   <li>Version: reported once the pools labelled required-for-upgrade are Updated to a config of
 *       the release and no pool is degraded ({@link RequiredPools}); other pools may lag. A wait
 *       that fails makes the operator Degraded.
 *   <li>Upgradeable=False blocks the next minor update (patch updates go on) for accidental lag, a
 *       degraded pool (reason and message as the machine-config operator's, naming the pools and
 *       their failing nodes), and for lag the next minor would not support ({@link KubeletSkew}, as
 *       the kube-apiserver operator words it on its own ClusterOperator, naming the pools).
 *       Intentional lag within the skew (a pool paused across one minor) and pools merely updating
 *       (nodes scaling in too) do not block, as upstream since it dropped PoolUpdating.
 * </ul>
 */
public final class PoolGate {
    /**
     * The machine-config operator's Upgradeable=False message for degraded pools
     * (pkg/operator/status.go).
     */
    /**
     * Upstream's Degraded reason when its controller fails (the task MachineConfigController,
     * {@code taskFailed}).
     */
    public static final String CONTROLLER_FAILED = "MachineConfigControllerFailed";

    static final String DEGRADED =
            "One or more machine config pools are degraded, please see `oc get mcp` for further"
                    + " details and resolve before upgrading";

    /**
     * One pool as the gate sees it.
     *
     * @param required labelled {@value RequiredPools#LABEL}: the release is reported only once it
     *     is Updated
     * @param released Updated to a config rendered by this release
     * @param nodeVersions each node's version: the release whose controller rendered the config it
     *     runs ("" when unknown); nodes that run no config yet are left out
     * @param kubeletVersions each node's kubelet version as the node reports it (absent or "" when
     *     it reports none)
     */
    public record Pool(
            String name,
            PoolProgress progress,
            boolean required,
            boolean released,
            Map<String, String> nodeVersions,
            Map<String, String> kubeletVersions) {
        /** Nodes that report no kubelet version. */
        public Pool(
                String name,
                PoolProgress progress,
                boolean required,
                boolean released,
                Map<String, String> nodeVersions) {
            this(name, progress, required, released, nodeVersions, Map.of());
        }
    }

    private PoolGate() {}

    /**
     * @param syncingSince when the wait for the required pools began (the first pass that found
     *     them not done), or null when they are done; a restart begins the wait again, as
     *     upstream's does
     */
    public static ClusterOperatorStatus status(
            String releaseVersion,
            ClusterOperatorStatus previous,
            List<Pool> pools,
            Instant syncingSince,
            Instant now) {
        return status(releaseVersion, previous, pools, null, syncingSince, now);
    }

    /**
     * As {@link #status(String, ClusterOperatorStatus, List, Instant, Instant)}, with why the
     * controller cannot render its release's base configs (a template that fails), or null: the
     * operator is then Degraded with reason {@value #CONTROLLER_FAILED}, as upstream's when its
     * ControllerConfig does not complete; that failure comes first, as upstream's sync stops at the
     * controller, before the required pools.
     */
    public static ClusterOperatorStatus status(
            String releaseVersion,
            ClusterOperatorStatus previous,
            List<Pool> pools,
            String controllerFailure,
            Instant syncingSince,
            Instant now) {
        return status(releaseVersion, "", previous, pools, controllerFailure, syncingSince, now);
    }

    /**
     * As {@link #status(String, ClusterOperatorStatus, List, String, Instant, Instant)}, with the
     * API server's version ({@code /version}'s gitVersion, "" when unknown), with which the gate
     * compares the nodes' kubelets ({@link KubeletSkew}).
     */
    public static ClusterOperatorStatus status(
            String releaseVersion,
            String apiServerVersion,
            ClusterOperatorStatus previous,
            List<Pool> pools,
            String controllerFailure,
            Instant syncingSince,
            Instant now) {
        List<ClusterOperatorStatusCondition> conditions =
                previous == null ? null : previous.getConditions();
        String before =
                previous == null || previous.getVersions() == null
                        ? ""
                        : previous.getVersions().stream()
                                .filter(v -> "operator".equals(v.getName()))
                                .map(OperandVersion::getVersion)
                                .findFirst()
                                .orElse("");
        RequiredPools.Sync sync = RequiredPools.check(pools);
        String reported = sync.synced() || before.isEmpty() ? releaseVersion : before;
        boolean resync = before.equals(releaseVersion);

        // Degraded, as upstream's syncDegradedStatus words a failed RequiredPools task; once failed
        // it stays so until the
        // pools are done (upstream clears it only when the task succeeds).
        ClusterOperatorStatusCondition wasDegraded = StatusConditions.find(conditions, "Degraded");
        boolean stillFailed =
                !sync.synced()
                        && wasDegraded != null
                        && "True".equals(wasDegraded.getStatus())
                        && RequiredPools.FAILED.equals(wasDegraded.getReason());
        boolean timedOut =
                !sync.synced()
                        && syncingSince != null
                        && !now.isBefore(syncingSince.plus(sync.timeout()));
        String failure = null;
        if (!sync.synced() && sync.paused()) failure = sync.error();
        else if (timedOut)
            failure =
                    "during syncRequiredMachineConfigPools: [context deadline exceeded, "
                            + sync.error()
                            + "]";
        if (controllerFailure != null) {
            conditions =
                    StatusConditions.set(
                            conditions,
                            "Degraded",
                            "True",
                            CONTROLLER_FAILED,
                            resync
                                    ? "Failed to resync "
                                            + releaseVersion
                                            + " because: "
                                            + controllerFailure
                                    : "Unable to apply "
                                            + releaseVersion
                                            + ": "
                                            + controllerFailure,
                            now);
        } else if (failure != null) {
            conditions =
                    StatusConditions.set(
                            conditions,
                            "Degraded",
                            "True",
                            RequiredPools.FAILED,
                            resync
                                    ? "Failed to resync " + releaseVersion + " because: " + failure
                                    : "Unable to apply " + releaseVersion + ": " + failure,
                            now);
        } else if (!stillFailed) {
            conditions = StatusConditions.set(conditions, "Degraded", "False", "", "", now);
        }
        boolean failed = controllerFailure != null || failure != null || stillFailed;

        if (!reported.equals(releaseVersion)) {
            conditions =
                    StatusConditions.set(
                            conditions,
                            "Progressing",
                            "True",
                            "",
                            (failed ? "Unable to apply " : "Working towards ") + releaseVersion,
                            now);
        } else {
            conditions =
                    StatusConditions.set(
                            conditions,
                            "Progressing",
                            "False",
                            "",
                            failed
                                    ? "Error while reconciling " + releaseVersion
                                    : "Cluster version is " + releaseVersion,
                            now);
        }
        conditions = upgradeable(conditions, releaseVersion, apiServerVersion, pools, now);
        conditions =
                StatusConditions.set(
                        conditions,
                        "Available",
                        "True",
                        "AsExpected",
                        "Cluster has deployed " + reported,
                        now);

        ClusterOperatorStatus status = new ClusterOperatorStatus();
        status.setConditions(conditions);
        status.setVersions(List.of(new OperandVersion("operator", reported)));
        if (previous != null) status.setRelatedObjects(previous.getRelatedObjects());
        return status;
    }

    private static List<ClusterOperatorStatusCondition> upgradeable(
            List<ClusterOperatorStatusCondition> conditions,
            String releaseVersion,
            String apiServerVersion,
            List<Pool> pools,
            Instant now) {
        List<Pool> byName = pools.stream().sorted(Comparator.comparing(Pool::name)).toList();
        List<String> degraded =
                byName.stream()
                        .filter(p -> p.progress().isDegraded())
                        .map(p -> "pool " + p.name() + ": " + p.progress().degradedMessage())
                        .toList();
        KubeletSkew.Verdict skew =
                SemVer.isValid(releaseVersion)
                        ? KubeletSkew.assess(releaseVersion, apiServerVersion, nodes(byName))
                        : null;
        String skewMessage =
                skew == null
                        ? ""
                        : KubeletSkew.CONDITION + ": " + skew.message() + lagging(skew, byName);
        if (!degraded.isEmpty()) {
            String message = DEGRADED + ": " + String.join("; ", degraded);
            if (skew != null && "False".equals(skew.status())) message += "\n" + skewMessage;
            return StatusConditions.set(
                    conditions, "Upgradeable", "False", "DegradedPool", message, now);
        }
        if (skew == null)
            return StatusConditions.set(conditions, "Upgradeable", "True", "AsExpected", "", now);
        // The reason as the kube-apiserver operator's ClusterOperator unions it: <condition type
        // without "Upgradeable">_<reason>.
        String reason =
                "True".equals(skew.status())
                        ? "AsExpected"
                        : "KubeletMinorVersion_" + skew.reason();
        return StatusConditions.set(
                conditions, "Upgradeable", skew.status(), reason, skewMessage, now);
    }

    private static List<KubeletSkew.Node> nodes(List<Pool> pools) {
        List<KubeletSkew.Node> out = new ArrayList<>();
        for (Pool p : pools)
            p.nodeVersions()
                    .forEach(
                            (node, version) ->
                                    out.add(
                                            new KubeletSkew.Node(
                                                    node,
                                                    p.name(),
                                                    p.kubeletVersions().getOrDefault(node, ""),
                                                    version)));
        return out;
    }

    /**
     * " Pools: worker (2 nodes, paused)." for the nodes that make the verdict False; "" when none.
     */
    private static String lagging(KubeletSkew.Verdict skew, List<Pool> pools) {
        if (skew.lagging().isEmpty()) return "";
        List<String> named = new ArrayList<>();
        for (Pool p : pools) {
            long n = skew.lagging().stream().filter(l -> l.pool().equals(p.name())).count();
            if (n > 0)
                named.add(
                        p.name()
                                + " ("
                                + n
                                + (n == 1 ? " node" : " nodes")
                                + (p.progress().paused() ? ", paused" : "")
                                + ")");
        }
        return " Pools: " + String.join(", ", named) + ".";
    }
}
