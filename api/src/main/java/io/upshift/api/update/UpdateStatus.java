package io.upshift.api.update;

import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * The cluster-scoped {@code update.openshift.io/v1alpha1} UpdateStatus: a status-only resource
 * holding the insights that describe an update in progress. Its shape follows the last upstream
 * design (openshift/api PR #2012).
 */
@Group(UpdateStatus.GROUP)
@Version(UpdateStatus.VERSION)
@Plural(UpdateStatus.PLURAL)
public class UpdateStatus extends CustomResource<UpdateStatusSpec, UpdateStatusStatus> {
    public static final String GROUP = "update.openshift.io";
    public static final String VERSION = "v1alpha1";
    public static final String PLURAL = "updatestatuses";

    /** The one UpdateStatus the controller maintains. */
    public static final String NAME = "cluster";

    @Override
    protected UpdateStatusSpec initSpec() {
        return new UpdateStatusSpec();
    }

    @Override
    protected UpdateStatusStatus initStatus() {
        return null;
    }
}
