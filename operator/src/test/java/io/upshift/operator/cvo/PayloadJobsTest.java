package io.upshift.operator.cvo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.JobStatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.upshift.core.release.ReleaseException;
import io.upshift.testkit.EmbeddedApiServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Payload retrieval through a Job on the embedded API server, the test playing the Job controller and the kubelet:
 * the Job's spec, success, an image the runtime cannot pull, a Job that never completes, and the pruning of old Jobs.
 */
class PayloadJobsTest {

    private static final String IMAGE = "registry.example/upshift/release@sha256:" + "b".repeat(64);

    @TempDir
    Path dir;

    private Job awaitJob(KubernetesClient client, String name) {
        return await().atMost(Duration.ofSeconds(10)).until(() -> client.batch().v1().jobs().inNamespace("upshift").withName(name).get(), j -> j != null);
    }

    @Test
    void aJobOnTheControllersNodeRunsTheReleaseImageToCopyItsPayloadIntoTheSharedDirectory() throws Exception {
        try (EmbeddedApiServer server = new EmbeddedApiServer(); KubernetesClient client = server.client()) {
            client.batch().v1().jobs().inNamespace("upshift").resource(new JobBuilder().withNewMetadata().withName("version-4.1.0-0123456789")
                    .addToLabels(PayloadJobs.LABEL, "true").endMetadata().build()).create();
            PayloadJobs jobs = new PayloadJobs(client, "upshift", "master-0", dir.resolve("payloads"), Duration.ofSeconds(20), null);
            CompletableFuture<Path> retrieved = CompletableFuture.supplyAsync(() -> {
                try {
                    return jobs.retrieve(IMAGE, "4.1.1");
                } catch (ReleaseException e) {
                    throw new RuntimeException(e);
                }
            });
            String name = "version-4.1.1-" + PayloadJobs.hash(IMAGE);
            Job job = awaitJob(client, name);
            var pod = job.getSpec().getTemplate().getSpec();
            assertThat(pod.getNodeName()).isEqualTo("master-0");
            assertThat(pod.getContainers().get(0).getImage()).isEqualTo(IMAGE);
            Path target = dir.resolve("payloads").resolve(PayloadJobs.hash(IMAGE));
            assertThat(pod.getContainers().get(0).getArgs()).containsExactly("release", "copy-payload", "--to", target.toString());
            assertThat(pod.getVolumes().get(0).getHostPath().getPath()).isEqualTo(dir.resolve("payloads").toString());
            assertThat(pod.getContainers().get(0).getVolumeMounts().get(0).getMountPath()).isEqualTo(dir.resolve("payloads").toString());
            assertThat(job.getSpec().getActiveDeadlineSeconds()).isEqualTo(20L);
            // the earlier retrieval's Job is gone
            assertThat(client.batch().v1().jobs().inNamespace("upshift").withName("version-4.1.0-0123456789").get()).isNull();

            // the kubelet runs it: the payload lands in the shared directory, the Job succeeds
            Files.createDirectories(target.resolve("manifests"));
            Files.createDirectories(target.resolve("release-manifests"));
            Files.writeString(target.resolve("release-manifests/release-metadata"), "{}");
            client.batch().v1().jobs().inNamespace("upshift").withName(name).editStatus(j -> {
                j.setStatus(new JobStatusBuilder().withSucceeded(1).build());
                return j;
            });
            assertThat(retrieved.get()).isEqualTo(target);
            // a second retrieval of the same image finds it there: no Job
            client.batch().v1().jobs().inNamespace("upshift").withName(name).delete();
            assertThat(jobs.retrieve(IMAGE, "4.1.1")).isEqualTo(target);
            assertThat(client.batch().v1().jobs().inNamespace("upshift").list().getItems()).isEmpty();
        }
    }

