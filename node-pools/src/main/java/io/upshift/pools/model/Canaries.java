package io.upshift.pools.model;

import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigPool;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A pool's canaries, from its {@value #ANNOTATION} annotation: the first {@code count} nodes told a
 * new target config. Until they are done with it, ready, and have soaked ({@link SoakTime}), no
 * other node of the pool starts; if a health gate fires meanwhile ({@link HealthGates}: a pod, an
 * alert, a query), the pool pauses itself ({@code spec.paused=true}, the gate named in the {@value
 * #HALTED} annotation), and an administrator may set {@value #ROLLBACK} to {@code true} to tell the
 * canaries the config the rest of the pool runs. Which nodes are the canaries is read from the
 * nodes alone: those told the pool's target while no more than {@code count} are.
 *
 * @param count how many nodes are canaries (at least 1)
 */
public record Canaries(int count) {
    public static final String ANNOTATION = "upshift.io/canaries";
    public static final String HALTED = "upshift.io/canary-halted";
    public static final String ROLLBACK = "upshift.io/canary-rollback";

    /** Where a rollout to a target is, as far as its canaries go. */
    public enum Phase {
        /** No node is told the target yet. */
        BEFORE,
        /** The canaries are told: updating, or done and soaking. A gate firing now halts. */
        WATCHING,
        /** The canaries are done and soaked (or more nodes than the canaries are told). */
        OVER
    }

    /**
     * The pool's canaries, or null when it has none ({@code 0} or no annotation).
     *
     * @throws IllegalArgumentException naming the annotation and what is wrong with its value
     */
    public static Canaries of(MachineConfigPool pool) {
        String text = annotation(pool, ANNOTATION);
        if (text == null) return null;
        int n;
        try {
            n = Integer.parseInt(text.strip());
        } catch (NumberFormatException e) {
            throw invalid(ANNOTATION, text, "not a whole number of nodes");
        }
        if (n < 0) throw invalid(ANNOTATION, text, "must not be negative");
        return n == 0 ? null : new Canaries(n);
    }

    /**
     * Whether the administrator asks for the canaries back on the previous config.
     *
     * @throws IllegalArgumentException when the value is neither true nor false
     */
    public static boolean rollback(MachineConfigPool pool) {
        String text = annotation(pool, ROLLBACK);
        if (text == null) return false;
        return switch (text.strip()) {
            case "true" -> true;
            case "false" -> false;
            default -> throw invalid(ROLLBACK, text, "must be true or false");
        };
    }

    /** Why the pool paused itself, as the controller wrote it; null when it did not. */
    public static String halted(MachineConfigPool pool) {
        return annotation(pool, HALTED);
    }

    /** The nodes told {@code target}: the canaries while the rollout is in their phase. */
    public static List<PoolNode> told(List<PoolNode> nodes, String target) {
        return nodes.stream().filter(n -> target.equals(n.desiredConfig())).toList();
    }

    public Phase phase(List<PoolNode> nodes, String target, SoakTime soak, Instant now) {
        List<PoolNode> told = told(nodes, target);
        if (told.isEmpty()) return Phase.BEFORE;
        if (told.size() > count) return Phase.OVER;
        boolean allTold = told.size() == Math.min(count, nodes.size());
        boolean settled =
                told.stream()
                        .allMatch(n -> n.done() && target.equals(n.currentConfig()) && n.ready());
        boolean soaked = soak == null || soak.hold(told, target, now) == null;
        return allTold && settled && soaked ? Phase.OVER : Phase.WATCHING;
    }

    /** How many more nodes may be told now: the canaries not yet told, while they watch. */
    public int room(List<PoolNode> nodes, String target) {
        return Math.max(0, count - told(nodes, target).size());
    }

    /**
     * What holds the rest of the pool while every canary is told and one is not done yet; null
     * otherwise (a done canary's soak is the soak time's hold).
     */
    public RolloutHold hold(List<PoolNode> nodes, String target) {
        List<PoolNode> told = told(nodes, target);
        if (told.size() < Math.min(count, nodes.size())) return null;
        List<String> updating =
                told.stream()
                        .filter(n -> !(n.done() && target.equals(n.currentConfig()) && n.ready()))
                        .map(PoolNode::name)
                        .toList();
        if (updating.isEmpty()) return null;
        return new RolloutHold(
                RolloutHold.CANARIES,
                "Waiting for the canaries "
                        + String.join(", ", updating)
                        + " ("
                        + ANNOTATION
                        + ": "
                        + count
                        + ") to be done with MachineConfig "
                        + target
                        + " before the rest of the pool starts",
                null);
    }

    /** The message the pool is paused with when {@code gate} fires while the canaries watch. */
    public String haltMessage(List<PoolNode> nodes, String target, String gate) {
        String canaries =
                told(nodes, target).stream().map(PoolNode::name).collect(Collectors.joining(", "));
        return "Paused by its canaries ("
                + ANNOTATION
                + ": "
                + count
                + ") while nodes "
                + canaries
                + " took MachineConfig "
                + target
                + ": "
                + gate;
    }

    /**
     * The config the canaries go back to: the one every node not told {@code target} runs and is
     * told. Null (with {@code why} filled) when there is no such node or they do not agree.
     */
    public static String previous(List<PoolNode> nodes, String target, StringBuilder why) {
        List<PoolNode> others =
                nodes.stream().filter(n -> !target.equals(n.desiredConfig())).toList();
        if (others.isEmpty()) {
            why.append("every node of the pool is told ")
                    .append(target)
                    .append(": no node runs a previous config to go back to");
            return null;
        }
        String previous = others.get(0).currentConfig();
        for (PoolNode n : others) {
            if (previous.isEmpty()
                    || !previous.equals(n.currentConfig())
                    || !previous.equals(n.desiredConfig())) {
                why.append("the nodes that are not canaries do not all run one config (")
                        .append(n.name())
                        .append(" runs ")
                        .append(n.currentConfig().isEmpty() ? "none" : n.currentConfig())
                        .append(", is told ")
                        .append(n.desiredConfig().isEmpty() ? "none" : n.desiredConfig())
                        .append(")");
                return null;
            }
        }
        return previous;
    }

    private static String annotation(MachineConfigPool pool, String key) {
        Map<String, String> a = pool.getMetadata().getAnnotations();
        return a == null ? null : a.get(key);
    }

    private static IllegalArgumentException invalid(String annotation, String text, String why) {
        return new IllegalArgumentException(
                "annotation " + annotation + " \"" + text + "\": " + why);
    }
}
