package io.upshift.api.update;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * Upshift's own estimate of when something finishes (beyond oc's, which stays in the insight's oc fields): from the
 * cluster-version controller's run-level times and the nodes' measured update times.
 *
 * @param completedAt when it is estimated to finish (RFC 3339); absent when it cannot be estimated
 * @param basis       what the estimate rests on, or why there is none, in a few words
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record UpshiftEstimate(String completedAt, String basis) {
}
