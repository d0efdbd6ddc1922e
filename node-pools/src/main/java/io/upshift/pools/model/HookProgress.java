package io.upshift.pools.model;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigPool;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Where one pool's hooks stand in one pass of {@link PoolDecision}, from the hooks' Jobs as the
 * cache holds them: which Jobs to create and delete, which nodes a pre-drain hook let go (told now)
 * or still holds (counted as updating, so that maxUnavailable counts them), which done nodes keep
 * the update taint until their post-update hook succeeds, and what of it holds the pool's next
 * node. Pure, and crash-only: everything here is read again from the Jobs at the next pass.
 *
 * <ul>
 *   <li>pre-drain: a node picked to start gets its Job instead of its config; once the Job
 *       succeeded the node is told (and its agent cordons and drains it); while it runs or when it
 *       failed, the node is not touched;
 *   <li>post-update: a node done with the target, Ready and still carrying the update taint (so
 *       updated by this rollout, not one that was level before) gets its Job; the taint stays and
 *       no new node starts until it succeeded;
 *   <li>before-workers: the pool's first node of a target starts only once the required pools run
 *       this release and the pool's Job for the target succeeded.
 * </ul>
 *
 * A Job of the pool for another target, for a node that left the pool, or of a hook the pool no
 * longer names, is deleted. A failed one stays (it says why) until an administrator deletes it,
 * which runs the hook again.
 */
public final class HookProgress {
    private final PoolHooks hooks;
    private final MachineConfigPool pool;
    private final String namespace;
    private final String target;
    private final Map<String, Job> jobs;
    private final Map<String, String> refused;
    private final Instant now;

    private final List<Job> create = new ArrayList<>();
    private final List<Job> delete = new ArrayList<>();
    private final Set<String> tellNow = new HashSet<>();
    private final Set<String> busy = new HashSet<>();
    private final Set<String> keepTaint = new HashSet<>();
    private RolloutHold failed;
    private RolloutHold waiting;

    /**
     * @param hooks the pool's hooks, or null when it has none
     * @param jobs the hooks' Jobs of the controller's namespace, by name
     * @param refused the API server's answer to each Job it refused to create, by {@link
     *     HookJob#refusalKey}
     * @param nodes the pool's nodes, and {@code view} the same as the decision sees them
     * @param active whether the pool's nodes may be touched now (not paused, spec valid, a target)
     */
    public HookProgress(
            PoolHooks hooks,
            MachineConfigPool pool,
            String namespace,
            String target,
            List<Node> nodes,
            List<PoolNode> view,
            Map<String, Job> jobs,
            Map<String, String> refused,
            boolean active,
            Instant now) {
        this.hooks = hooks;
        this.pool = pool;
        this.namespace = namespace;
        this.target = target;
        this.jobs = jobs;
        this.refused = refused;
        this.now = now;
        if (!active) return;
        stale(view);
        if (hooks == null) return;
        for (int i = 0; i < view.size(); i++) {
            PoolNode n = view.get(i);
            if (hooks.template(HookKind.PRE_DRAIN) != null && !target.equals(n.desiredConfig()))
                preDrain(n);
            if (hooks.template(HookKind.POST_UPDATE) != null
                    && n.done()
                    && n.currentConfig().equals(target)
                    && n.ready()
                    && UpdateTaint.on(nodes.get(i))) postUpdate(n);
        }
    }

    private String pool() {
        return pool.getMetadata().getName();
    }

    /** Deletes the pool's Jobs no run of this pass would look for. */
    private void stale(List<PoolNode> view) {
        Set<String> members = new HashSet<>();
        view.forEach(n -> members.add(n.name()));
        for (Job job : jobs.values()) {
            Map<String, String> a = job.getMetadata().getAnnotations();
            if (a == null || !pool().equals(a.get(HookJob.POOL))) continue;
            if (job.getMetadata().getDeletionTimestamp() != null) continue; // going already
            HookKind kind = kind(job);
            boolean named = kind != null && hooks != null && hooks.template(kind) != null;
            boolean forNode = kind != null && kind.perNode;
            String node = Objects.requireNonNullElse(a.get(HookJob.NODE), "");
            if (!named
                    || !target.equals(a.get(HookJob.CONFIG))
                    || (forNode && !members.contains(node))) delete.add(job);
        }
    }

    private static HookKind kind(Job job) {
        String id =
                job.getMetadata().getLabels() == null
                        ? null
                        : job.getMetadata().getLabels().get(HookJob.LABEL);
        for (HookKind k : HookKind.values()) if (k.id.equals(id)) return k;
        return null;
    }

    private void preDrain(PoolNode n) {
        HookJob run = new HookJob(HookKind.PRE_DRAIN, pool(), n.name(), target);
        HookJob.State state = state(run);
        if (state instanceof HookJob.Missing) return; // started only when the node is picked
        if (state instanceof HookJob.Succeeded) {
            tellNow.add(n.name());
            return;
        }
        busy.add(n.name());
        if (state instanceof HookJob.Failed f)
            fail(run, f, "; the node is not told MachineConfig " + target + " (nor drained)");
        else wait(run, (HookJob.Running) state);
    }

