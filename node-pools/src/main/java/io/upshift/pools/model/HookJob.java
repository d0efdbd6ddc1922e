package io.upshift.pools.model;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobCondition;
import io.fabric8.kubernetes.api.model.batch.v1.JobSpec;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigPool;
import io.upshift.base.gofmt.GoDuration;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One run of a hook: the Job of one {@link HookKind} for one pool, node ("" for a pool's hook) and
 * target config. Its name is a function of those four alone, so that the controller creates it with
 * create-only semantics and a restart finds it again rather than making another: a hook runs once
 * per node per target config. Its labels and annotations say what it is for ({@code kubectl get
 * jobs -l upshift.io/hook}).
 */
public record HookJob(HookKind kind, String pool, String node, String config) {
    public static final String LABEL = "upshift.io/hook";
    public static final String POOL = "upshift.io/hook-pool";
    public static final String NODE = "upshift.io/hook-node";
    public static final String CONFIG = "upshift.io/hook-config";
    public static final String TEMPLATE = "upshift.io/hook-template";
    static final String TEMPLATE_VERSION = "upshift.io/hook-template-version";

    /** Room for the subject in a name of at most 63 characters (the job-name label's limit). */
    private static final int SUBJECT = 63 - "upshift-".length() - "before-workers".length() - 12;

    /**
     * {@code upshift-<kind>-<node or pool, cut short>-<10 hex digits of a hash of all four>}: a
     * valid Job name whose pods' {@code job-name} label fits.
     */
    public String name() {
        String subject = kind.perNode ? node : pool;
        if (subject.length() > SUBJECT) subject = subject.substring(0, SUBJECT);
        subject = subject.replaceAll("[^a-z0-9]+$", "");
        return "upshift-" + kind.id + "-" + subject + "-" + hash();
    }

    private String hash() {
        try {
            byte[] d =
                    MessageDigest.getInstance("SHA-256")
                            .digest(
                                    String.join("\n", kind.id, pool, node, config)
                                            .getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(d).substring(0, 10);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * A created Job's name is a function of its run alone; the key of a refusal adds the template's
     * version, so that a refused Job is tried again once its template changes.
     */
    public static String refusalKey(Job job) {
        return job.getMetadata().getName()
                + "@"
                + job.getMetadata().getAnnotations().getOrDefault(TEMPLATE_VERSION, "");
    }

    String refusalKey(HookTemplate template) {
        return name() + "@" + template.version();
    }

    /** "the pre-drain hook (upshift.io/pre-drain-hook) of node w0", for messages. */
    public String describe() {
        return "the "
                + kind.id
                + " hook ("
                + kind.annotation
                + ") "
                + (kind.perNode ? "of node " + node : "of pool " + pool);
    }

    /** The Job to create, owned by its pool (deleted with it by the garbage collector). */
    public Job build(
            String namespace, MachineConfigPool owner, HookTemplate template, Duration timeout) {
        JobSpec spec = template.specFor(kind, pool, node, config, timeout.toSeconds());
        Map<String, String> podLabels = new LinkedHashMap<>();
        if (spec.getTemplate().getMetadata() != null
                && spec.getTemplate().getMetadata().getLabels() != null)
            podLabels.putAll(spec.getTemplate().getMetadata().getLabels());
        podLabels.put(LABEL, kind.id);
        spec.getTemplate()
                .setMetadata(
                        new ObjectMetaBuilder(spec.getTemplate().getMetadata())
                                .withLabels(podLabels)
                                .build());
        Job job = new Job();
        job.setApiVersion("batch/v1");
        job.setKind("Job");
        job.setMetadata(
                new ObjectMetaBuilder()
                        .withName(name())
                        .withNamespace(namespace)
                        .addToLabels(LABEL, kind.id)
                        .addToAnnotations(POOL, pool)
                        .addToAnnotations(NODE, node)
                        .addToAnnotations(CONFIG, config)
                        .addToAnnotations(TEMPLATE, template.configMap())
                        .addToAnnotations(TEMPLATE_VERSION, template.version())
                        .withOwnerReferences(
                                new OwnerReferenceBuilder()
                                        .withApiVersion("machineconfiguration.openshift.io/v1")
                                        .withKind("MachineConfigPool")
                                        .withName(owner.getMetadata().getName())
                                        .withUid(owner.getMetadata().getUid())
                                        .build())
                        .build());
        job.setSpec(spec);
        return job;
    }

    /** Where a hook's Job stands. */
    public sealed interface State {}

    /** No Job of this name: it is to be created. */
    public record Missing() implements State {}

    /** Created, not finished; past {@code deadline} it counts as failed. */
    public record Running(Instant deadline) implements State {}

    public record Succeeded() implements State {}

    /**
     * @param why the Job's Failed condition (reason: message), or that it ran out of time
     */
    public record Failed(String why) implements State {}

    /**
     * The state of {@code job} (null: {@link Missing}) at {@code now}: succeeded once the Job
     * controller says Complete, failed once it says Failed, or once the hook's timeout has passed
     * since the Job was created (a Job controller that honours its {@code activeDeadlineSeconds}
     * says so itself).
     */
    public static State state(Job job, Duration timeout, Instant now) {
        if (job == null) return new Missing();
        if (job.getStatus() != null && job.getStatus().getConditions() != null) {
            for (JobCondition c : job.getStatus().getConditions()) {
                if (!"True".equals(c.getStatus())) continue;
                if ("Complete".equals(c.getType())) return new Succeeded();
                if ("Failed".equals(c.getType()))
                    return new Failed(
                            (c.getReason() == null ? "Failed" : c.getReason())
                                    + (c.getMessage() == null ? "" : ": " + c.getMessage()));
            }
        }
        Instant created = created(job);
        Instant deadline = created == null ? null : created.plus(timeout);
        if (deadline != null && !now.isBefore(deadline))
            return new Failed(
                    "not finished within "
                            + GoDuration.format(timeout.toNanos())
                            + " ("
                            + PoolHooks.TIMEOUT
                            + ")");
        return new Running(deadline);
    }

    private static Instant created(Job job) {
        String t = job.getMetadata().getCreationTimestamp();
        if (t == null) return null;
        try {
            return Instant.parse(t);
        } catch (DateTimeParseException e) {
            return null;
        }
    }
}
