package io.upshift.clusterversion.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.JobStatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.openshift.api.model.config.v1.ClusterVersion;
import io.fabric8.openshift.api.model.config.v1.ClusterVersionBuilder;
import io.upshift.releases.metadata.ReleaseException;
import io.upshift.releases.payload.PayloadCache;
import io.upshift.testkit.EmbeddedApiServer;
import io.upshift.testkit.Faults;
import io.upshift.testkit.SimulatedCluster;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Payload retrieval through a Job on the embedded API server, the test playing the Job controller
 * and the kubelet: the Job's steps (the release image's own tools), success seen within seconds
 * whatever the controller's watches do, an image the runtime cannot pull, a step that fails, a Job
 * that never completes, and the pruning of old Jobs and of the payload directories of releases no
 * longer in use.
 */
@Tag("e2e")
class PayloadJobsTest {

    private static final String IMAGE = "registry.example/upshift/release@sha256:" + "b".repeat(64);
    private static final String RUNNING =
            "registry.example/upshift/release@sha256:" + "a".repeat(64);
    private static final String EARLIER =
            "registry.example/upshift/release@sha256:" + "c".repeat(64);

    /** The controller's client: the one the faults are for. */
    private static final String CONTROLLER = "payload-jobs-test";

    @TempDir Path dir;

    private Job awaitJob(KubernetesClient client, String name) {
        return await().atMost(Duration.ofSeconds(60))
                .until(
                        () ->
                                client.batch()
                                        .v1()
                                        .jobs()
                                        .inNamespace("openshift-cluster-version")
                                        .withName(name)
                                        .get(),
                        j -> j != null);
    }

    private static CompletableFuture<Object> retrieving(PayloadJobs jobs, String version) {
        return CompletableFuture.supplyAsync(
                () -> {
                    try {
                        return jobs.retrieve(IMAGE, version);
                    } catch (ReleaseException e) {
                        return e;
                    }
                });
    }

    /**
     * What the Job's steps leave in the host directory, written as the kubelet's containers would.
     */
    private static void copied(Path target) throws Exception {
        Files.createDirectories(target.resolve("manifests"));
        Files.createDirectories(target.resolve("release-manifests"));
        Files.writeString(target.resolve("release-manifests/release-metadata"), "{}");
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (var walk = Files.walk(from)) {
            for (Path p : walk.sorted().toList())
                Files.copy(p, to.resolve(from.relativize(p).toString()));
        }
    }

    private static void succeed(KubernetesClient client, String name) {
        client.batch()
                .v1()
                .jobs()
                .inNamespace("openshift-cluster-version")
                .withName(name)
                .editStatus(
                        j -> {
                            j.setStatus(new JobStatusBuilder().withSucceeded(1).build());
                            return j;
                        });
    }

