package io.upshift.pools.agent;

import io.fabric8.kubernetes.api.model.DeleteOptionsBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.policy.v1.EvictionBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.upshift.base.kube.Disruptions;
import io.upshift.pools.model.DrainRules;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Drains a node through the Eviction API (policy/v1), so PodDisruptionBudgets are honoured, as
 * upstream's drain helper does (k8s.io/kubectl/pkg/drain): DaemonSet, static (mirror) and already
 * terminating pods are left alone; each pod is evicted once, then the drain waits for it to be gone
 * by looking at that pod once a second (a 404, or another pod of the same name, is gone). A pod
 * deleted before its eviction (404) is done. A refused eviction is tried again every {@code
 * drainRetry} (never more than once a second), every {@code drainSlowRetry} once refusals have
 * lasted 10 minutes, until {@code drainTimeout}.
 */
final class Drainer {
    private static final Logger LOG = LoggerFactory.getLogger(Drainer.class);
    private static final Duration SLOW_AFTER = Duration.ofMinutes(10);

    /**
     * The least time between two evictions of a refused pod, and the pace of looking at evicted
     * pods.
     */
    static final Duration PACE = Duration.ofSeconds(1);

    /**
     * The outcome: drained, or the pods still refused (or still terminating) when time ran out, or
     * those whose emptyDir data the pool does not let go ({@code why} then says so, else null);
     * {@code forced}: the pods deleted past their budget after the timeout, as the pool's rules
     * asked.
     */
    record Result(boolean drained, List<String> refused, String why, List<String> forced) {
        Result(boolean drained, List<String> refused) {
            this(drained, refused, null, List.of());
        }
    }

    private enum Eviction {
        EVICTED,
        GONE,
        REFUSED
    }

    private final KubernetesClient client;
    private final Clock clock;
    private final AgentOptions options;
    private final BiConsumer<String, String> firstRefusal;

    /**
     * @param firstRefusal told the first refused pod of a drain and the budget that refused it
     */
    Drainer(
            KubernetesClient client,
            Clock clock,
            AgentOptions options,
            BiConsumer<String, String> firstRefusal) {
        this.client = client;
        this.clock = clock;
        this.options = options;
        this.firstRefusal = firstRefusal;
    }

    Result drain(String node) throws InterruptedException {
        return drain(node, DrainRules.DEFAULT);
    }

    /**
     * Drains by the pool's {@code rules}: skipped pods stay, the pods to evict last go once no
     * other is left, and after the timeout the pods still refused are deleted past their budget
     * when the rules say {@code Force}.
     */
    Result drain(String node, DrainRules rules) throws InterruptedException {
        Instant start = clock.instant();
        Instant deadline = start.plus(options.drainTimeout());
        Instant refusedSince = null;
        List<String> forced = new ArrayList<>();
        while (true) {
            DrainRules.Round round = rules.round(pods(node));
            if (!round.localData().isEmpty())
                return new Result(
                        false,
                        round.localData().stream().map(Drainer::name).toList(),
                        "pods with emptyDir data, which "
                                + DrainRules.EMPTY_DIR
                                + " does not let the drain delete",
                        forced);
            if (!round.skipped().isEmpty())
                LOG.info(
                        "nodes/{}: left running ({}): {}",
                        node,
                        DrainRules.SKIP,
                        String.join(", ", round.skipped().stream().map(Drainer::name).toList()));
            List<Pod> pods = round.evict();
            if (pods.isEmpty()) return new Result(true, List.of(), null, forced);
            List<String> refused = new ArrayList<>();
            List<Pod> held = new ArrayList<>();
            List<Pod> evicted = new ArrayList<>();
            for (Pod pod : pods) {
                switch (evict(node, pod, rules.gracePeriodSeconds())) {
                    case EVICTED -> evicted.add(pod);
                    case GONE -> {}
                    case REFUSED -> {
                        if (refused.isEmpty() && refusedSince == null)
                            firstRefusal.accept(name(pod), budgetOf(pod));
                        refused.add(name(pod));
                        held.add(pod);
                    }
                }
            }
            List<String> terminating = awaitGone(evicted, deadline);
            if (!terminating.isEmpty()) {
                List<String> left = new ArrayList<>(refused);
                left.addAll(terminating);
                return new Result(false, left);
            }
            if (refused.isEmpty())
                continue; // every pod of this round is gone; look again for pods scheduled
            // meanwhile
            Instant now = clock.instant();
            if (refusedSince == null) refusedSince = now;
            if (!now.isBefore(deadline)) {
                if (!rules.force()) return new Result(false, refused, null, forced);
                // the pool asked for it: the pods their budget still holds are deleted past it
                List<String> left = force(node, held, rules.gracePeriodSeconds());
                forced.addAll(refused);
                if (!left.isEmpty()) return new Result(false, left, null, forced);
                continue;
            }
            LOG.info(
                    "nodes/{}: eviction refused (disruption budget) for {}; retrying",
                    node,
                    String.join(", ", refused));
            Duration wait =
                    Duration.between(refusedSince, now).compareTo(SLOW_AFTER) >= 0
                            ? options.drainSlowRetry()
                            : options.drainRetry();
            if (wait.compareTo(PACE) < 0) wait = PACE;
            Thread.sleep(
                    Math.max(
                            1,
                            Math.min(wait.toMillis(), Duration.between(now, deadline).toMillis())));
        }
    }

