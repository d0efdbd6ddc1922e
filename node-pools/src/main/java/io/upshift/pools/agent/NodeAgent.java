package io.upshift.pools.agent;

import static io.upshift.pools.model.NodeAnnotations.DESIRED_CONFIG;
import static io.upshift.pools.model.NodeAnnotations.LAST_APPLIED_DRAIN;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.upshift.pools.machineconfignode.UpdateSteps;
import io.upshift.pools.model.AgentAction;
import io.upshift.pools.model.DrainEvents;
import io.upshift.pools.model.HostMarker;
import io.upshift.runtime.kube.ApiErrors;
import io.upshift.runtime.kube.Backoff;
import io.upshift.runtime.kube.InformerFailures;
import io.upshift.runtime.kube.WorkQueue;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The node agent: brings its node to the config the pool controller set in {@code desiredConfig},
 * as disruptive as the change needs and no more. Built as the controllers are: an informer on its
 * own Node ({@link OwnNode}) wakes a single-key work queue (backoff after a failure, a look at the
 * node every {@code poll} when no event came); each step decides from values alone what to do next
 * ({@link AgentAction}: idle, finish, report Updated, wait after a failure, or update) and an
 * update is a chain of named steps ({@link NodeUpdate}) whose every write goes through one recorder
 * ({@link NodeRecorder}). The change between the node's config and the new one, weighed against the
 * cluster's node disruption policies, says what it takes: a Reboot is Working and cordon, drain,
 * write files and units, stage the OS, Rebooting, reboot; a Drain is the same without the OS and
 * the reboot; None and the systemd actions write the files and act, with no cordon, drain or
 * reboot. Then {@code currentConfig}, Done, empty reason and uncordon (one write). A config it
 * cannot take in place makes it Unreconcilable. Crash-only: each step starts from the node's
 * annotations and a marker on the host (the config written and the boot it was written in), so an
 * agent killed at any point picks up where it was: before the reboot it does the remaining steps
 * again (all of them are idempotent), after it only finishes.
 */
