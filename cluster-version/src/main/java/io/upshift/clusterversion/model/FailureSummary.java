package io.upshift.clusterversion.model;

/**
 * A failure's reason in a few words, for Progressing ("Unable to apply 4.19.1: the cluster operator
 * etcd is degraded", "Error while reconciling 4.19.1: the update could not be applied"): upstream's
 * {@code payload.SummaryForReason} (pkg/payload/task.go), word for word.
 */
public final class FailureSummary {
    private FailureSummary() {}

    /**
     * @param name the ClusterOperator or workload the failure is about; empty for others
     */
    public static String forReason(String reason, String name) {
        boolean named = name != null && !name.isEmpty();
        return switch (reason) {
            case "UpdatePayloadResourceNotFound", "UpdatePayloadResourceConflict" ->
                    "some resources could not be updated";
            case "UpdatePayloadClusterDown" -> "the control plane is down or not responding";
            case "UpdatePayloadClusterError" -> "the control plane is reporting an internal error";
            case "UpdatePayloadClusterOverloaded" ->
                    "the control plane is overloaded and is not accepting updates";
            case "UpdatePayloadClusterUnauthorized" -> "could not authenticate to the server";
            case "UpdatePayloadRetrievalFailed" -> "could not download the update";
            case "UpdatePayloadResourceForbidden" -> "the server is rejecting updates";
            case "UpdatePayloadResourceTypeMissing" ->
                    "a required extension is not available to update";
            case "UpdatePayloadResourceInvalid" -> "some cluster configuration is invalid";
            case "UpdatePayloadIntegrity" -> "the contents of the update are invalid";
            case "ImageVerificationFailed" -> "the image may not be safe to use";
            case "UpgradePreconditionCheckFailed" -> "it may not be safe to apply this update";
            case "ClusterOperatorDegraded" ->
                    named
                            ? "the cluster operator " + name + " is degraded"
                            : "a cluster operator is degraded";
            case "ClusterOperatorNotAvailable" ->
                    named
                            ? "the cluster operator " + name + " is not available"
                            : "a cluster operator is not available";
            case "ClusterOperatorsNotAvailable" -> "some cluster operators are not available";
            case "ClusterOperatorNoVersions" ->
                    named
                            ? "the cluster operator " + name + " does not declare expected versions"
                            : "a cluster operator does not declare expected versions";
            case "WorkloadNotAvailable" ->
                    named
                            ? "the workload " + name + " has not yet successfully rolled out"
                            : "a workload has not yet rolled out";
            case "WorkloadNotProgressing" ->
                    named
                            ? "the workload " + name + " cannot roll out"
                            : "a workload cannot roll out";
            default ->
                    reason.startsWith("UpdatePayload")
                            ? "the update could not be applied"
                            : named
                                    ? name + " has an unknown error: " + reason
                                    : "an unknown error has occurred: " + reason;
        };
    }
}
