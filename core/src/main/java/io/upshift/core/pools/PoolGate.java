package io.upshift.core.pools;

import io.fabric8.openshift.api.model.config.v1.ClusterOperatorStatus;
import io.fabric8.openshift.api.model.config.v1.ClusterOperatorStatusCondition;
import io.fabric8.openshift.api.model.config.v1.OperandVersion;
import io.upshift.core.cvo.StatusConditions;
import io.upshift.core.version.SemVer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The machine-config ClusterOperator's status, which is how pools gate updates: Upgradeable=False while any pool is
 * updating or degraded, or has nodes on an older minor than the control plane (paused pools included), so the
 * cluster-version controller refuses the next minor update (patch updates go on). The operator reports the release
 * version once the control-plane pool runs a config of that release, as the reference does; compute pools may lag.
 */
public final class PoolGate {

    public static final String CONTROL_PLANE_POOL = "master";

    /**
     * One pool as the gate sees it.
     *
     * @param behind   nodes whose current config comes from a release of an older minor than the control plane
     * @param released the pool is updated to a config rendered by this release
     */
    public record Pool(String name, PoolProgress progress, int behind, boolean released) {
    }

    private PoolGate() {
    }

    /** A node on {@code nodeVersion} lags behind a control plane on {@code releaseVersion} (unknown versions do not). */
    public static boolean olderMinor(String nodeVersion, String releaseVersion) {
        if (!SemVer.isValid(nodeVersion) || !SemVer.isValid(releaseVersion)) return false;
        SemVer node = SemVer.parse(nodeVersion), release = SemVer.parse(releaseVersion);
        return node.major() < release.major() || (node.major() == release.major() && node.minor() < release.minor());
    }

    public static ClusterOperatorStatus status(String releaseVersion, ClusterOperatorStatus previous, List<Pool> pools, Instant now) {
        String minor = SemVer.isValid(releaseVersion) ? SemVer.parse(releaseVersion).major() + "." + SemVer.parse(releaseVersion).minor() : releaseVersion;
        List<ClusterOperatorStatusCondition> conditions = previous == null ? null : previous.getConditions();
        List<String> degraded = new ArrayList<>(), behind = new ArrayList<>(), updating = new ArrayList<>();
        for (Pool p : pools) {
            PoolProgress progress = p.progress();
            String paused = progress.paused() ? ", paused" : "";
            if (progress.isDegraded()) {
                String why = progress.renderError() != null ? "its config cannot be rendered"
                        : progress.specError() != null ? "its spec is invalid"
                        : progress.degraded().size() + " of " + progress.machines() + " nodes degraded";
                degraded.add("pool " + p.name() + " is degraded (" + why + paused + ")");
            }
            if (p.behind() > 0) {
                behind.add("pool " + p.name() + " has " + p.behind() + " of " + progress.machines() + " nodes on a minor older than " + minor + paused);
            } else if (!progress.isUpdated() && !progress.paused() && !progress.isDegraded()) {
                updating.add("pool " + p.name() + " is updating (" + progress.updated() + " of " + progress.machines() + " nodes updated)");
            }
        }
        List<String> problems = new ArrayList<>(degraded);
        problems.addAll(behind);
        problems.addAll(updating);
        String reason = !degraded.isEmpty() ? "DegradedPool" : !behind.isEmpty() ? "PoolBehindControlPlane" : "PoolUpdating";
        conditions = problems.isEmpty()
                ? StatusConditions.set(conditions, "Upgradeable", "True", "AsExpected", "", now)
                : StatusConditions.set(conditions, "Upgradeable", "False", reason,
                        "One or more machine config pools are not ready for the next minor update: " + String.join("; ", problems), now);
        conditions = StatusConditions.set(conditions, "Degraded", degraded.isEmpty() ? "False" : "True",
                degraded.isEmpty() ? "AsExpected" : "DegradedPool",
                degraded.isEmpty() ? "" : "Failed to resync " + releaseVersion + " because: " + String.join("; ", degraded), now);
        conditions = StatusConditions.set(conditions, "Progressing", updating.isEmpty() ? "False" : "True", "",
                updating.isEmpty() ? "Cluster version is " + releaseVersion : "Working towards " + releaseVersion, now);
        conditions = StatusConditions.set(conditions, "Available", "True", "AsExpected", "Cluster has deployed " + releaseVersion, now);

        ClusterOperatorStatus status = new ClusterOperatorStatus();
        status.setConditions(conditions);
        status.setVersions(List.of(new OperandVersion("operator", reported(releaseVersion, previous, pools))));
        if (previous != null) status.setRelatedObjects(previous.getRelatedObjects());
        return status;
    }

    private static String reported(String releaseVersion, ClusterOperatorStatus previous, List<Pool> pools) {
        boolean controlPlaneDone = pools.stream().filter(p -> p.name().equals(CONTROL_PLANE_POOL)).allMatch(Pool::released);
        String before = previous == null || previous.getVersions() == null ? "" : previous.getVersions().stream()
                .filter(v -> "operator".equals(v.getName())).map(OperandVersion::getVersion).findFirst().orElse("");
        return controlPlaneDone || before.isEmpty() ? releaseVersion : before;
    }
}
