package io.upshift.api.update;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * Upshift's own estimate of when something finishes (beyond oc's, which stays in the insight's oc
 * fields): from the cluster-version controller's run-level times and the nodes' measured update
 * times.
 *
 * @param completedAt when it is estimated to finish (RFC 3339), or finished; absent when it cannot
 *     be told
 * @param basis what the estimate rests on, or why there is none, in a few words
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record UpshiftEstimate(String completedAt, String basis) {
    /**
     * The basis of a node's or pool's estimate once it is updated: {@code completedAt} is then when
     * it was done.
     */
    public static final String UPDATED = "updated";

    /** True for an estimate that says its node or pool is updated. */
    public boolean updated() {
        return UPDATED.equals(basis);
    }
}
