package io.upshift.pools.model;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigPool;
import io.upshift.base.gofmt.GoDuration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * How the agent drains the nodes of a pool, from the pool's annotations (beyond upstream, as the
 * system-upgrade-controller's Plan {@code drain} options, kured's {@code --drain-pod-selector} and
 * Cluster API's MachineDrainRules):
 *
 * <ul>
 *   <li>{@code upshift.io/drain-grace-period}: a Go duration, the pods' grace period when evicted
 *       (their own when unset);
 *   <li>{@code upshift.io/drain-skip}: a label selector of pods the drain leaves running;
 *   <li>{@code upshift.io/drain-last}: a label selector of pods evicted only once every other pod
 *       is gone;
 *   <li>{@code upshift.io/drain-empty-dir}: {@code true} (the default, as the machine-config
 *       daemon's drain) or {@code false}: a pod with emptyDir data then holds the drain, which
 *       fails at once naming it;
 *   <li>{@code upshift.io/drain-after-timeout}: {@code Degraded} (the default: the node stays
 *       cordoned and Degraded) or {@code Force}: the pods their budget still holds are deleted past
 *       the budget, and the drain goes on.
 * </ul>
 */
public record DrainRules(
        Long gracePeriodSeconds,
        PodSelector skip,
        PodSelector last,
        boolean emptyDir,
        boolean force) {
    public static final String GRACE_PERIOD = "upshift.io/drain-grace-period";
    public static final String SKIP = "upshift.io/drain-skip";
    public static final String LAST = "upshift.io/drain-last";
    public static final String EMPTY_DIR = "upshift.io/drain-empty-dir";
    public static final String AFTER_TIMEOUT = "upshift.io/drain-after-timeout";

    public static final DrainRules DEFAULT = new DrainRules(null, null, null, true, false);

    /**
     * @throws IllegalArgumentException naming the annotation and what is wrong with its value
     */
    public static DrainRules of(MachineConfigPool pool) {
        Map<String, String> a = pool.getMetadata().getAnnotations();
        return a == null ? DEFAULT : of(a);
    }

    /**
     * @throws IllegalArgumentException naming the annotation and what is wrong with its value
     */
    public static DrainRules of(Map<String, String> a) {
        Long grace = null;
        String text = a.get(GRACE_PERIOD);
        if (text != null) {
            long nanos;
            try {
                nanos = GoDuration.parse(text.strip());
            } catch (IllegalArgumentException | ArithmeticException e) {
                throw invalid(GRACE_PERIOD, text, "not a duration (e.g. 30s, 5m)");
            }
            if (nanos < 0) throw invalid(GRACE_PERIOD, text, "must not be negative");
            grace = nanos / GoDuration.SECOND;
        }
        return new DrainRules(
                grace,
                selector(a, SKIP),
                selector(a, LAST),
                choice(a, EMPTY_DIR, "true", "false").equals("true"),
                choice(a, AFTER_TIMEOUT, "Degraded", "Force").equals("Force"));
    }

    /**
     * What a drain round does with the node's pods (as listed now).
     *
     * @param evict the pods to evict this round: those the drain evicts ({@link DrainablePods}) but
     *     the skipped, and of those the ones to evict last only once no other is left
     * @param skipped the pods the skip rule leaves running
     * @param localData the pods with emptyDir data when the pool does not allow evicting them: the
     *     drain fails naming them
     */
    public record Round(List<Pod> evict, List<Pod> skipped, List<Pod> localData) {}

    public Round round(List<Pod> pods) {
        List<Pod> first = new ArrayList<>(), then = new ArrayList<>();
        List<Pod> skipped = new ArrayList<>(), local = new ArrayList<>();
        for (Pod pod : pods) {
            if (!DrainablePods.evicted(pod)) continue;
            Map<String, String> labels = pod.getMetadata().getLabels();
            if (skip != null && skip.matches(labels)) skipped.add(pod);
            else if (!emptyDir && hasEmptyDir(pod)) local.add(pod);
            else if (last != null && last.matches(labels)) then.add(pod);
            else first.add(pod);
        }
        return new Round(first.isEmpty() ? then : first, skipped, local);
    }

    private static boolean hasEmptyDir(Pod pod) {
        List<Volume> volumes = pod.getSpec() == null ? null : pod.getSpec().getVolumes();
        return volumes != null && volumes.stream().anyMatch(v -> v.getEmptyDir() != null);
    }

    private static PodSelector selector(Map<String, String> a, String key) {
        String text = a.get(key);
        if (text == null) return null;
        try {
            return PodSelector.parse(text);
        } catch (IllegalArgumentException e) {
            throw invalid(key, text, "not a label selector: " + e.getMessage());
        }
    }

    private static String choice(Map<String, String> a, String key, String dflt, String other) {
        String v = a.getOrDefault(key, dflt).strip();
        if (!v.equals(dflt) && !v.equals(other))
            throw invalid(key, v, "expected " + dflt + " or " + other);
        return v;
    }

    private static IllegalArgumentException invalid(String key, String text, String why) {
        return new IllegalArgumentException("annotation " + key + " \"" + text + "\": " + why);
    }
}
