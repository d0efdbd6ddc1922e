package io.upshift.demo;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The demo's own releases, {@value DemoRun#FROM} and {@value DemoRun#TO}: the cluster-version
 * controller's manifests and simulated {@code components} ({@link DemoPayloads}).
 *
 * @param clusterVersionCrds by version, another release's ClusterVersion CRD for that release to
 *     carry instead of Upshift's
 */
record SimulatedPayloads(
        List<DemoPayloads.Component> components, Map<String, Path> clusterVersionCrds)
        implements ReleasePayloads {

    @Override
    public String from() {
        return DemoRun.FROM;
    }

    @Override
    public String to() {
        return DemoRun.TO;
    }

    @Override
    public void write(Path dir, String version, String publicKey, Path store) throws IOException {
        DemoPayloads.write(
                dir, version, components, publicKey, store, clusterVersionCrds.get(version));
    }

    /** None: the simulation reports each component's version once its Deployment rolled out. */
    @Override
    public Map<String, Map<String, String>> declaredOperators(Path dir) {
        return Map.of();
    }
}
