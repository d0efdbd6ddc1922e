package io.upshift.api.update.insight;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.List;

/** The kinds that hold insights, one object per insight. */
public final class InsightKinds {
    public static final List<Class<? extends HasMetadata>> ALL =
            List.of(
                    ClusterVersionProgressInsight.class,
                    ClusterOperatorProgressInsight.class,
                    MachineConfigPoolProgressInsight.class,
                    NodeProgressInsight.class,
                    HealthInsightObject.class);

    private InsightKinds() {}
}
