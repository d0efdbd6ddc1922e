package io.upshift.api.update.insight;

import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.Version;
import io.upshift.api.update.InsightSpec;
import io.upshift.api.update.NodeInsight;
import io.upshift.api.update.UpdateStatus;

/**
 * One node during the update. One cluster-scoped object per insight, named as the node is
 * (openshift/api PR #2233's kind {@code NodeProgressInsight}); its status is Upshift's insight of
 * that kind.
 */
@Group(UpdateStatus.GROUP)
@Version(UpdateStatus.VERSION)
@Kind("NodeProgressInsight")
@Plural(NodeProgressInsight.PLURAL)
public class NodeProgressInsight extends CustomResource<InsightSpec, NodeInsight> {
    public static final String PLURAL = "nodeprogressinsights";

    @Override
    protected InsightSpec initSpec() {
        return new InsightSpec();
    }

    @Override
    protected NodeInsight initStatus() {
        return null;
    }
}
