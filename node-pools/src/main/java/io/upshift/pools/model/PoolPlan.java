package io.upshift.pools.model;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfig;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigPool;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigPoolStatus;
import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What one pass of the pool controller should write, as {@link PoolDecision} decides it from what
 * the caches hold: per pool (in name order) the rendered config to create or claim, the new target,
 * the nodes to tell and those to untaint, and the status when it differs from the pool's; then the
 * rendered configs unused past their grace. Every object here is the one read, so that each write
 * is conditional on it. A level cluster's plan has no write at all ({@link #isLevel()}).
 *
 * @param unusedSince since when each rendered config no pool or node uses has been unused, to be
 *     passed to the next pass (the configs deleted now are not in it)
 * @param members each pool's nodes, by pool name
 */
public record PoolPlan(
        List<Pool> pools,
        List<String> deletions,
        Map<String, Instant> unusedSince,
        Map<String, List<Node>> members) {

    public PoolPlan {
        pools = List.copyOf(pools);
        deletions = List.copyOf(deletions);
        unusedSince = Map.copyOf(unusedSince);
    }

    /**
     * One pool's part.
     *
     * @param config the rendered config to create or claim; null when it exists as this release's
     *     (or the pool did not render)
     * @param target the rendered config the pool's {@code spec.configuration} should name now; null
     *     when it names it already (or the pool did not render)
     * @param status the status to write; null when the pool's is the same
     * @param problems what keeps the pool from rendering or its nodes from being touched, one line
     *     each, for the log
     * @param gate the pool as the machine-config ClusterOperator's status sees it
     * @param hold what holds its next node, or null
     * @param queries the health gates' PromQL queries this pool needs answered now (a rollout is
     *     due and no earlier control holds it); empty otherwise, so that a level pool asks nothing
     * @param halt the message to pause the pool with (its canaries saw a gate fire), or null
     * @param resume the pool was unpaused after its canaries paused it: the controller's marks
     *     ({@link Canaries#HALTED}, {@link Canaries#ROLLBACK}) are to be removed
     * @param hookJobs the hooks' Jobs to create and to delete ({@link HookProgress})
     */
    public record Pool(
            MachineConfigPool pool,
            ConfigChange config,
            RenderedConfig target,
            List<Tell> tell,
            List<Untaint> untaint,
            MachineConfigPoolStatus status,
            List<String> problems,
            PoolGate.Pool gate,
            RolloutHold hold,
            List<String> queries,
            String halt,
            boolean resume,
            HookJobs hookJobs) {

        public Pool {
            tell = List.copyOf(tell);
            untaint = List.copyOf(untaint);
            problems = List.copyOf(problems);
            queries = List.copyOf(queries);
        }

        public String name() {
            return pool.getMetadata().getName();
        }

        public boolean isLevel() {
            return config == null
                    && target == null
                    && tell.isEmpty()
                    && untaint.isEmpty()
                    && status == null
                    && halt == null
                    && !resume
                    && hookJobs.create().isEmpty()
                    && hookJobs.delete().isEmpty();
        }
    }

    /**
     * The hooks' Jobs of one pool to write: each created with create-only semantics (its name says
     * which hook, node and config it runs for), each stale one deleted.
     */
    public record HookJobs(List<Job> create, List<Job> delete) {
        public static final HookJobs NONE = new HookJobs(List.of(), List.of());

        public HookJobs {
            create = List.copyOf(create);
            delete = List.copyOf(delete);
        }
    }

    /** A rendered config to write. */
    public sealed interface ConfigChange {}

    /**
     * A new rendered config, owned by its pool and marked as this release's.
     *
     * @param sources the MachineConfigs it was rendered from, for the log
     */
    public record Create(MachineConfig config, List<String> sources) implements ConfigChange {}

    /**
     * A rendered config another release's controller made with the same content, to be marked as
     * this release's ({@code release}).
     *
     * @param previous the release it is marked with now ("" for none)
     */
    public record Claim(MachineConfig config, String previous, String release)
            implements ConfigChange {}

    /**
     * A node to tell its pool's target: {@code desiredConfig} and {@code taints} (the node's as
     * read, with the update taint).
     */
    public record Tell(Node node, String config, List<Taint> taints) {}

    /**
     * A node done with its config, to lose the update taint: {@code taints} as read, without it.
     */
    public record Untaint(Node node, List<Taint> taints) {}

    /**
     * When the earliest hold that ends by itself ends (a soak, a window opening): the controller
     * decides again then, with no event to wake it. Null when none does.
     */
    public Instant wakeAt() {
        Instant at = null;
        for (Pool p : pools) {
            Instant until = p.hold() == null ? null : p.hold().until();
            if (until != null && (at == null || until.isBefore(at))) at = until;
        }
        return at;
    }

    /** Every query the pools' health gates need answered now, each once. */
    public Set<String> queries() {
        Set<String> all = new LinkedHashSet<>();
        for (Pool p : pools) all.addAll(p.queries());
        return all;
    }

    /** The pools as the machine-config ClusterOperator's status sees them. */
    public List<PoolGate.Pool> gate() {
        return pools.stream().map(Pool::gate).toList();
    }

    /** Nothing to write: no pool has a change and no config is deleted. */
    public boolean isLevel() {
        return deletions.isEmpty() && pools.stream().allMatch(Pool::isLevel);
    }
}
