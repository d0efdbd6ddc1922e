package io.upshift.rehearsal.model;

import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigPool;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigPoolCondition;
import io.upshift.clusterversion.model.DesiredUpdates;
import io.upshift.clusterversion.model.UpdateWindow;
import io.upshift.pools.model.HealthGates;
import io.upshift.pools.model.MaintenanceWindow;
import io.upshift.pools.model.RolloutHold;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The gates that would hold the update if it were asked for now (Upshift's rollout controls): the
 * ClusterVersion's maintenance window, closed or not parsing (the control plane would not start);
 * and per pool the hold its controller reports ({@code RolloutHeld=True}: a window, a soak, a
 * health gate), else a window closed now or a pod a health gate matches now. In the words the
 * controllers would write.
 */
public final class Holds {
    static final String CLUSTER_VERSION = "cluster-version controller";
    static final String POOLS = "pool controller";

    private Holds() {}

    /**
     * @param target the release rehearsed
     * @param now when the cluster was read
     */
    public static List<Blocker> of(ClusterFacts facts, Target target, Instant now) {
        List<Blocker> out = new ArrayList<>();
        UpdateWindow.Hold cv =
                UpdateWindow.hold(
                        facts.clusterVersion(),
                        new DesiredUpdates.Target(
                                target.version(), target.image(), false, List.of()),
                        null,
                        now);
        if (cv != null)
            out.add(
                    Blocker.holds(
                            CLUSTER_VERSION,
                            cv.reason(),
                            capitalized(cv.message()),
                            Blocker.Place.NOWHERE));
        for (MachineConfigPool pool : facts.state().pools()) {
            Blocker b = pool(pool, facts, now);
            if (b != null) out.add(b);
        }
        return out;
    }

    private static Blocker pool(MachineConfigPool pool, ClusterFacts facts, Instant now) {
        String name = pool.getMetadata().getName();
        Blocker.Place place = Blocker.Place.pool(name);
        if (pool.getStatus() != null && pool.getStatus().getConditions() != null) {
            for (MachineConfigPoolCondition c : pool.getStatus().getConditions()) {
                if (RolloutHold.CONDITION.equals(c.getType()) && "True".equals(c.getStatus()))
                    return Blocker.holds(
                            POOLS,
                            RolloutHold.CONDITION,
                            c.getReason()
                                    + " since "
                                    + c.getLastTransitionTime()
                                    + ": "
                                    + c.getMessage(),
                            place);
            }
        }
        Map<String, String> a = pool.getMetadata().getAnnotations();
        String window = a == null ? null : a.get(MaintenanceWindow.ANNOTATION);
        try {
            if (window != null) {
                MaintenanceWindow w = MaintenanceWindow.parse(window);
                if (!w.isOpen(now))
                    return Blocker.holds(
                            POOLS,
                            RolloutHold.WINDOW,
                            "Its nodes would wait for the maintenance window \""
                                    + w.text()
                                    + "\" ("
                                    + MaintenanceWindow.ANNOTATION
                                    + "), which opens at "
                                    + w.nextOpening(now),
                            place);
            }
            HealthGates gates = HealthGates.of(pool);
            RolloutHold gated = gates == null ? null : gates.hold(facts.pods());
            if (gated != null) return Blocker.holds(POOLS, gated.reason(), gated.message(), place);
        } catch (IllegalArgumentException e) {
            // a bad annotation degrades the pool: Stalls says so
        }
        return null;
    }

    private static String capitalized(String s) {
        return s.isEmpty() ? s : Character.toUpperCase(s.charAt(0)) + s.substring(1);
    }
}
