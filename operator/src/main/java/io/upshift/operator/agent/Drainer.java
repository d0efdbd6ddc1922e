package io.upshift.operator.agent;

import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.upshift.core.pools.Disruptions;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Drains a node through the Eviction API (policy/v1), so PodDisruptionBudgets are honoured: DaemonSet and static
 * (mirror) pods stay; a refused eviction is tried again every {@code drainRetry}, every {@code drainSlowRetry} once
 * refusals have lasted 10 minutes, until {@code drainTimeout}.
 */
final class Drainer {
    private static final Logger LOG = LoggerFactory.getLogger(Drainer.class);
    private static final Duration SLOW_AFTER = Duration.ofMinutes(10);

    /** The outcome: drained, or the pods still refused when time ran out. */
    record Result(boolean drained, List<String> refused) {
    }

    private final KubernetesClient client;
    private final Clock clock;
    private final AgentOptions options;
    private final BiConsumer<String, String> firstRefusal;

    /** @param firstRefusal told the first refused pod of a drain and the budget that refused it */
    Drainer(KubernetesClient client, Clock clock, AgentOptions options, BiConsumer<String, String> firstRefusal) {
        this.client = client;
        this.clock = clock;
        this.options = options;
        this.firstRefusal = firstRefusal;
    }

    Result drain(String node) throws InterruptedException {
        Instant start = clock.instant();
        Instant refusedSince = null;
        while (true) {
            List<Pod> pods = evictable(node);
            if (pods.isEmpty()) return new Result(true, List.of());
            List<String> refused = new ArrayList<>();
            for (Pod pod : pods) {
                String name = pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName();
                if (client.pods().inNamespace(pod.getMetadata().getNamespace()).withName(pod.getMetadata().getName()).evict()) {
                    LOG.info("nodes/{}: evicted pod {}", node, name);
                } else {
                    if (refused.isEmpty() && refusedSince == null) firstRefusal.accept(name, budgetOf(pod));
                    refused.add(name);
                }
            }
            if (refused.isEmpty()) continue; // evicted all of this round; look again for stragglers
            Instant now = clock.instant();
            if (refusedSince == null) refusedSince = now;
            if (!now.isBefore(start.plus(options.drainTimeout()))) return new Result(false, refused);
            LOG.info("nodes/{}: eviction refused (disruption budget) for {}; retrying", node, String.join(", ", refused));
            Duration wait = Duration.between(refusedSince, now).compareTo(SLOW_AFTER) >= 0 ? options.drainSlowRetry() : options.drainRetry();
            Thread.sleep(Math.max(1, Math.min(wait.toMillis(), Duration.between(now, start.plus(options.drainTimeout())).toMillis())));
        }
    }

    /** The budget that covers the pod, "namespace/name", or "unknown" if it went away meanwhile. */
    private String budgetOf(Pod pod) {
        String ns = pod.getMetadata().getNamespace();
        return client.policy().v1().podDisruptionBudget().inNamespace(ns).list().getItems().stream()
                .filter(b -> Disruptions.covers(b, pod)).map(b -> ns + "/" + b.getMetadata().getName()).findFirst().orElse("unknown");
    }

    private List<Pod> evictable(String node) {
        List<Pod> pods = client.pods().inAnyNamespace().withField("spec.nodeName", node).list().getItems();
        return pods.stream()
                .filter(p -> !ownedByDaemonSet(p) && !isMirror(p))
                .toList();
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
