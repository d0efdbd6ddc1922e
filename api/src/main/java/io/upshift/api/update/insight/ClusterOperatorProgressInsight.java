package io.upshift.api.update.insight;

import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.Version;
import io.upshift.api.update.ClusterOperatorInsight;
import io.upshift.api.update.InsightSpec;
import io.upshift.api.update.UpdateStatus;

/**
 * One ClusterOperator during the update. One cluster-scoped object per insight, named as the
 * ClusterOperator is (openshift/api PR #2233's kind {@code ClusterOperatorProgressInsight}); its
 * status is Upshift's insight of that kind.
 */
@Group(UpdateStatus.GROUP)
@Version(UpdateStatus.VERSION)
@Kind("ClusterOperatorProgressInsight")
@Plural(ClusterOperatorProgressInsight.PLURAL)
public class ClusterOperatorProgressInsight
        extends CustomResource<InsightSpec, ClusterOperatorInsight> {
    public static final String PLURAL = "clusteroperatorprogressinsights";

    @Override
    protected InsightSpec initSpec() {
        return new InsightSpec();
    }

    @Override
    protected ClusterOperatorInsight initStatus() {
        return null;
    }
}