    /**
     * Deletes the pods past their budget (with the pool's grace period, else their own), and waits
     * for them as for evicted ones, for at most the drain timeout again; returns those still there.
     */
    private List<String> force(String node, List<Pod> pods, Long grace)
            throws InterruptedException {
        for (Pod pod : pods) {
            var resource =
                    client.pods()
                            .inNamespace(pod.getMetadata().getNamespace())
                            .withName(pod.getMetadata().getName());
            if (grace != null) resource.withGracePeriod(grace).delete();
            else resource.delete();
            LOG.warn(
                    "nodes/{}: deleted pod {} past its disruption budget ({}: Force)",
                    node,
                    name(pod),
                    DrainRules.AFTER_TIMEOUT);
        }
        return awaitGone(pods, clock.instant().plus(options.drainTimeout()));
    }

    private Eviction evict(String node, Pod pod, Long grace) {
        try {
            var resource =
                    client.pods()
                            .inNamespace(pod.getMetadata().getNamespace())
                            .withName(pod.getMetadata().getName());
            boolean accepted =
                    grace == null
                            ? resource.evict()
                            : resource.evict(
                                    new EvictionBuilder()
                                            .withNewMetadata()
                                            .withName(pod.getMetadata().getName())
                                            .withNamespace(pod.getMetadata().getNamespace())
                                            .endMetadata()
                                            .withDeleteOptions(
                                                    new DeleteOptionsBuilder()
                                                            .withGracePeriodSeconds(grace)
                                                            .build())
                                            .build());
            if (!accepted) return Eviction.REFUSED;
            LOG.info("nodes/{}: evicted pod {}", node, name(pod));
            return Eviction.EVICTED;
        } catch (KubernetesClientException e) {
            if (e.getCode() != 404) throw e;
            return Eviction.GONE; // deleted since the list: nothing left to evict
        }
    }

    /**
     * Waits until each evicted pod is gone, looking at each once every {@link #PACE}; returns the
     * pods still there at {@code deadline}.
     */
    private List<String> awaitGone(List<Pod> evicted, Instant deadline)
            throws InterruptedException {
        List<Pod> pending = new ArrayList<>(evicted);
        while (!pending.isEmpty()) {
            pending.removeIf(this::gone);
            if (pending.isEmpty()) break;
            Instant now = clock.instant();
            if (!now.isBefore(deadline)) return pending.stream().map(Drainer::name).toList();
            Thread.sleep(
                    Math.max(
                            1,
                            Math.min(PACE.toMillis(), Duration.between(now, deadline).toMillis())));
        }
        return List.of();
    }

    private boolean gone(Pod evicted) {
        Pod now =
                client.pods()
                        .inNamespace(evicted.getMetadata().getNamespace())
                        .withName(evicted.getMetadata().getName())
                        .get();
        return now == null || !now.getMetadata().getUid().equals(evicted.getMetadata().getUid());
    }

    /** The budget that covers the pod, "namespace/name", or "unknown" if it went away meanwhile. */
    private String budgetOf(Pod pod) {
        String ns = pod.getMetadata().getNamespace();
        return client.policy().v1().podDisruptionBudget().inNamespace(ns).list().getItems().stream()
                .filter(b -> Disruptions.covers(b, pod))
                .map(b -> ns + "/" + b.getMetadata().getName())
                .findFirst()
                .orElse("unknown");
    }

    /** The node's pods; {@link DrainRules#round} picks those a drain evicts. */
    private List<Pod> pods(String node) {
        return client.pods().inAnyNamespace().withField("spec.nodeName", node).list().getItems();
    }

    private static String name(Pod pod) {
        return pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName();
    }
}
