package io.upshift.pools.model;

import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfig;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigBuilder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;

/**
 * The smallest MachineConfig that changes a node: one file, mode 0644, its text carried as a base64
 * data URL (Ignition 3.2.0), for a pool's role. The demo's config change, tests and benchmarks make
 * their configs with it.
 */
public final class OneFileConfig {
    private OneFileConfig() {}

    /** {@code name}, labelled for {@code role}, writing {@code text} to {@code path}. */
    public static MachineConfig of(String name, String role, String path, String text) {
        Map<String, Object> file =
                Map.of(
                        "path",
                        path,
                        "mode",
                        420, // 0644
                        "contents",
                        Map.of(
                                "source",
                                "data:;base64,"
                                        + Base64.getEncoder()
                                                .encodeToString(
                                                        text.getBytes(StandardCharsets.UTF_8))));
        return new MachineConfigBuilder()
                .withNewMetadata()
                .withName(name)
                .addToLabels("machineconfiguration.openshift.io/role", role)
                .endMetadata()
                .withNewSpec()
                .withConfig(
                        Map.of(
                                "ignition",
                                Map.of("version", "3.2.0"),
                                "storage",
                                Map.of("files", List.of(file))))
                .endSpec()
                .build();
    }

    /** As {@link #of}, for nodes booting {@code osImageURL}. */
    public static MachineConfig of(
            String name, String role, String path, String text, String osImageURL) {
        MachineConfig config = of(name, role, path, text);
        config.getSpec().setOsImageURL(osImageURL);
        return config;
    }
}
