package io.upshift.clusterversion.merge;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * {@code EnsureDeployment}, {@code EnsureDaemonSet}, {@code EnsureJob} and {@code EnsureCronJob}:
 * the spec of workloads.
 */
final class WorkloadMerge {
    private WorkloadMerge() {}

    static void deployment(ObjectNode e, JsonNode r) {
        Fields.replace(e, r, "replicas");
        Fields.replace(e, r, "selector");
        Fields.replace(e, r, "paused");
        Fields.replace(e, r, "minReadySeconds");
        Fields.replaceIfSet(e, r, "revisionHistoryLimit");
        Fields.replaceIfSet(e, r, "progressDeadlineSeconds");
        Fields.replace(e, r, "strategy");
        PodTemplateMerge.ensure(Fields.object(e, "template"), Fields.in(r, "template"));
    }

    static void daemonSet(ObjectNode e, JsonNode r) {
        Fields.replace(e, r, "selector");
        PodTemplateMerge.ensure(Fields.object(e, "template"), Fields.in(r, "template"));
    }

    /** A Job's selector is the API server's: a manifest may not set it. */
    static void job(ObjectNode e, JsonNode r) {
        if (!Semantic.isZero(r.get("selector")))
            throw new IllegalArgumentException("a Job manifest may not set spec.selector");
        for (String f :
                new String[] {
                    "parallelism",
                    "completions",
                    "activeDeadlineSeconds",
                    "backoffLimit",
                    "manualSelector",
                    "ttlSecondsAfterFinished",
                    "suspend",
                    "completionMode",
                    "podFailurePolicy"
                }) {
            Fields.replace(e, r, f);
        }
        PodTemplateMerge.ensure(Fields.object(e, "template"), Fields.in(r, "template"));
    }

    static void cronJob(ObjectNode e, JsonNode r) {
        for (String f :
                new String[] {
                    "startingDeadlineSeconds",
                    "suspend",
                    "failedJobsHistoryLimit",
                    "successfulJobsHistoryLimit",
                    "schedule",
                    "timeZone",
                    "concurrencyPolicy"
                }) {
            Fields.replace(e, r, f);
        }
        ObjectNode jobTemplate = Fields.object(e, "jobTemplate");
        JsonNode wantTemplate = Fields.in(r, "jobTemplate");
        ObjectMetaMerge.ensure(
                Fields.object(jobTemplate, "metadata"), Fields.in(wantTemplate, "metadata"));
        job(Fields.object(jobTemplate, "spec"), Fields.in(wantTemplate, "spec"));
    }
}
