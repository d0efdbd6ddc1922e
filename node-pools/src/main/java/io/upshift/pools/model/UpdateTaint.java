package io.upshift.pools.model;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Taint;
import java.util.ArrayList;
import java.util.List;

/**
 * The taint {@value NodeAnnotations#UPDATE_TAINT}:PreferNoSchedule the pool controller puts on a
 * node it tells a new config, so that new workloads prefer nodes that stay, and lifts once the node
 * is done. A node's taints are a list written whole: each list here is the node's as read, with the
 * update taint added or removed, to be written only if nobody changed the node since.
 */
public final class UpdateTaint {
    static final String EFFECT = "PreferNoSchedule";

    private UpdateTaint() {}

    public static boolean on(Node node) {
        return taints(node).stream().anyMatch(UpdateTaint::isUpdateTaint);
    }

    /** The node's taints with the update taint (once). */
    public static List<Taint> added(Node node) {
        List<Taint> out = new ArrayList<>(taints(node));
        if (!on(node)) out.add(new Taint(EFFECT, NodeAnnotations.UPDATE_TAINT, null, null));
        return out;
    }

    /** The node's taints without the update taint. */
    public static List<Taint> removed(Node node) {
        return taints(node).stream().filter(t -> !isUpdateTaint(t)).toList();
    }

    private static List<Taint> taints(Node node) {
        return node.getSpec() == null || node.getSpec().getTaints() == null
                ? List.of()
                : node.getSpec().getTaints();
    }

    private static boolean isUpdateTaint(Taint t) {
        return NodeAnnotations.UPDATE_TAINT.equals(t.getKey()) && EFFECT.equals(t.getEffect());
    }
}
