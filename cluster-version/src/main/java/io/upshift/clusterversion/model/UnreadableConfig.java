package io.upshift.clusterversion.model;

import java.util.List;
import java.util.stream.Collectors;

/**
 * A cluster config kind the controller may not read (403): a misconfigured account, not a plain
 * cluster (a kind the cluster does not serve at all is normal and only logged). The controller
 * works without it, and ClusterVersion says so in the condition {@value #CONDITION}=False, present
 * only while some kind is refused.
 *
 * @param resource the kind, e.g. {@code featuregates.config.openshift.io}
 * @param detail the API server's answer in one line
 * @param without what the controller does without it, e.g. {@code the default feature set}
 */
public record UnreadableConfig(String resource, String detail, String without) {
    public static final String CONDITION = "ClusterConfigReadable";
    public static final String REASON = "Forbidden";

    /** The condition's message for the kinds refused, in the order given. */
    public static String message(List<UnreadableConfig> refused) {
        return refused.stream()
                .map(
                        u ->
                                u.resource()
                                        + " is forbidden ("
                                        + u.detail()
                                        + "); working without it: "
                                        + u.without())
                .collect(Collectors.joining("; "));
    }
}
