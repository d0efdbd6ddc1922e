package io.upshift.api.update.insight;

import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.Version;
import io.upshift.api.update.InsightSpec;
import io.upshift.api.update.PoolInsight;
import io.upshift.api.update.UpdateStatus;

/**
 * One MachineConfigPool during the update. One cluster-scoped object per insight, named as the pool
 * is (openshift/api PR #2233's kind {@code MachineConfigPoolProgressInsight}); its status is
 * Upshift's insight of that kind.
 */
@Group(UpdateStatus.GROUP)
@Version(UpdateStatus.VERSION)
@Kind("MachineConfigPoolProgressInsight")
@Plural(MachineConfigPoolProgressInsight.PLURAL)
public class MachineConfigPoolProgressInsight extends CustomResource<InsightSpec, PoolInsight> {
    public static final String PLURAL = "machineconfigpoolprogressinsights";

    @Override
    protected InsightSpec initSpec() {
        return new InsightSpec();
    }

    @Override
    protected PoolInsight initStatus() {
        return null;
    }
}
