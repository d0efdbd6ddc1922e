package io.upshift.pools.model;

import java.time.Duration;
import java.util.Comparator;
import java.util.List;

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
