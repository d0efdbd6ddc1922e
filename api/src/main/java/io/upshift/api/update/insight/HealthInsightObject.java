package io.upshift.api.update.insight;

import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.Version;
import io.upshift.api.update.HealthInsight;
import io.upshift.api.update.InsightSpec;
import io.upshift.api.update.UpdateStatus;

/**
 * Something that needs (or may need) an administrator's attention during the update. One
 * cluster-scoped object per insight, named as the insight's uid (openshift/api PR #2233's kind
 * {@code HealthInsight}); its status is Upshift's insight of that kind. (Named apart from the
 * {@link HealthInsight} it holds.)
 */
@Group(UpdateStatus.GROUP)
@Version(UpdateStatus.VERSION)
@Kind("HealthInsight")
@Plural(HealthInsightObject.PLURAL)
public class HealthInsightObject extends CustomResource<InsightSpec, HealthInsight> {
    public static final String PLURAL = "healthinsights";

    @Override
    protected InsightSpec initSpec() {
        return new InsightSpec();
    }

    @Override
    protected HealthInsight initStatus() {
        return null;
    }
}
