package io.upshift.clusterversion.metrics;

import io.upshift.graph.risk.RiskCondition;
import java.time.Instant;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * What only the cluster-version controller of this process knows, as of now.
 *
 * @param runningImage the release this controller runs (its {@code --release}, bare); null when
 *     none runs here
 * @param runningVersion that release's version, once its payload was loaded here; null otherwise
 * @param runningCreated when that release's payload was created ({@code image-references}'
 *     creationTimestamp); null when unknown
 * @param payload how far the sync worker's current pass got; null before any pass
 * @param updatesRetrieved when the update graph last answered; null before it did
 * @param risks the Applies condition of each conditional update risk last evaluated, by risk name
 */
public record ControllerFacts(
        String runningImage,
        String runningVersion,
        Instant runningCreated,
        PayloadProgress payload,
        Instant updatesRetrieved,
        Map<String, RiskCondition> risks) {

    /** No cluster-version controller runs in this process. */
    public static final ControllerFacts NONE =
            new ControllerFacts(null, null, null, null, null, Map.of());

    /**
     * A controller of {@code image} that does not run here now (this replica does not lead): only
     * its release is known.
     */
    public static ControllerFacts waiting(String image) {
        return new ControllerFacts(image, null, null, null, null, Map.of());
    }

    public ControllerFacts {
        risks = Collections.unmodifiableMap(new TreeMap<>(risks));
    }

    /**
     * The pass over the payload of {@code version}: {@code done} of {@code total} manifests
     * applied.
     */
    public record PayloadProgress(String version, int done, int total) {}
}
