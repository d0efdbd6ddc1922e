package io.upshift.pools.controller;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.DeletionPropagation;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfig;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigPool;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigPoolStatus;
import io.upshift.api.json.Mappers;
import io.upshift.pools.model.Canaries;
import io.upshift.pools.model.HookJob;
import io.upshift.pools.model.NodeAnnotations;
import io.upshift.pools.model.PoolPlan;
import io.upshift.pools.model.RenderedConfig;
import io.upshift.pools.model.RolloutHold;
import io.upshift.runtime.kube.ApiErrors;
import io.upshift.runtime.kube.Events;
import io.upshift.runtime.kube.MergePatch;
import io.upshift.runtime.kube.ParallelWrites;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one writer of a {@link PoolPlan}: per pool, in order, the rendered config (created, or
 * claimed by a merge patch conditional on the config as read), the pool's target (a merge patch
 * conditional on the pool as read), the nodes told (several at a time, each preceded by its
 * MachineConfigNode's desired config) and untainted, then the pool's status (an update conditional
 * on the pool as read), neither while the cache still holds the pool a write of the recorder was
 * computed from; then the rendered configs to delete. A write refused because the object changed
 * since it was read (409) ends the pass, and the next one computes from the object as it is; a
 * rendered config that exists already (the cache was behind) is taken as created.
 */
final class PoolRecorder {
    private static final Logger LOG = LoggerFactory.getLogger(PoolRecorder.class);
    private static final ObjectMapper JSON = Mappers.JSON;

    private final KubernetesClient client;
    private final MachineConfigNodeWriter machineConfigNodes;
    private final ParallelWrites writes;
    private final Duration renderGrace;
    private final Clock clock;

    /**
     * The hooks' Jobs the API server refused to create, by {@link HookJob#refusalKey}, with its
     * answer: read by the next pass's decision (a restart forgets them, and tries each once more).
     */
    private final Map<String, String> refused = new ConcurrentHashMap<>();

    /** Each pool's events, so that repeats count on one Event. */
    private final Map<String, Events> events = new HashMap<>();

    /** Per pool, the resourceVersion its last write (target or status) was computed from. */
    private final Map<String, String> writtenFrom = new HashMap<>();

    /**
     * What each pool's problems were when last logged: a problem is said once, until it changes.
     */
    private final Map<String, List<String>> said = new HashMap<>();

    PoolRecorder(
            KubernetesClient client,
            MachineConfigNodeWriter machineConfigNodes,
            ParallelWrites writes,
            Duration renderGrace,
            Clock clock) {
        this.client = client;
        this.clock = clock;
        this.machineConfigNodes = machineConfigNodes;
        this.writes = writes;
        this.renderGrace = renderGrace;
    }

    /** The Jobs refused so far ({@link #refused}). */
    Map<String, String> refused() {
        return Map.copyOf(refused);
    }

    void record(PoolPlan plan) {
        for (PoolPlan.Pool pool : plan.pools()) record(pool);
        plan.deletions().forEach(this::delete);
    }

    private void record(PoolPlan.Pool p) {
        say(p);
        if (p.config() instanceof PoolPlan.Create create) create(p.pool(), create);
        else if (p.config() instanceof PoolPlan.Claim claim) claim(claim);
        if (p.target() != null && !behind(p.pool())) target(p.pool(), p.target());
        else if (p.halt() != null && !behind(p.pool())) halt(p);
        else if (p.resume() && !behind(p.pool())) resume(p.pool());
        p.hookJobs().create().forEach(job -> createJob(p, job));
        p.hookJobs().delete().forEach(this::deleteJob);
        writes.run(p.tell().stream().<Runnable>map(t -> () -> tell(p.name(), t)).toList());
        writes.run(p.untaint().stream().<Runnable>map(u -> () -> untaint(u)).toList());
        if (p.status() != null && !behind(p.pool())) {
            status(p.pool(), p.status());
            holdEvent(p);
        }
    }

    /**
     * A {@code RolloutHeld} event when a control begins to hold the pool (or another one takes
     * over), {@code RolloutResumed} when none holds it any more: once per change of the status
     * written, never per pass.
     */
    private void holdEvent(PoolPlan.Pool p) {
        String before = RolloutHold.reasonIn(p.pool().getStatus()),
                now = RolloutHold.reasonIn(p.status());
        if (now.equals(before)) return;
        Events about = events(p.name());
        if (p.hold() != null) about.normal(RolloutHold.CONDITION, p.hold().message());
        else
            about.normal(
                    "RolloutResumed",
                    "Pool " + p.name() + " starts its next nodes again (" + before + " ended)");
    }

    private Events events(String pool) {
        return events.computeIfAbsent(
                pool,
                name ->
                        new Events(
                                client,
                                clock,
                                "machineconfiguration.openshift.io/v1",
                                "MachineConfigPool",
                                name,
                                "upshift-pools"));
    }

    /**
     * The pool pauses itself, its canaries having seen a gate fire: {@code spec.paused} and why, in
     * one merge patch conditional on the pool as read; its status follows on the next pass.
     */
    private void halt(PoolPlan.Pool p) {
        wrote(
                p.pool(),
                MergePatch.against(p.pool())
                        .set("spec.paused", true)
                        .annotate(Canaries.HALTED, p.halt())
                        .sendTo(client, p.pool()));
        events(p.name()).warning("CanaryHalted", p.halt());
        LOG.warn("machineconfigpools/{}: paused: {}", p.name(), p.halt());
    }

    /**
     * An administrator unpaused a pool its canaries paused: the controller's marks go, so that a
     * later pause is not taken for the canaries' (nor a rollback asked then for this one).
     */
    private void resume(MachineConfigPool pool) {
        Map<String, Object> gone = new HashMap<>();
        gone.put(Canaries.HALTED, null);
        Map<String, String> a = pool.getMetadata().getAnnotations();
        if (a != null && a.containsKey(Canaries.ROLLBACK)) gone.put(Canaries.ROLLBACK, null);
        wrote(
                pool,
                MergePatch.against(pool).set("metadata.annotations", gone).sendTo(client, pool));
        LOG.info(
                "machineconfigpools/{}: unpaused after its canaries paused it; {} removed",
                pool.getMetadata().getName(),
                gone.keySet());
    }

    /**
     * A hook's Job, created once: its name is its hook, node and config's, so one that exists
     * already (the cache was behind, or a restarted controller) is the same run and is left as it
     * is. A {@code HookStarted} event on the pool names it, only when this write created it.
     */
    private void createJob(PoolPlan.Pool p, Job job) {
        String ns = job.getMetadata().getNamespace(), name = job.getMetadata().getName();
        try {
            client.batch().v1().jobs().inNamespace(ns).resource(job).create();
        } catch (KubernetesClientException e) {
            if (e.getCode() == 409) return;
            if (e.getCode() < 400 || e.getCode() >= 500 || e.getCode() == 429) throw e;
            // refused for what it is (invalid, forbidden): the decision holds the pool with the
            // answer, and the Job is not asked for again until its template changes
            String answer = ApiErrors.describe(e);
            refused.put(HookJob.refusalKey(job), answer);
            events(p.name())
                    .warning("HookRefused", "Job " + ns + "/" + name + " not created: " + answer);
            LOG.warn("jobs/{}: not created: {}", name, answer);
            return;
        }
        Map<String, String> a = job.getMetadata().getAnnotations();
        String node = a.getOrDefault(HookJob.NODE, "");
        String message =
                "Created Job "
                        + ns
                        + "/"
                        + name
                        + ": the "
                        + job.getMetadata().getLabels().get(HookJob.LABEL)
                        + " hook"
                        + (node.isEmpty() ? "" : " of node " + node)
                        + " for MachineConfig "
                        + a.get(HookJob.CONFIG);
        events(p.name()).normal("HookStarted", message);
        LOG.info("jobs/{}: {}", name, message);
    }

    /**
     * A hook's Job no run looks for any more (another target, its node gone, the hook removed):
     * deleted with its pods. By name, as the payload's Jobs are: the name stands for one hook, node
     * and config, so whatever bears it is the run decided stale.
     */
    private void deleteJob(Job job) {
        String ns = job.getMetadata().getNamespace(), name = job.getMetadata().getName();
        client.batch()
                .v1()
                .jobs()
                .inNamespace(ns)
                .withName(name)
                .withPropagationPolicy(DeletionPropagation.BACKGROUND)
                .delete();
        LOG.info(
                "jobs/{}: deleted: a hook's run for MachineConfig {} that the pool no longer"
                        + " looks for (another target, its node gone, or the hook removed)",
                name,
                job.getMetadata().getAnnotations().get(HookJob.CONFIG));
    }

    /**
     * The pool as read is the one a write of this recorder was computed from: the cache has not
     * seen that write yet, and a write computed from it now would only be refused (409).
     */
    private boolean behind(MachineConfigPool pool) {
        return version(pool).equals(writtenFrom.get(pool.getMetadata().getName()));
    }

    private static String version(MachineConfigPool pool) {
        return String.valueOf(pool.getMetadata().getResourceVersion());
    }

    private void say(PoolPlan.Pool p) {
        if (p.problems().equals(said.getOrDefault(p.name(), List.of()))) return;
        said.put(p.name(), p.problems());
        p.problems().forEach(line -> LOG.warn("machineconfigpools/{}: {}", p.name(), line));
    }

    private void create(MachineConfigPool pool, PoolPlan.Create create) {
        MachineConfig mc = create.config();
        try {
            client.resources(MachineConfig.class).resource(mc).create();
            LOG.info(
                    "machineconfigs/{} rendered for pool {} from {}",
                    mc.getMetadata().getName(),
                    pool.getMetadata().getName(),
                    create.sources());
        } catch (KubernetesClientException e) {
            if (e.getCode() != 409) throw e; // already there: the cache was behind
        }
    }

    private void claim(PoolPlan.Claim claim) {
        MachineConfig mc = claim.config();
        MergePatch.against(mc)
                .annotate(NodeAnnotations.RELEASE_IMAGE_VERSION, claim.release())
                .annotate(NodeAnnotations.GENERATED_BY, claim.release())
                .sendTo(client, mc);
        LOG.info(
                "machineconfigs/{}: rendered by release {} before, now marked as release {}'s",
                mc.getMetadata().getName(),
                claim.previous().isEmpty() ? "(none)" : claim.previous(),
                claim.release());
    }

    private void target(MachineConfigPool pool, RenderedConfig rendered) {
        ObjectNode configuration = JSON.createObjectNode().put("name", rendered.name());
        ArrayNode sources = configuration.putArray("source");
        for (String s : rendered.sources()) {
            sources.addObject()
                    .put("apiVersion", "machineconfiguration.openshift.io/v1")
                    .put("kind", "MachineConfig")
                    .put("name", s);
        }
        wrote(
                pool,
                MergePatch.against(pool)
                        .set("spec.configuration", configuration)
                        .sendTo(client, pool));
        LOG.info(
                "machineconfigpools/{}: target config {}",
                pool.getMetadata().getName(),
                rendered.name());
    }

    /**
     * Tells a node its new config and taints it, written only if nobody changed the node since it
     * was read: a taint another controller added in between is never dropped. Its MachineConfigNode
     * names the config first, as upstream's node controller does; a failure there is logged and
     * made good by a later pass.
     */
    private void tell(String pool, PoolPlan.Tell t) {
        String node = t.node().getMetadata().getName();
        try {
            machineConfigNodes.write(t.node(), pool, t.config());
        } catch (KubernetesClientException e) {
            LOG.warn(
                    "machineconfignodes/{}: desired config {} not written ({}); the node is told by"
                            + " its annotation, a later pass writes it",
                    node,
                    t.config(),
                    ApiErrors.describe(e));
        }
        MergePatch.against(t.node())
                .annotate(NodeAnnotations.DESIRED_CONFIG, t.config())
                .set("spec.taints", t.taints())
                .sendTo(client, t.node());
        machineConfigNodes.told(node, t.config());
        LOG.info("nodes/{}: desiredConfig {}", node, t.config());
    }

    private void untaint(PoolPlan.Untaint u) {
        MergePatch.against(u.node()).set("spec.taints", u.taints()).sendTo(client, u.node());
    }

    /** The pool's status, as an update conditional on the pool as read. */
    private void status(MachineConfigPool pool, MachineConfigPoolStatus status) {
        MachineConfigPool next = JSON.convertValue(JSON.valueToTree(pool), MachineConfigPool.class);
        next.setStatus(status);
        wrote(pool, client.resource(next).updateStatus());
    }

    /**
     * The pool as read is behind from now on, unless the write changed nothing (a server that keeps
     * what it had answers with the same version, and no event would ever catch up).
     */
    private void wrote(MachineConfigPool read, MachineConfigPool written) {
        if (written != null && !version(written).equals(version(read)))
            writtenFrom.put(read.getMetadata().getName(), version(read));
    }

    private void delete(String name) {
        client.resources(MachineConfig.class).withName(name).delete();
        LOG.info("machineconfigs/{} deleted: unused for {}", name, renderGrace);
    }
}