    @Test
    void anImageTheRuntimeCannotPullFailsAtOnceWithTheRuntimesReason() throws Exception {
        try (EmbeddedApiServer server = new EmbeddedApiServer(); KubernetesClient client = server.client()) {
            PayloadJobs jobs = new PayloadJobs(client, "upshift", "master-0", dir.resolve("payloads"), Duration.ofSeconds(60), null);
            CompletableFuture<Throwable> failed = CompletableFuture.supplyAsync(() -> {
                try {
                    jobs.retrieve(IMAGE, "");
                    return null;
                } catch (ReleaseException e) {
                    return e;
                }
            });
            String name = "version-unknown-" + PayloadJobs.hash(IMAGE);
            awaitJob(client, name);
            client.pods().inNamespace("upshift").resource(new PodBuilder().withNewMetadata().withName(name + "-x7k2p").addToLabels("job-name", name).endMetadata()
                    .withNewStatus().withPhase("Pending").addNewContainerStatus().withName("payload").withNewState().withNewWaiting()
                    .withReason("ErrImagePull").withMessage("reading manifest sha256:bbbb in registry.example/upshift/release: manifest unknown")
                    .endWaiting().endState().endContainerStatus().endStatus().build()).create();
            Throwable e = failed.get();
            assertThat(e).isInstanceOf(ReleaseException.class);
            assertThat(e.getMessage()).contains("payload-retrieval Job upshift/" + name + " failed: its pod " + name + "-x7k2p cannot pull the release image: "
                    + "ErrImagePull: reading manifest sha256:bbbb in registry.example/upshift/release: manifest unknown");
        }
    }

    @Test
    void aJobThatNeverCompletesTimesOutSayingSo() throws Exception {
        try (EmbeddedApiServer server = new EmbeddedApiServer(); KubernetesClient client = server.client()) {
            PayloadJobs jobs = new PayloadJobs(client, "upshift", "master-0", dir.resolve("payloads"), Duration.ofSeconds(1), null);
            assertThatThrownBy(() -> jobs.retrieve(IMAGE, "4.1.1")).isInstanceOf(ReleaseException.class)
                    .hasMessageContaining("payload-retrieval Job upshift/version-4.1.1-" + PayloadJobs.hash(IMAGE) + " did not complete in 1 s (no pod was started)");
        }
    }

    @Test
    void theControllersOwnReleaseIsReadFromItsOwnImageWithoutAJob() throws Exception {
        try (EmbeddedApiServer server = new EmbeddedApiServer(); KubernetesClient client = server.client()) {
            Path root = dir.resolve("image-root");
            Files.createDirectories(root.resolve("manifests"));
            Files.createDirectories(root.resolve("release-manifests"));
            Files.writeString(root.resolve("release-manifests/release-metadata"), "{}");
            PayloadJobs jobs = new PayloadJobs(client, "upshift", "master-0", dir.resolve("payloads"), Duration.ofSeconds(1),
                    new PayloadJobs.OwnPayload(IMAGE, root));
            assertThat(jobs.retrieve(IMAGE, "4.1.0")).isEqualTo(root);
            assertThat(client.batch().v1().jobs().inNamespace("upshift").list().getItems()).isEmpty();
        }
    }

    @Test
    void namesFitKubernetes() {
        assertThat(PayloadJobs.name("4.19.0-rc.3", "0a1b2c3d4e")).isEqualTo("version-4.19.0-rc.3-0a1b2c3d4e");
        assertThat(PayloadJobs.name("1.0.0+Build_7", "0a1b2c3d4e")).isEqualTo("version-1.0.0-build-7-0a1b2c3d4e");
        assertThat(PayloadJobs.name("1.0.0-" + "x".repeat(80), "0a1b2c3d4e")).hasSize(63).endsWith("x-0a1b2c3d4e");
        assertThat(PayloadJobs.name("1.0.0-" + "x".repeat(39) + ".yyyy", "0a1b2c3d4e")).doesNotContain(".-").endsWith("x-0a1b2c3d4e");
    }
}
