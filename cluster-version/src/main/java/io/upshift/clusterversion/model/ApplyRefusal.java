package io.upshift.clusterversion.model;

/**
 * Why a manifest could not be applied, from the API server's answer, in upstream's words where it
 * names the cause ({@code reasonForPayloadSyncError} of the cluster-version operator's
 * pkg/payload/task.go): a refusal for want of permission is {@code UpdatePayloadResourceForbidden},
 * "the server has forbidden updates to this resource", followed here by the server's own message,
 * which names the verb, the resource and the user; a failed authentication is {@code
 * UpdatePayloadClusterUnauthorized}. Any other answer is {@code UpdatePayloadFailed} with the
 * server's message.
 *
 * @param reason the task error's reason (the Failing condition's, when it is the only one)
 * @param cause what follows "Could not update KIND "NS/NAME" (I of N, FILE): "
 */
public record ApplyRefusal(String reason, String cause) {

    /**
     * @param code the HTTP status of the refusal; {@code serverMessage} the Status message it
     *     carried
     */
    public static ApplyRefusal of(int code, String serverMessage) {
        return switch (code) {
            case 403 ->
                    new ApplyRefusal(
                            "UpdatePayloadResourceForbidden",
                            "the server has forbidden updates to this resource: " + serverMessage);
            case 401 ->
                    new ApplyRefusal(
                            "UpdatePayloadClusterUnauthorized",
                            "could not authenticate to the server: " + serverMessage);
            default -> new ApplyRefusal("UpdatePayloadFailed", serverMessage);
        };
    }
}