    @Test
    void
            theJobRunsTheReleaseImagesOwnToolsToCopyItsPayloadThroughAPartialDirectoryRenamedIntoPlace()
                    throws Exception {
        try (EmbeddedApiServer server = new EmbeddedApiServer();
                KubernetesClient client = server.client()) {
            client.batch()
                    .v1()
                    .jobs()
                    .inNamespace("openshift-cluster-version")
                    .resource(
                            new JobBuilder()
                                    .withNewMetadata()
                                    .withName("version-4.1.0-0123456789")
                                    .addToLabels(PayloadJobs.LABEL, "true")
                                    .endMetadata()
                                    .build())
                    .create();
            Path payloads = dir.resolve("payloads");
            PayloadJobs jobs =
                    new PayloadJobs(
                            client,
                            "openshift-cluster-version",
                            "master-0",
                            payloads,
                            Duration.ofSeconds(20),
                            null);
            CompletableFuture<Object> retrieved = retrieving(jobs, "4.1.1");
            String hash = PayloadJobs.hash(IMAGE);
            String name = "version-4.1.1-" + hash;
            Job job = awaitJob(client, name);
            var pod = job.getSpec().getTemplate().getSpec();
            assertThat(pod.getNodeName()).isEqualTo("master-0");
            assertThat(pod.getRestartPolicy()).isEqualTo("Never");
            assertThat(pod.getSecurityContext().getRunAsUser()).isZero();
            assertThat(job.getSpec().getTemplate().getMetadata().getAnnotations())
                    .containsEntry("openshift.io/required-scc", "privileged");
            assertThat(pod.getVolumes().get(0).getHostPath().getPath())
                    .isEqualTo(payloads.toString());
            assertThat(job.getSpec().getActiveDeadlineSeconds()).isEqualTo(20L);
            // upstream's steps, each the release image running one of its own tools with the host
            // directory
            assertThat(pod.getInitContainers())
                    .extracting(Container::getName)
                    .containsExactly(
                            "cleanup",
                            "make-temporary-directory",
                            "copy-operator-manifests-to-temporary-directory",
                            "copy-release-manifests-to-temporary-directory");
            assertThat(pod.getContainers())
                    .extracting(Container::getName)
                    .containsExactly("rename-to-final-location");
            String tmp = pod.getInitContainers().get(1).getCommand().get(1);
            assertThat(tmp)
                    .matches(Pattern.quote(payloads.resolve(hash) + ".partial-") + "[a-z0-9]{5}");
            assertThat(pod.getInitContainers().get(0).getCommand())
                    .containsExactly("rm", "-fR", tmp);
            assertThat(pod.getInitContainers().get(1).getCommand()).containsExactly("mkdir", tmp);
            assertThat(pod.getInitContainers().get(2).getCommand())
                    .containsExactly("cp", "-r", "/manifests", tmp + "/manifests");
            assertThat(pod.getInitContainers().get(3).getCommand())
                    .containsExactly("cp", "-r", "/release-manifests", tmp + "/release-manifests");
            assertThat(pod.getContainers().get(0).getCommand())
                    .containsExactly("mv", tmp, payloads.resolve(hash).toString());
            for (Container c : pod.getInitContainers()) {
                assertThat(c.getImage()).isEqualTo(IMAGE);
                assertThat(c.getArgs()).isEmpty();
                assertThat(c.getVolumeMounts().get(0).getMountPath())
                        .isEqualTo(payloads.toString());
                assertThat(c.getSecurityContext().getPrivileged()).isTrue();
                assertThat(c.getSecurityContext().getReadOnlyRootFilesystem()).isTrue();
            }
            // the earlier retrieval's Job is gone
            assertThat(
                            client.batch()
                                    .v1()
                                    .jobs()
                                    .inNamespace("openshift-cluster-version")
                                    .withName("version-4.1.0-0123456789")
                                    .get())
                    .isNull();

            // the kubelet runs it: the payload lands in the shared directory, the Job succeeds
            Path target = payloads.resolve(hash);
            copied(target);
            succeed(client, name);
            assertThat(retrieved.get()).isEqualTo(target);
            // a second retrieval of the same image finds it there: no Job
            client.batch()
                    .v1()
                    .jobs()
                    .inNamespace("openshift-cluster-version")
                    .withName(name)
                    .delete();
            assertThat(jobs.retrieve(IMAGE, "4.1.1")).isEqualTo(target);
            assertThat(
                            client.batch()
                                    .v1()
                                    .jobs()
                                    .inNamespace("openshift-cluster-version")
                                    .list()
                                    .getItems())
                    .isEmpty();
        }
    }

