package io.upshift.pools.model;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobSpec;
import io.upshift.api.json.Mappers;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A hook's Job template: a ConfigMap in the pool controller's namespace whose key {@value #KEY}
 * holds a {@code batch/v1} Job (as {@code kubectl create job --dry-run=client -o yaml} prints one),
 * and whose optional key {@value #RUN_ON_NODE} ({@code "true"}) pins a node hook's pod to its node.
 * The controller names the Job and sets its namespace, labels and owner; the template gives the
 * rest. Kept in a ConfigMap of the controller's own namespace, not in the pool's annotation, so
 * that only who may write that namespace decides what the controller runs (the pool's annotation
 * only names it).
 *
 * @param version the ConfigMap's resourceVersion ("" when unknown): a Job the API server refused is
 *     tried again once it changes
 * @param spec the Job's spec as the template gives it, restart policy filled in
 */
public record HookTemplate(String configMap, String version, JobSpec spec, boolean runOnNode) {
    public static final String KEY = "job.yaml";
    public static final String RUN_ON_NODE = "runOnNode";

    /**
     * @throws IllegalArgumentException saying what is wrong with the template (the caller names the
     *     annotation)
     */
    public static HookTemplate of(ConfigMap cm) {
        String name = cm.getMetadata().getName();
        Map<String, String> data = cm.getData() == null ? Map.of() : cm.getData();
        String text = data.get(KEY);
        if (text == null || text.isBlank()) throw invalid(name, "has no key " + KEY);
        Job job;
        try {
            job = Mappers.YAML.readValue(text, Job.class);
        } catch (JsonProcessingException e) {
            throw invalid(name, KEY + " is not a Job: " + Mappers.problem(e));
        }
        if (job == null) throw invalid(name, KEY + " is empty");
        if (job.getApiVersion() != null && !"batch/v1".equals(job.getApiVersion()))
            throw invalid(name, KEY + ": apiVersion " + job.getApiVersion() + ", not batch/v1");
        if (job.getKind() != null && !"Job".equals(job.getKind()))
            throw invalid(name, KEY + ": kind " + job.getKind() + ", not Job");
        JobSpec spec = job.getSpec();
        PodSpec pod =
                spec == null || spec.getTemplate() == null ? null : spec.getTemplate().getSpec();
        if (pod == null || pod.getContainers() == null || pod.getContainers().isEmpty())
            throw invalid(name, KEY + ": spec.template.spec.containers is empty");
        for (Container c : pod.getContainers()) {
            if (c.getName() == null || c.getName().isBlank() || c.getImage() == null)
                throw invalid(name, KEY + ": every container needs a name and an image");
        }
        String restart = pod.getRestartPolicy();
        if (restart == null) pod.setRestartPolicy("Never");
        else if (!restart.equals("Never") && !restart.equals("OnFailure"))
            throw invalid(
                    name,
                    KEY
                            + ": spec.template.spec.restartPolicy "
                            + restart
                            + " (a Job's is Never or OnFailure)");
        // a Job deleted once finished would be made again, and the hook run again, at the next pass
        if (spec.getTtlSecondsAfterFinished() != null)
            throw invalid(
                    name,
                    KEY
                            + ": spec.ttlSecondsAfterFinished: the Job is the record that the hook"
                            + " ran; the pool controller deletes it once the pool is past it");
        if (spec.getSelector() != null || Boolean.TRUE.equals(spec.getManualSelector()))
            throw invalid(name, KEY + ": spec.selector is the Job controller's to set");
        String onNode = data.getOrDefault(RUN_ON_NODE, "false").strip();
        if (!onNode.equals("true") && !onNode.equals("false"))
            throw invalid(name, RUN_ON_NODE + " \"" + onNode + "\": expected true or false");
        return new HookTemplate(
                name,
                Objects.requireNonNullElse(cm.getMetadata().getResourceVersion(), ""),
                spec,
                onNode.equals("true"));
    }

    /**
     * The Job's spec for one run: the template's, each container told which hook, pool, node and
     * config it runs for ({@code UPSHIFT_HOOK}, {@code UPSHIFT_POOL}, {@code UPSHIFT_NODE}, "" for
     * a pool's hook, {@code UPSHIFT_CONFIG}), pinned to the node when the template says so, and
     * ended by the Job controller at the hook's timeout unless the template ends it sooner.
     */
    JobSpec specFor(HookKind kind, String pool, String node, String config, long timeoutSeconds) {
        JobSpec out = Mappers.JSON.convertValue(Mappers.JSON.valueToTree(spec), JobSpec.class);
        PodSpec pod = out.getTemplate().getSpec();
        List<EnvVar> env =
                List.of(
                        new EnvVar("UPSHIFT_HOOK", kind.id, null),
                        new EnvVar("UPSHIFT_POOL", pool, null),
                        new EnvVar("UPSHIFT_NODE", node, null),
                        new EnvVar("UPSHIFT_CONFIG", config, null));
        List<Container> all = new ArrayList<>(pod.getContainers());
        if (pod.getInitContainers() != null) all.addAll(pod.getInitContainers());
        for (Container c : all) {
            List<EnvVar> merged = new ArrayList<>(env);
            if (c.getEnv() != null) merged.addAll(c.getEnv()); // the template's own win
            c.setEnv(merged);
        }
        if (runOnNode && kind.perNode) pod.setNodeName(node);
        Long deadline = out.getActiveDeadlineSeconds();
        if (deadline == null || deadline > timeoutSeconds)
            out.setActiveDeadlineSeconds(timeoutSeconds);
        return out;
    }

    private static IllegalArgumentException invalid(String configMap, String why) {
        return new IllegalArgumentException("ConfigMap " + configMap + " " + why);
    }
}
