package io.upshift.pools.model;

/**
 * The hooks a pool may carry (beyond upstream), each a Job run from a template the pool names: as
 * the system-upgrade-controller's {@code prepare} container and Cluster API's pre-drain hook and
 * lifecycle hooks ({@code BeforeWorkersUpgrade}) do, the rollout waits for it.
 */
public enum HookKind {
    /** Before a node is told its new config, and so before its cordon and drain. */
    PRE_DRAIN("pre-drain", "upshift.io/pre-drain-hook", true),
    /** After a node is done with its new config and Ready, before the next node starts. */
    POST_UPDATE("post-update", "upshift.io/post-update-hook", true),
    /**
     * Once per target config of a pool that is not required for the update (the workers), after the
     * required pools (the control plane) run this release, before the pool's first node starts.
     */
    BEFORE_WORKERS("before-workers", "upshift.io/before-workers-hook", false);

    /** The name in the Job's name and in its {@link HookJob#LABEL} label. */
    public final String id;

    /** The pool's annotation naming the template's ConfigMap. */
    public final String annotation;

    /** Whether it runs for one node (else for the pool). */
    public final boolean perNode;

    HookKind(String id, String annotation, boolean perNode) {
        this.id = id;
        this.annotation = annotation;
        this.perNode = perNode;
    }
}