    @ParameterizedTest
    @EnumSource(
            value = Faults.Watches.class,
            names = {"REFUSED", "DEAD", "EXPIRED"})
    void theJobsSuccessIsSeenWithinSecondsWhateverTheWatchesDo(Faults.Watches watches)
            throws Exception {
        try (EmbeddedApiServer server = new EmbeddedApiServer();
                KubernetesClient kubelet = server.client();
                KubernetesClient controller = server.client(CONTROLLER)) {
            server.dispatcher().faults(Faults.share(CONTROLLER, 0, 1).watches(watches));
            Path payloads = dir.resolve("payloads");
            // the Job may take a minute: what is measured is how soon its success is seen, far
            // sooner
            PayloadJobs jobs =
                    new PayloadJobs(
                            controller,
                            "openshift-cluster-version",
                            "master-0",
                            payloads,
                            Duration.ofSeconds(60),
                            null);
            CompletableFuture<Object> retrieved = retrieving(jobs, "4.1.1");
            String name = "version-4.1.1-" + PayloadJobs.hash(IMAGE);
            awaitJob(kubelet, name);
            copied(payloads.resolve(PayloadJobs.hash(IMAGE)));
            succeed(kubelet, name);
            await().atMost(Duration.ofSeconds(60)).until(retrieved::isDone);
            assertThat(retrieved.get()).isEqualTo(payloads.resolve(PayloadJobs.hash(IMAGE)));
        }
    }

    @Test
    void anImageTheRuntimeCannotPullFailsAtOnceWithTheRuntimesReasonAndTheNextAttemptStartsANewJob()
            throws Exception {
        try (EmbeddedApiServer server = new EmbeddedApiServer();
                KubernetesClient client = server.client()) {
            PayloadJobs jobs =
                    new PayloadJobs(
                            client,
                            "openshift-cluster-version",
                            "master-0",
                            dir.resolve("payloads"),
                            Duration.ofSeconds(60),
                            null);
            CompletableFuture<Object> failed = retrieving(jobs, "");
            String name = "version-" + PayloadJobs.hash(IMAGE);
            awaitJob(client, name);
            // the first init container is the first to need the image: the runtime says so there
            client.pods()
                    .inNamespace("openshift-cluster-version")
                    .resource(
                            new PodBuilder()
                                    .withNewMetadata()
                                    .withName(name + "-x7k2p")
                                    .addToLabels("job-name", name)
                                    .endMetadata()
                                    .withNewStatus()
                                    .withPhase("Pending")
                                    .addNewInitContainerStatus()
                                    .withName("cleanup")
                                    .withNewState()
                                    .withNewWaiting()
                                    .withReason("ErrImagePull")
                                    .withMessage(
                                            "reading manifest sha256:bbbb in"
                                                    + " registry.example/upshift/release: manifest"
                                                    + " unknown")
                                    .endWaiting()
                                    .endState()
                                    .endInitContainerStatus()
                                    .addNewContainerStatus()
                                    .withName("rename-to-final-location")
                                    .withNewState()
                                    .withNewWaiting()
                                    .withReason("PodInitializing")
                                    .endWaiting()
                                    .endState()
                                    .endContainerStatus()
                                    .endStatus()
                                    .build())
                    .create();
            Object e = failed.get();
            assertThat(e).isInstanceOf(ReleaseException.class);
            assertThat(((Exception) e).getMessage())
                    .contains(
                            "payload-retrieval Job openshift-cluster-version/"
                                    + name
                                    + " failed: its pod "
                                    + name
                                    + "-x7k2p cannot pull the release image: ErrImagePull: reading"
                                    + " manifest sha256:bbbb in registry.example/upshift/release:"
                                    + " manifest unknown");
            assertThat(
                            client.batch()
                                    .v1()
                                    .jobs()
                                    .inNamespace("openshift-cluster-version")
                                    .withName(name)
                                    .get())
                    .as("deleted for the next attempt")
                    .isNull();
        }
    }

