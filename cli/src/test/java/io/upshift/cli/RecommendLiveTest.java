package io.upshift.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.openshift.api.model.config.v1.ClusterVersion;
import io.fabric8.openshift.api.model.config.v1.ClusterVersionBuilder;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code upshift recommend} against a live API server (fabric8's mock in CRUD mode), reading
 * ClusterVersion "version".
 */
@EnableKubernetesMockClient(crud = true)
@Tag("e2e")
class RecommendLiveTest {

    KubernetesClient client;

    @TempDir Path dir;

    @Test
    void readsTheClusterVersionFromTheApi() throws Exception {
        ClusterVersion cv =
                new ClusterVersionBuilder()
                        .withNewMetadata()
                        .withName("version")
                        .endMetadata()
                        .withNewSpec()
                        .withChannel("stable-1.1")
                        .withUpstream("https://updates.example/graph")
                        .withClusterID("0b9c6a2e-6f5a-4c83-9a53-9c1c2f0b7e11")
                        .endSpec()
                        .withNewStatus()
                        .addNewCondition()
                        .withType("Failing")
                        .withStatus("False")
                        .endCondition()
                        .withNewDesired()
                        .withVersion("1.0.0")
                        .withImage("r@sha256:" + "0".repeat(64))
                        .endDesired()
                        .addNewAvailableUpdate()
                        .withVersion("1.0.2")
                        .withImage("r@sha256:" + "2".repeat(64))
                        .withUrl("https://example.com/1.0.2")
                        .endAvailableUpdate()
                        .addNewConditionalUpdate()
                        .withNewRelease()
                        .withVersion("1.1.0")
                        .withImage("r@sha256:" + "3".repeat(64))
                        .endRelease()
                        .addNewRisk()
                        .withName("SlowDisks")
                        .withUrl("https://example.com/slow")
                        .withMessage("Disks may be slow.")
                        .addNewMatchingRule()
                        .withType("Always")
                        .endMatchingRule()
                        .endRisk()
                        .addToConditions(
                                new ConditionBuilder()
                                        .withType("Recommended")
                                        .withStatus("False")
                                        .withReason("SlowDisks")
                                        .withMessage("Disks may be slow. https://example.com/slow")
                                        .build())
                        .endConditionalUpdate()
                        .endStatus()
                        .build();
        client.resources(ClusterVersion.class).resource(cv).create();
        Path file = CliRun.kubeconfig(dir, client.getMasterUrl().toString());
        StringWriter out = new StringWriter(), err = new StringWriter();
        var cl = Upshift.commandLine();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        assertThat(cl.execute("recommend", "--kubeconfig", file.toString()))
                .as(err.toString())
                .isZero();
        assertThat(out.toString())
                // fabric8's mock serves no Route: as oc on a cluster without monitoring
                .startsWith(
                        "Failed to check for at least some preconditions: failed to get alerts"
                                + " from Thanos: ")
                .contains(
                        "Upstream update service: https://updates.example/graph\n"
                                + "Channel: stable-1.1\n")
                .contains("\nUpdates to 1.1:\n\n  Version: 1.1.0\n  Image: r@sha256:3333")
                .contains(
                        "  Reason: SlowDisks\n"
                                + "  Message: Disks may be slow. https://example.com/slow\n")
                .endsWith(
                        "Updates to 1.0:\n"
                                + "  VERSION     ISSUES\n"
                                + "  1.0.2       no known issues relevant to this cluster\n");

        assertThat(cl.execute("recommend", "--kubeconfig", file.toString(), "--version", "1.1.0"))
                .isEqualTo(1);
        assertThat(err.toString())
                .contains(
                        "upshift: issues that apply to this cluster but which were not included in"
                                + " --accept: ConditionalUpdateRisk,FailedToCompletePrecheck");
    }
}
