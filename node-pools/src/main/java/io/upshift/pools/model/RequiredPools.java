package io.upshift.pools.model;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigPool;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * When the machine-config operator may report its release as its version: the machine-config
 * operator's syncRequiredMachineConfigPools (openshift/machine-config-operator,
 * pkg/operator/sync.go, main). It waits while any pool is degraded, and until every pool labelled
 * {@value #LABEL} (upstream's master pool carries it) is Updated to a config of the release; other
 * pools may lag. The wait gives up after ten minutes per node of the required pools, and at once
 * for a required pool that is paused; the operator is then Degraded (see {@link PoolGate}).
 */
public final class RequiredPools {
    public static final String LABEL =
            "operator.machineconfiguration.openshift.io/required-for-upgrade";

    /** Upstream's wait: "a 10 minute timeout per "required" node". */
    public static final Duration PER_NODE = Duration.ofMinutes(10);

    /** The Degraded reason upstream's failing sync task gives (taskFailed("RequiredPools")). */
    public static final String FAILED = "RequiredPoolsFailed";

    /**
     * The outcome of one look at the pools.
     *
     * @param error why the version cannot be reported yet, worded as upstream's; null when it can
     * @param paused the error is a required pool that is paused: the wait fails at once
     * @param timeout how long upstream waits for the required pools before failing
     */
    public record Sync(String error, boolean paused, Duration timeout) {
        public boolean synced() {
            return error == null;
        }
    }

    private RequiredPools() {}

    /** Labelled {@value #LABEL}: the control plane's pool, upstream's master. */
    public static boolean isRequired(MachineConfigPool pool) {
        return pool.getMetadata().getLabels() != null
                && pool.getMetadata().getLabels().containsKey(LABEL);
    }

    /**
     * What the control plane (the required pools) still lacks before the workers' before-workers
     * hooks run ({@link HookProgress}): null once every required pool targets a config of {@code
     * release} and each of its nodes runs it, done and ready.
     *
     * @param versionOf each rendered config's release
     */
    public static String controlPlaneLag(
            List<MachineConfigPool> pools,
            Map<String, List<Node>> members,
            Map<String, String> versionOf,
            String release,
            String controllerNode) {
        for (MachineConfigPool p : pools) {
            if (!isRequired(p)) continue;
            String name = p.getMetadata().getName();
            String config =
                    p.getSpec() == null || p.getSpec().getConfiguration() == null
                            ? ""
                            : Objects.requireNonNullElse(
                                    p.getSpec().getConfiguration().getName(), "");
            if (config.isEmpty() || !release.equals(versionOf.get(config)))
                return "pool " + name + " has no config of release " + release + " yet";
            List<Node> nodes = members.getOrDefault(name, List.of());
            long left =
                    nodes.stream()
                            .map(n -> PoolMembers.view(n, controllerNode))
                            .filter(
                                    n ->
                                            !(n.done()
                                                    && n.ready()
                                                    && n.currentConfig().equals(config)))
                            .count();
            if (left > 0)
                return "pool "
                        + name
                        + ": "
                        + left
                        + " of "
                        + nodes.size()
                        + " nodes not yet updated to MachineConfig "
                        + config
                        + " of release "
                        + release;
        }
        return null;
    }

    /**
     * Looks at the pools in name order and stops at the first that holds the version, as upstream's
     * loop does.
     */
    public static Sync check(List<PoolGate.Pool> pools) {
        int requiredMachines =
                pools.stream()
                        .filter(PoolGate.Pool::required)
                        .mapToInt(p -> p.progress().machines())
                        .sum();
        Duration timeout = PER_NODE.multipliedBy(requiredMachines);
        for (PoolGate.Pool p :
                pools.stream().sorted(Comparator.comparing(PoolGate.Pool::name)).toList()) {
            PoolProgress s = p.progress();
            if (s.isDegraded()) {
                return new Sync(
                        "MachineConfigPool "
                                + p.name()
                                + " is not ready, retrying. Status: (pool degraded: true total: "
                                + s.machines()
                                + ", ready "
                                + s.ready()
                                + ", updated: "
                                + s.updated()
                                + ", unavailable: "
                                + s.unavailable()
                                + ", reason: "
                                + s.degradedMessage()
                                + ")",
                        false,
                        timeout);
            }
            if (!p.required() || p.released()) continue;
            if (s.paused()) {
                // Upstream reaches this once the pool's configuration is the release's, as
                // Upshift's is as soon as rendered.
                return new Sync(
                        "required MachineConfigPool "
                                + p.name()
                                + " is paused and cannot sync until it is unpaused",
                        true,
                        timeout);
            }
            return new Sync(
                    "required MachineConfigPool "
                            + p.name()
                            + " is not ready, retrying. Status: (total: "
                            + s.machines()
                            + ", ready "
                            + s.ready()
                            + ", updated: "
                            + s.updated()
                            + ", unavailable: "
                            + s.unavailable()
                            + ", degraded: "
                            + s.degraded().size()
                            + ")",
                    false,
                    timeout);
        }
        return new Sync(null, false, timeout);
    }
}
