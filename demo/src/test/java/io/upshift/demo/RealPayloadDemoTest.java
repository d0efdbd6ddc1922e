package io.upshift.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.openshift.api.model.config.v1.ClusterOperator;
import io.fabric8.openshift.api.model.config.v1.UpdateHistory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The demo on a real OpenShift 4.19 payload (the shared fixture): the real controller installs it,
 * from a release image built from it, and updates to its next patch, on the embedded API server,
 * each ClusterOperator the payload declares levelled by the simulation.
 */
@Tag("e2e")
class RealPayloadDemoTest {

    private static final Path FIXTURE =
            Path.of(
                    System.getProperty("upshift.fixtures", "../../shared/fixtures"),
                    "openshift-payload-4.19");

    @TempDir Path dir;

    @Test
    void aRealPayloadInstallsAndUpdatesToItsNextPatch() throws Exception {
        Assumptions.assumeTrue(Files.isDirectory(FIXTURE), "shared fixtures not present");
        try (DemoRun demo =
                new DemoRun(
                                new DemoRun.Settings(0, 1, Duration.ofMillis(200), 3, dir)
                                        .withPayload(FIXTURE),
                                l -> {})
                        .start()) {
            assertThat(demo.from()).isEqualTo("4.19.0");
            assertThat(demo.to()).isEqualTo("4.19.1");
            assertThat(demo.admin().await("4.19.0", Duration.ofSeconds(90), () -> {}))
                    .as("install of 4.19.0")
                    .isTrue();
            // the payload's own operator Deployment runs the release image ({{.ReleaseImage}}
            // filled in)
            Deployment cvo =
                    demo.cluster()
                            .client()
                            .apps()
                            .deployments()
                            .inNamespace("openshift-cluster-version")
                            .withName("cluster-version-operator")
                            .get();
            assertThat(cvo.getSpec().getTemplate().getSpec().getContainers().get(0).getImage())
                    .isEqualTo(demo.releaseA());

            demo.requestUpdate();
            assertThat(demo.admin().await("4.19.1", Duration.ofMinutes(2), () -> {}))
                    .as("update to 4.19.1")
                    .isTrue();
            assertThat(demo.admin().clusterVersion().getStatus().getHistory())
                    .extracting(UpdateHistory::getVersion)
                    .containsExactly("4.19.1", "4.19.0");
            assertThat(demo.admin().clusterVersion().getStatus().getHistory())
                    .extracting(UpdateHistory::getVerified)
                    .containsExactly(true, false);
            Map<String, ClusterOperator> operators = new HashMap<>();
            demo.cluster()
                    .client()
                    .resources(ClusterOperator.class)
                    .list()
                    .getItems()
                    .forEach(co -> operators.put(co.getMetadata().getName(), co));
            assertThat(operators)
                    .containsKeys(
                            "etcd",
                            "kube-apiserver",
                            "authentication",
                            "machine-config",
                            "console",
                            "dns");
            assertThat(operators.get("kube-apiserver").getStatus().getVersions())
                    .anySatisfy(
                            v ->
                                    assertThat(v.getName() + "=" + v.getVersion())
                                            .isEqualTo("operator=4.19.1"));
            // the payload's ConfigMaps and Deployments reached the API; nothing asked the server to
            // change an immutable field
            assertThat(
                            demo.cluster()
                                    .client()
                                    .apps()
                                    .deployments()
                                    .inNamespace("openshift-etcd-operator")
                                    .withName("etcd-operator")
                                    .get()
                                    .getSpec()
                                    .getTemplate()
                                    .getSpec()
                                    .getContainers()
                                    .get(0)
                                    .getEnv())
                    .anySatisfy(
                            e ->
                                    assertThat(e.getName() + "=" + e.getValue())
                                            .isEqualTo("OPERATOR_IMAGE_VERSION=4.19.1"));
            assertThat(demo.cluster().server().dispatcher().immutableRefusals()).isEmpty();
        }
    }
}
