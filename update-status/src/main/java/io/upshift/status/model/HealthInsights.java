package io.upshift.status.model;

import io.upshift.api.update.HealthInsight;
import io.upshift.api.update.ImpactLevel;
import io.upshift.api.update.ResourceRef;
import io.upshift.api.update.ScopeType;
import java.time.Instant;
import java.util.List;

/**
 * The health insights the assessment raises, worded as {@code oc adm upgrade status} words them.
 */
final class HealthInsights {
    static final String CONFIG_GROUP = "config.openshift.io";
    static final String MCO_GROUP = "machineconfiguration.openshift.io";
    static final String RUNBOOKS =
            "https://github.com/openshift/runbooks/blob/master/alerts/cluster-monitoring-operator/";
    static final String MCO_DOCS =
            "https://docs.openshift.com/container-platform/latest/post_installation_configuration/machine-configuration-tasks.html#understanding-the-machine-config-operator";
    static final String PAUSED_POOL_DOCS =
            "https://docs.openshift.com/container-platform/latest/support/troubleshooting/troubleshooting-operator-issues.html#troubleshooting-disabling-autoreboot-mco_troubleshooting-operator-issues";
    static final String HISTORY_DOCS =
            "https://docs.openshift.com/container-platform/latest/updating/troubleshooting_updates/gathering-data-cluster-update.html#gathering-clusterversion-history-cli_troubleshooting_updates";

    static final String UPDATE_STALLED = "Update Stalled";
    static final String UPDATE_SPEED = "Update Speed";
    static final String API_AVAILABILITY = "API Availability";

    /** A health insight with the key its uid is derived from. */
    record Keyed(String key, HealthInsight insight) {}

    private HealthInsights() {}

    static Keyed of(
            String key,
            Instant startedAt,
            ScopeType scope,
            ResourceRef resource,
            ImpactLevel level,
            String impactType,
            String summary,
            String description,
            String reference) {
        return new Keyed(
                key,
                new HealthInsight(
                        startedAt == null || startedAt.equals(Times.ZERO)
                                ? null
                                : Times.format(startedAt),
                        new HealthInsight.Scope(scope, List.of(resource)),
                        new HealthInsight.Impact(level, impactType, summary, description),
                        new HealthInsight.Remediation(reference, null)));
    }

    static ResourceRef clusterVersion(String name) {
        return ResourceRef.of(CONFIG_GROUP, "clusterversions", name);
    }

    static ResourceRef clusterOperator(String name) {
        return ResourceRef.of(CONFIG_GROUP, "clusteroperators", name);
    }

    static ResourceRef pool(String name) {
        return ResourceRef.of(MCO_GROUP, "machineconfigpools", name);
    }

    static ResourceRef node(String name) {
        return new ResourceRef(null, "nodes", name, null);
    }
}
