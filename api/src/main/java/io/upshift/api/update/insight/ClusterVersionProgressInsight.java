package io.upshift.api.update.insight;

import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.Version;
import io.upshift.api.update.ClusterVersionInsight;
import io.upshift.api.update.InsightSpec;
import io.upshift.api.update.UpdateStatus;

/**
 * The control plane update as the ClusterVersion shows it. One cluster-scoped object per insight,
 * named as the ClusterVersion is (openshift/api PR #2233's kind {@code
 * ClusterVersionProgressInsight}); its status is Upshift's insight of that kind.
 */
@Group(UpdateStatus.GROUP)
@Version(UpdateStatus.VERSION)
@Kind("ClusterVersionProgressInsight")
@Plural(ClusterVersionProgressInsight.PLURAL)
public class ClusterVersionProgressInsight
        extends CustomResource<InsightSpec, ClusterVersionInsight> {
    public static final String PLURAL = "clusterversionprogressinsights";

    @Override
    protected InsightSpec initSpec() {
        return new InsightSpec();
    }

    @Override
    protected ClusterVersionInsight initStatus() {
        return null;
    }
}