public final class NodeAgent implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(NodeAgent.class);
    private static final String KEY = "node";

    private final String nodeName;
    private final HostFiles host;
    private final HostOs os;
    private final AgentOptions options;
    private final Clock clock;
    private final OwnNode node;
    private final WorkQueue<String> queue;
    private final NodeRecorder recorder;
    private final NodeUpdate update;
    private final Thread loop;
    private final AgentMetrics metrics;
    private volatile boolean stopped;

    /** The config the node last failed on, and when (the loop's thread only). */
    private AgentAction.Failure failure;

    /** When the fallback look the queue holds is due ({@link System#nanoTime()}), 0 for none. */
    private long lookAt;

    public NodeAgent(
            KubernetesClient client,
            String nodeName,
            HostFiles host,
            HostOs os,
            AgentOptions options,
            Clock clock) {
        this.nodeName = nodeName;
        this.host = host;
        this.os = os;
        this.options = options;
        this.clock = clock;
        this.queue = new WorkQueue<>("agent-" + nodeName, backoff(options.poll()));
        this.node = new OwnNode(client, nodeName, () -> queue.add(KEY));
        this.recorder = new NodeRecorder(client, nodeName, node, clock);
        this.metrics = new AgentMetrics(clock);
        this.metrics.watch(node::seen);
        Drainer drainer = new Drainer(client, clock, options, this::drainRefused);
        this.update =
                new NodeUpdate(
                        client,
                        nodeName,
                        host,
                        os,
                        options,
                        drainer,
                        recorder,
                        () -> stopped,
                        metrics);
        this.loop = new Thread(this::run, "agent-" + nodeName);
        this.loop.setDaemon(true);
    }

    /**
     * The client an agent needs: one that does not retry by itself, since a refused eviction (429)
     * must come back at once for the agent's own drain timing rather than after the client's
     * backoff.
     */
    public static KubernetesClient client(Config config) {
        return new KubernetesClientBuilder()
                .withConfig(new ConfigBuilder(config).withRequestRetryBackoffLimit(0).build())
                .build();
    }

    /**
     * A failed step is tried again soon, then less often, at most every {@code poll}: as often as
     * the agent would look at its node anyway.
     */
    private static Backoff backoff(Duration poll) {
        Duration first = poll.compareTo(Duration.ofMillis(100)) < 0 ? poll : Duration.ofMillis(100);
        return new Backoff(first, 2, poll, 0.1);
    }

    /** This agent's metrics, for {@code /metrics}. */
    public AgentMetrics metrics() {
        return metrics;
    }

    public NodeAgent start() {
        node.start();
        loop.start();
        queue.add(KEY);
        return this;
    }

    private void run() {
        String lastFailure = null; // a failure repeated at every retry is logged once
        while (!stopped) {
            String key;
            try {
                key = queue.take();
            } catch (InterruptedException e) {
                return;
            }
            try {
                Duration next = step();
                queue.forget(key);
                lastFailure = null;
                if (next.isZero()) queue.add(key);
                else lookAgainWithin(next);
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                if (stopped) return;
                Duration retry = queue.addRateLimited(key);
                lastFailure = failed(e, lastFailure, retry);
            } finally {
                queue.done(key);
                steps.incrementAndGet();
            }
        }
    }

    private final AtomicLong steps = new AtomicLong();

    /**
     * Steps this agent ended (done or failed), one at a time: a step that began after an event has
     * ended once this count moved by two since it.
     */
    public long steps() {
        return steps.get();
    }

    /**
     * One step towards the desired config.
     *
     * @return when to look at the node again if no event comes: zero for at once
     */
    private Duration step() throws InterruptedException {
        Node n = node.latest();
        Instant now = clock.instant();
        AgentAction.Decision decision = decide(n, now);
        if (decision.action() instanceof AgentAction.Update) {
            // the one costly decision (a drain, a reboot) is taken on the node as the API holds it
            // now: the informer may still show the node as it was before this agent's own last
            // write (an update just finished, say, which it would otherwise start again)
            n = node.read();
            decision = decide(n, now);
        }
        failure = decision.failure();
        AgentAction action = decision.action();
        if (action instanceof AgentAction.Finish finish) {
            recorder.begin(finish.report());
            if (!update.finishAfterBoot(n, finish.config(), List.of()))
                failure = new AgentAction.Failure(finish.config(), clock.instant());
            return Duration.ZERO;
        }
        if (action instanceof AgentAction.Updated updated) {
            recorder.idle(n, updated.report());
            return options.poll();
        }
        if (action instanceof AgentAction.WaitDegraded wait) {
            Duration left = Duration.between(now, wait.until());
            return left.compareTo(options.poll()) < 0 ? left : options.poll();
        }
        if (action instanceof AgentAction.Update u) {
            if (!update.run(n, u.current(), u.desired()))
                failure = new AgentAction.Failure(u.desired(), clock.instant());
            return Duration.ZERO;
        }
        return options.poll(); // idle: no config told yet
    }

    /** What to do next on node {@code n}, with the marker on the host as it is now. */
    private AgentAction.Decision decide(Node n, Instant now) {
        Map<String, String> a =
                n.getMetadata().getAnnotations() == null
                        ? Map.of()
                        : n.getMetadata().getAnnotations();
        HostMarker marker = HostMarker.parse(host.read(HostMarker.PATH));
        return AgentAction.next(
                nodeName,
                a,
                marker,
                marker == null ? null : os.boot(),
                failure,
                now,
                options.degradedRetry());
    }

    /**
     * Makes sure the queue looks at the node again within {@code delay}: one pending look at a
     * time, so that the looks events add along the way do not pile up.
     */
    private void lookAgainWithin(Duration delay) {
        long now = System.nanoTime(), due = now + delay.toNanos();
        if (lookAt != 0 && lookAt - now > 0 && lookAt - due <= 0) return;
        lookAt = due;
        queue.addAfter(KEY, delay);
    }

    /**
     * The first refused eviction of a drain: a {@value DrainEvents#REASON} event naming the pod and
     * the budget, and the refusal in the MachineConfigNode, as upstream's drain controller reports
     * a failing drain.
     */
    private void drainRefused(String pod, String budget) {
        metrics.drainRefused(budget);
        String refusal = DrainEvents.refusal(budget, pod);
        recorder.warning(DrainEvents.REASON, refusal);
        Node n = node.seen();
        if (n == null) return; // reported at the next step
        Map<String, String> a =
                n.getMetadata().getAnnotations() == null
                        ? Map.of()
                        : n.getMetadata().getAnnotations();
        recorder.report(
                n,
                List.of(
                        UpdateSteps.drainFailed(
                                refusal,
                                "drain-" + a.getOrDefault(DESIRED_CONFIG, ""),
                                a.getOrDefault(LAST_APPLIED_DRAIN, ""))));
    }

    /** Logs a failed step, once until another failure or a success; returns it. */
    private String failed(RuntimeException e, String lastFailure, Duration retry) {
        boolean api = ApiErrors.code(e) > 0;
        String failure = api ? ApiErrors.describe(e) : e.toString();
        String again = InformerFailures.human(retry);
        if (failure.equals(lastFailure)) {
            LOG.debug("nodes/{}: again: {}", nodeName, failure, e);
        } else if (api) {
            LOG.warn("nodes/{}: {}; trying again in {}", nodeName, failure, again);
            LOG.debug("nodes/{}: API error", nodeName, e);
        } else {
            LOG.error("nodes/{}: {}; trying again in {}", nodeName, failure, again, e);
        }
        return failure;
    }

    @Override
    public void close() {
        stopped = true;
        node.close();
        queue.close();
        loop.interrupt();
        try {
            loop.join(5000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