    @Test
    void aStepThatFailsFailsTheRetrievalWithWhatItSaid() throws Exception {
        try (EmbeddedApiServer server = new EmbeddedApiServer();
                KubernetesClient client = server.client()) {
            PayloadJobs jobs =
                    new PayloadJobs(
                            client,
                            "openshift-cluster-version",
                            "master-0",
                            dir.resolve("payloads"),
                            Duration.ofSeconds(60),
                            null);
            String name = "version-4.1.1-" + PayloadJobs.hash(IMAGE);
            // a Job of that name that failed before (an earlier leader's) is replaced, not waited
            // on
            client.batch()
                    .v1()
                    .jobs()
                    .inNamespace("openshift-cluster-version")
                    .resource(
                            new JobBuilder()
                                    .withNewMetadata()
                                    .withName(name)
                                    .addToLabels(PayloadJobs.LABEL, "true")
                                    .withUid("earlier")
                                    .endMetadata()
                                    .build())
                    .create();
            client.batch()
                    .v1()
                    .jobs()
                    .inNamespace("openshift-cluster-version")
                    .withName(name)
                    .editStatus(
                            j -> {
                                j.setStatus(
                                        new JobStatusBuilder()
                                                .addNewCondition()
                                                .withType("Failed")
                                                .withStatus("True")
                                                .withReason("DeadlineExceeded")
                                                .endCondition()
                                                .build());
                                return j;
                            });
            CompletableFuture<Object> failed = retrieving(jobs, "4.1.1");
            Job job =
                    await().atMost(Duration.ofSeconds(60))
                            .until(
                                    () ->
                                            client.batch()
                                                    .v1()
                                                    .jobs()
                                                    .inNamespace("openshift-cluster-version")
                                                    .withName(name)
                                                    .get(),
                                    j ->
                                            j != null
                                                    && j.getSpec() != null
                                                    && j.getSpec().getTemplate() != null);
            client.pods()
                    .inNamespace("openshift-cluster-version")
                    .resource(
                            new PodBuilder()
                                    .withNewMetadata()
                                    .withName(name + "-q4w9z")
                                    .addToLabels("job-name", name)
                                    .endMetadata()
                                    .withNewStatus()
                                    .withPhase("Failed")
                                    .addNewInitContainerStatus()
                                    .withName("cleanup")
                                    .withNewState()
                                    .withNewTerminated()
                                    .withExitCode(0)
                                    .withReason("Completed")
                                    .endTerminated()
                                    .endState()
                                    .endInitContainerStatus()
                                    .addNewInitContainerStatus()
                                    .withName("make-temporary-directory")
                                    .withNewState()
                                    .withNewTerminated()
                                    .withExitCode(1)
                                    .withReason("Error")
                                    .withMessage(
                                            "mkdir: cannot create directory '/x': Read-only file"
                                                    + " system\n")
                                    .endTerminated()
                                    .endState()
                                    .endInitContainerStatus()
                                    .endStatus()
                                    .build())
                    .create();
            client.batch()
                    .v1()
                    .jobs()
                    .inNamespace("openshift-cluster-version")
                    .withName(name)
                    .editStatus(
                            j -> {
                                j.setStatus(
                                        new JobStatusBuilder()
                                                .withFailed(1)
                                                .addNewCondition()
                                                .withType("Failed")
                                                .withStatus("True")
                                                .withReason("BackoffLimitExceeded")
                                                .withMessage(
                                                        "Job has reached the specified backoff"
                                                                + " limit")
                                                .endCondition()
                                                .build());
                                return j;
                            });
            Object e = failed.get();
            assertThat(e).isInstanceOf(ReleaseException.class);
            assertThat(((Exception) e).getMessage())
                    .isEqualTo(
                            "payload-retrieval Job openshift-cluster-version/"
                                    + name
                                    + " failed: BackoffLimitExceeded: Job has reached the "
                                    + "specified backoff limit; pod "
                                    + name
                                    + "-q4w9z container make-temporary-directory exited 1: mkdir:"
                                    + " cannot create directory '/x': Read-only file system");
            assertThat(job.getMetadata().getUid()).isNotEqualTo("earlier");
        }
    }

