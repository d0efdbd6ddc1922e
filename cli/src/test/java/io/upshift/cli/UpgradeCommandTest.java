package io.upshift.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.openshift.api.model.config.v1.ClusterVersion;
import io.fabric8.openshift.api.model.config.v1.ClusterVersionBuilder;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code upshift upgrade} against an API server: the view, and requests it makes or refuses. */
@EnableKubernetesMockClient(crud = true)
class UpgradeCommandTest {

    KubernetesClient client;

    @TempDir
    Path dir;

    Path kubeconfig;

    CliRun.Result run(String... args) {
        String[] all = java.util.stream.Stream.concat(java.util.Arrays.stream(args), java.util.stream.Stream.of("--kubeconfig", kubeconfig.toString())).toArray(String[]::new);
        return CliRun.run(all);
    }

    @BeforeEach
    void cluster() throws Exception {
        ClusterVersion cv = new ClusterVersionBuilder().withNewMetadata().withName("version").endMetadata()
                .withNewSpec().withClusterID("0b9c6a2e-6f5a-4c83-9a53-9c1c2f0b7e11").withChannel("stable-4.18").endSpec()
                .withNewStatus()
                .addNewCondition().withType("Failing").withStatus("False").endCondition()
                .addNewCondition().withType("Progressing").withStatus("False").withMessage("Cluster version is 4.18.1").endCondition()
                .withNewDesired().withVersion("4.18.1").withImage("r@sha256:" + "1".repeat(64)).withChannels("fast-4.18", "stable-4.18").endDesired()
                .addNewAvailableUpdate().withVersion("4.18.2").withImage("r@sha256:" + "2".repeat(64)).endAvailableUpdate()
                .addNewAvailableUpdate().withVersion("4.18.10").withImage("r@sha256:" + "a".repeat(64)).endAvailableUpdate()
                .addNewConditionalUpdate().withNewRelease().withVersion("4.19.0").withImage("r@sha256:" + "9".repeat(64)).endRelease()
                .addNewRisk().withName("SlowDisks").withUrl("https://example.com/slow").withMessage("Disks may be slow.").addNewMatchingRule().withType("Always").endMatchingRule().endRisk()
                .addToConditions(new ConditionBuilder().withType("Recommended").withStatus("False").withReason("SlowDisks").withMessage("Disks may be slow. https://example.com/slow").build())
                .endConditionalUpdate()
                .endStatus().build();
        client.resources(ClusterVersion.class).resource(cv).create();
        kubeconfig = CliRun.kubeconfig(dir, client.getMasterUrl().toString());
    }

    ClusterVersion cv() {
        return client.resources(ClusterVersion.class).withName("version").get();
    }

    @Test
    void viewListsRecommendedUpdatesNewestFirst() {
        CliRun.Result r = run("upgrade");
        assertThat(r.out()).isEqualTo("Cluster version is 4.18.1\n\nUpstream is unset, so the cluster will use an appropriate default.\n"
                + "Channel: stable-4.18 (available channels: fast-4.18, stable-4.18)\n\nRecommended updates:\n\n"
                + "  VERSION     IMAGE\n  4.18.10     r@sha256:" + "a".repeat(64) + "\n  4.18.2      r@sha256:" + "2".repeat(64) + "\n"
                + "\nAdditional updates which are not recommended for your cluster configuration are available, to view those re-run the command with --include-not-recommended.\n");
        assertThat(run("upgrade", "--include-not-recommended").out()).contains("Updates with known issues:\n\n  Version: 4.19.0\n  Image: r@sha256:9999")
                .contains("  Reason: SlowDisks\n");
    }

    @Test
    void requestsAndRefusals() {
        assertThat(run("upgrade", "--to", "4.18.2").out()).isEqualTo("Requested update to 4.18.2\n");
        assertThat(cv().getSpec().getDesiredUpdate().getImage()).isEqualTo("r@sha256:" + "2".repeat(64));

        CliRun.Result risky = run("upgrade", "--to", "4.19.0");
        assertThat(risky.code()).isEqualTo(2);
        assertThat(risky.err()).contains("the update to 4.19.0 is not recommended (Recommended=False SlowDisks").contains("--allow-not-recommended");
        assertThat(cv().getSpec().getDesiredUpdate().getVersion()).isEqualTo("4.18.2");
        assertThat(run("upgrade", "--to", "4.19.0", "--allow-not-recommended").out()).isEqualTo("Requested update to 4.19.0\n");

        CliRun.Result unknown = run("upgrade", "--to", "4.20.0");
        assertThat(unknown.err()).contains("the update 4.20.0 is not one of the available updates: 4.18.2, 4.18.10");
        CliRun.Result byTag = run("upgrade", "--to-image", "quay.example/release:4.18.3");
        assertThat(byTag.err()).contains("is by tag: only a release named by digest can be verified");
        assertThat(run("upgrade", "--to-latest").out()).isEqualTo("Requested update to 4.18.10\n");
        assertThat(run("upgrade", "--clear").out()).isEqualTo("Cleared the update field, still at 4.18.1\n");
        assertThat(cv().getSpec().getDesiredUpdate()).isNull();
        assertThat(run("upgrade", "--to", "4.18.2", "--clear").err()).contains("only one of --to, --to-image, --to-latest and --clear");
    }
}
