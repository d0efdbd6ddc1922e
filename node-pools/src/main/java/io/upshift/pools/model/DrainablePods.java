package io.upshift.pools.model;

import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.List;
import java.util.Map;

/**
 * Which of a node's pods a drain evicts, as upstream's drain helper (k8s.io/kubectl/pkg/drain)
 * picks them: not those of DaemonSets, not static (mirror) pods, not those already terminating.
 */
public final class DrainablePods {
    private DrainablePods() {}

    public static boolean evicted(Pod pod) {
        return !ownedByDaemonSet(pod)
                && !isMirror(pod)
                && pod.getMetadata().getDeletionTimestamp() == null;
    }

    private static boolean ownedByDaemonSet(Pod pod) {
        List<OwnerReference> owners = pod.getMetadata().getOwnerReferences();
        return owners != null && owners.stream().anyMatch(o -> "DaemonSet".equals(o.getKind()));
    }

    private static boolean isMirror(Pod pod) {
        Map<String, String> a = pod.getMetadata().getAnnotations();
        return a != null && a.containsKey("kubernetes.io/config.mirror");
    }
}