    @Test
    void theSimulatedKubeletRunsTheJobAsWrittenAndThePayloadLandsWhole() throws Exception {
        Path image = dir.resolve("image");
        copied(image);
        Files.writeString(image.resolve("manifests/0000_00_namespace.yaml"), "kind: Namespace\n");
        try (EmbeddedApiServer server = new EmbeddedApiServer();
                KubernetesClient client = server.client(CONTROLLER);
                SimulatedCluster cluster =
                        new SimulatedCluster(
                                        server.client(),
                                        Duration.ofMillis(10),
                                        1,
                                        Clock.systemUTC(),
                                        i -> {})
                                .runsPayloadJobs(
                                        (pullspec, to) -> {
                                            if (!pullspec.equals(IMAGE))
                                                throw new IOException("manifest unknown");
                                            copyTree(image, to);
                                        })
                                .start()) {
            Path payloads = dir.resolve("payloads");
            PayloadJobs jobs =
                    new PayloadJobs(
                            client,
                            "openshift-cluster-version",
                            "master-0",
                            payloads,
                            Duration.ofSeconds(60),
                            null);
            Path target = jobs.retrieve(IMAGE, "4.1.1");
            assertThat(target).isEqualTo(payloads.resolve(PayloadJobs.hash(IMAGE)));
            assertThat(Files.readString(target.resolve("manifests/0000_00_namespace.yaml")))
                    .isEqualTo("kind: Namespace\n");
            try (var entries = Files.list(payloads)) {
                assertThat(entries.map(p -> p.getFileName().toString()))
                        .as("no partial copy left")
                        .containsExactly(PayloadJobs.hash(IMAGE));
            }
            assertThatThrownBy(() -> jobs.retrieve(RUNNING, "4.1.0"))
                    .isInstanceOf(ReleaseException.class)
                    .hasMessageContaining(
                            "cannot pull the release image: ErrImagePull: "
                                    + RUNNING
                                    + ": manifest unknown");
        }
    }

    @Test
    void aJobThatNeverCompletesTimesOutSayingSo() throws Exception {
        try (EmbeddedApiServer server = new EmbeddedApiServer();
                KubernetesClient client = server.client()) {
            PayloadJobs jobs =
                    new PayloadJobs(
                            client,
                            "openshift-cluster-version",
                            "master-0",
                            dir.resolve("payloads"),
                            Duration.ofSeconds(1),
                            null);
            assertThatThrownBy(() -> jobs.retrieve(IMAGE, "4.1.1"))
                    .isInstanceOf(ReleaseException.class)
                    .hasMessageContaining(
                            "payload-retrieval Job openshift-cluster-version/version-4.1.1-"
                                    + PayloadJobs.hash(IMAGE)
                                    + " did not complete in 1 s (no pod was started)");
        }
    }

