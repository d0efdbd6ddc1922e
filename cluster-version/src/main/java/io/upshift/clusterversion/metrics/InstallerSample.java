package io.upshift.clusterversion.metrics;

import java.util.Map;

/**
 * {@code cluster_installer}: who installed the cluster, from the ConfigMaps an installer leaves in
 * {@code openshift-config}: {@code openshift-install} (type openshift-install) or else {@code
 * openshift-install-manifests} (type other), each with the version and invoker it records.
 */
public final class InstallerSample {

    public static final String NAMESPACE = "openshift-config";
    public static final String INSTALLER = "openshift-install";
    public static final String MANIFESTS = "openshift-install-manifests";
    private static final String MISSING = "<missing>";

    private InstallerSample() {}

    /**
     * The row for the data of the two ConfigMaps (null where one does not exist); with neither, a
     * row of empty labels says the installer is unknown.
     */
    public static Sample of(Map<String, String> installer, Map<String, String> manifests) {
        if (installer != null) return row("openshift-install", installer);
        if (manifests != null) return row("other", manifests);
        return Sample.of(Gauges.INSTALLER.name(), 1, "type", "", "version", "", "invoker", "");
    }

    private static Sample row(String type, Map<String, String> data) {
        return Sample.of(
                Gauges.INSTALLER.name(),
                1,
                "type",
                type,
                "version",
                data.getOrDefault("version", MISSING),
                "invoker",
                data.getOrDefault("invoker", MISSING));
    }
}