    private void postUpdate(PoolNode n) {
        HookJob run = new HookJob(HookKind.POST_UPDATE, pool(), n.name(), target);
        HookJob.State state = state(run);
        if (state instanceof HookJob.Succeeded) return;
        keepTaint.add(n.name());
        if (state instanceof HookJob.Missing) start(run);
        else if (state instanceof HookJob.Failed f)
            fail(
                    run,
                    f,
                    "; node "
                            + n.name()
                            + " keeps its "
                            + NodeAnnotations.UPDATE_TAINT
                            + " taint and no further node starts");
        else wait(run, (HookJob.Running) state);
    }

    /**
     * The run's state; a Job the API server refused (a template it finds invalid, say) is failed
     * with its answer rather than created again at every pass.
     */
    private HookJob.State state(HookJob run) {
        HookJob.State state = HookJob.state(jobs.get(run.name()), hooks.timeout(), now);
        String answer = refused.get(run.refusalKey(hooks.template(run.kind())));
        if (state instanceof HookJob.Missing && answer != null)
            return new HookJob.Failed("the API server refused to create it: " + answer);
        return state;
    }

    /** Creates the run's Job; the pool waits for it as for one running. */
    private void start(HookJob run) {
        create.add(run.build(namespace, pool, hooks.template(run.kind()), hooks.timeout()));
        wait(run, new HookJob.Running(null));
    }

    /** "before the node is told MachineConfig X", for the messages. */
    private String when(HookJob run) {
        return switch (run.kind()) {
            case PRE_DRAIN -> "before the node is told MachineConfig " + target;
            case POST_UPDATE -> "after the node's update to MachineConfig " + target;
            case BEFORE_WORKERS -> "before the pool's first node is told MachineConfig " + target;
        };
    }

    /** The first run waited for names the hold; the earliest deadline of all ends it. */
    private void wait(HookJob run, HookJob.Running running) {
        Instant deadline = running.deadline();
        if (waiting != null) {
            if (deadline != null && (waiting.until() == null || deadline.isBefore(waiting.until())))
                waiting = new RolloutHold(waiting.reason(), waiting.message(), deadline);
            return;
        }
        waiting =
                new RolloutHold(
                        RolloutHold.HOOK,
                        "Waiting for Job "
                                + namespace
                                + "/"
                                + run.name()
                                + ", "
                                + run.describe()
                                + ", to succeed "
                                + when(run),
                        deadline);
    }

    private void fail(HookJob run, HookJob.Failed f, String effect) {
        if (failed != null) return;
        failed =
                new RolloutHold(
                        RolloutHold.HOOK_FAILED,
                        "Job "
                                + namespace
                                + "/"
                                + run.name()
                                + ", "
                                + run.describe()
                                + ", failed: "
                                + f.why()
                                + effect
                                + ". Delete the Job to run the hook again",
                        null);
    }

    /** What of the hooks holds the pool's next node (a failed hook first), or null. */
    public RolloutHold hold() {
        return failed != null ? failed : waiting;
    }

    /**
     * Before the pool's first node of the target starts: its before-workers hook, once the control
     * plane is done (else the hold says what it waits for). Called only when nothing else holds the
     * pool and a node is due; null when nodes may start.
     *
     * @param controlPlane what the required pools still lack, or null when they run this release
     */
    public RolloutHold beforeWorkers(String controlPlane) {
        if (hooks == null || hooks.template(HookKind.BEFORE_WORKERS) == null) return null;
        HookJob run = new HookJob(HookKind.BEFORE_WORKERS, pool(), "", target);
        HookJob.State state = state(run);
        if (state instanceof HookJob.Succeeded) return null;
        if (state instanceof HookJob.Failed f) {
            fail(run, f, "; no node of the pool starts on MachineConfig " + target);
            return failed;
        }
        if (state instanceof HookJob.Running r) {
            wait(run, r);
            return waiting;
        }
        if (controlPlane != null)
            return new RolloutHold(
                    RolloutHold.HOOK,
                    "Waiting for the control plane ("
                            + controlPlane
                            + ") before "
                            + run.describe()
                            + " runs for MachineConfig "
                            + target,
                    null);
        start(run);
        return waiting;
    }

    /**
     * Whether the node just picked starts with its pre-drain hook (its Job created here) rather
     * than being told its config.
     */
    public boolean startsWithHook(PoolNode picked) {
        if (hooks == null || hooks.template(HookKind.PRE_DRAIN) == null) return false;
        start(new HookJob(HookKind.PRE_DRAIN, pool(), picked.name(), target));
        return true;
    }

    public List<Job> create() {
        return List.copyOf(create);
    }

    public List<Job> delete() {
        return List.copyOf(delete);
    }

    /** Nodes whose pre-drain hook succeeded and that are still to be told the target. */
    public boolean tellNow(String node) {
        return tellNow.contains(node);
    }

    /** Nodes a pre-drain hook holds (running, or failed): counted as updating. */
    public boolean busy(String node) {
        return busy.contains(node);
    }

    /** Done nodes whose post-update hook has not succeeded: they keep the update taint. */
    public boolean keepsTaint(String node) {
        return keepTaint.contains(node);
    }
}