    @Test
    void theJobRemovesThePayloadsOfReleasesNeitherRunningNorDesiredAndPartialCopiesAndNothingElse()
            throws Exception {
        try (EmbeddedApiServer server = new EmbeddedApiServer();
                KubernetesClient client = server.client()) {
            // the cluster runs RUNNING (completed) and works towards IMAGE; EARLIER ran before
            client.resources(ClusterVersion.class)
                    .resource(
                            new ClusterVersionBuilder()
                                    .withNewMetadata()
                                    .withName("version")
                                    .endMetadata()
                                    .withNewSpec()
                                    .withClusterID("c")
                                    .endSpec()
                                    .build())
                    .create();
            client.resources(ClusterVersion.class)
                    .withName("version")
                    .editStatus(
                            cv ->
                                    new ClusterVersionBuilder(cv)
                                            .withNewStatus()
                                            .withNewDesired()
                                            .withImage(IMAGE)
                                            .withVersion("4.1.1")
                                            .endDesired()
                                            .addNewHistory()
                                            .withState("Partial")
                                            .withImage(IMAGE)
                                            .withVersion("4.1.1")
                                            .withStartedTime("2024-01-01T00:00:00Z")
                                            .endHistory()
                                            .addNewHistory()
                                            .withState("Completed")
                                            .withImage(RUNNING)
                                            .withVersion("4.1.0")
                                            .withStartedTime("2023-01-01T00:00:00Z")
                                            .endHistory()
                                            .addNewHistory()
                                            .withState("Completed")
                                            .withImage(EARLIER)
                                            .withVersion("4.0.0")
                                            .withStartedTime("2022-01-01T00:00:00Z")
                                            .endHistory()
                                            .endStatus()
                                            .build());
            Path payloads = dir.resolve("payloads");
            String running = PayloadCache.hash(RUNNING), earlier = PayloadCache.hash(EARLIER);
            copied(payloads.resolve(running));
            copied(payloads.resolve(earlier));
            Files.createDirectories(payloads.resolve(running + ".partial-1234"));
            Files.createDirectories(payloads.resolve("lost+found"));
            PayloadJobs jobs =
                    new PayloadJobs(
                            client,
                            "openshift-cluster-version",
                            "master-0",
                            payloads,
                            Duration.ofSeconds(20),
                            null);
            CompletableFuture<Object> retrieved = retrieving(jobs, "4.1.1");
            String name = "version-4.1.1-" + PayloadJobs.hash(IMAGE);
            Job job = awaitJob(client, name);
            List<String> cleanup =
                    job.getSpec().getTemplate().getSpec().getInitContainers().get(0).getCommand();
            assertThat(cleanup.subList(3, cleanup.size()))
                    .containsExactlyInAnyOrder(
                            payloads.resolve(earlier).toString(),
                            payloads.resolve(running + ".partial-1234").toString());
            copied(payloads.resolve(PayloadJobs.hash(IMAGE)));
            succeed(client, name);
            assertThat(retrieved.get()).isEqualTo(payloads.resolve(PayloadJobs.hash(IMAGE)));
        }
    }

    @Test
    void theControllersOwnReleaseIsReadFromItsOwnImageWithoutAJob() throws Exception {
        try (EmbeddedApiServer server = new EmbeddedApiServer();
                KubernetesClient client = server.client()) {
            Path root = dir.resolve("image-root");
            copied(root);
            PayloadJobs jobs =
                    new PayloadJobs(
                            client,
                            "openshift-cluster-version",
                            "master-0",
                            dir.resolve("payloads"),
                            Duration.ofSeconds(1),
                            new PayloadJobs.OwnPayload(IMAGE, root));
            assertThat(jobs.retrieve(IMAGE, "4.1.0")).isEqualTo(root);
            assertThat(
                            client.batch()
                                    .v1()
                                    .jobs()
                                    .inNamespace("openshift-cluster-version")
                                    .list()
                                    .getItems())
                    .isEmpty();
        }
    }

    @Test
    void namesFitKubernetes() {
        assertThat(PayloadJobs.name("4.19.0-rc.3", "0a1b2c3d4e"))
                .isEqualTo("version-4.19.0-rc.3-0a1b2c3d4e");
        assertThat(PayloadJobs.name("", "0a1b2c3d4e")).isEqualTo("version-0a1b2c3d4e");
        assertThat(PayloadJobs.name("1.0.0+Build_7", "0a1b2c3d4e"))
                .isEqualTo("version-1.0.0-build-7-0a1b2c3d4e");
        assertThat(PayloadJobs.name("1.0.0-" + "x".repeat(80), "0a1b2c3d4e"))
                .hasSize(63)
                .endsWith("x-0a1b2c3d4e");
        assertThat(PayloadJobs.name("1.0.0-" + "x".repeat(39) + ".yyyy", "0a1b2c3d4e"))
                .doesNotContain(".-")
                .endsWith("x-0a1b2c3d4e");
    }
}
