package io.upshift.core.merge;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;

/** {@code EnsureDeployment}, {@code EnsureDaemonSet}, {@code EnsureJob} and {@code EnsureCronJob}: the spec of workloads. */
final class WorkloadMerge {
    private WorkloadMerge() {
    }

    static void deployment(ObjectNode e, JsonNode r) {
        Fields.replaceOrDefault(e, r, "replicas", IntNode.valueOf(1));
        Fields.replace(e, r, "selector");
        Fields.replace(e, r, "paused");
        Fields.replace(e, r, "minReadySeconds");
        Fields.replaceIfSet(e, r, "revisionHistoryLimit");
        Fields.replaceIfSet(e, r, "progressDeadlineSeconds");
        ObjectNode rolling = JsonNodeFactory.instance.objectNode();
        rolling.put("type", "RollingUpdate").putObject("rollingUpdate").put("maxUnavailable", "25%").put("maxSurge", "25%");
        Fields.replaceOrDefault(e, r, "strategy", rolling);
        PodTemplateMerge.ensure(Fields.object(e, "template"), Fields.in(r, "template"));
    }

    static void daemonSet(ObjectNode e, JsonNode r) {
        Fields.replace(e, r, "selector");
        PodTemplateMerge.ensure(Fields.object(e, "template"), Fields.in(r, "template"));
    }

    /** A Job's selector is the API server's: a manifest may not set it. */
    static void job(ObjectNode e, JsonNode r) {
        if (!Semantic.isZero(r.get("selector"))) throw new IllegalArgumentException("a Job manifest may not set spec.selector");
        JsonNode want = Fields.withDefault(Fields.withDefault(Fields.withDefault(r, "backoffLimit", IntNode.valueOf(6)),
                "completionMode", TextNode.valueOf("NonIndexed")), "suspend", BooleanNode.FALSE);
        for (String f : new String[] {"parallelism", "completions", "activeDeadlineSeconds", "backoffLimit", "manualSelector",
                "ttlSecondsAfterFinished", "suspend", "completionMode", "podFailurePolicy"}) {
            Fields.replace(e, want, f);
        }
        PodTemplateMerge.ensure(Fields.object(e, "template"), Fields.in(r, "template"));
    }

    static void cronJob(ObjectNode e, JsonNode r) {
        JsonNode want = Fields.withDefault(Fields.withDefault(Fields.withDefault(Fields.withDefault(r, "concurrencyPolicy", TextNode.valueOf("Allow")),
                "failedJobsHistoryLimit", IntNode.valueOf(1)), "successfulJobsHistoryLimit", IntNode.valueOf(3)), "suspend", BooleanNode.FALSE);
        for (String f : new String[] {"startingDeadlineSeconds", "suspend", "failedJobsHistoryLimit", "successfulJobsHistoryLimit",
                "schedule", "timeZone", "concurrencyPolicy"}) {
            Fields.replace(e, want, f);
        }
        ObjectNode jobTemplate = Fields.object(e, "jobTemplate");
        JsonNode wantTemplate = Fields.in(r, "jobTemplate");
        ObjectMetaMerge.ensure(Fields.object(jobTemplate, "metadata"), Fields.in(wantTemplate, "metadata"));
        job(Fields.object(jobTemplate, "spec"), Fields.in(wantTemplate, "spec"));
    }
}
