package io.upshift.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The simulated kubelet's run of a pod: containers in order on the image's root and the pod's
 * hostPath volumes.
 */
class JobPodRunTest {

    @TempDir Path dir;
    private Path image;
    private Path host;

    @BeforeEach
    void layout() throws Exception {
        image = dir.resolve("rootfs");
        Files.createDirectories(image.resolve("manifests"));
        Files.writeString(image.resolve("manifests/0000_00_deployment.yaml"), "kind: Deployment\n");
        Files.createDirectories(image.resolve("release-manifests"));
        Files.writeString(image.resolve("release-manifests/release-metadata"), "{}");
        host = dir.resolve("node/var/lib/payloads");
        Files.createDirectories(host);
    }

    /**
     * A pod of these steps, each container mounting the host directory at /payloads, the root
     * read-only.
     */
    private static PodSpec pod(List<List<String>> init, List<String> main) {
        PodSpecBuilder b =
                new PodSpecBuilder()
                        .addNewVolume()
                        .withName("payloads")
                        .withNewHostPath()
                        .withPath("HOST")
                        .endHostPath()
                        .endVolume();
        int i = 0;
        for (List<String> c : init) b.addToInitContainers(container("step-" + i++, c));
        return b.addToContainers(container("last", main)).build();
    }

    private static Container container(String name, List<String> command) {
        return new ContainerBuilder()
                .withName(name)
                .withImage("release")
                .withCommand(command)
                .addNewVolumeMount()
                .withName("payloads")
                .withMountPath("/payloads")
                .endVolumeMount()
                .withNewSecurityContext()
                .withReadOnlyRootFilesystem(true)
                .endSecurityContext()
                .build();
    }

    private JobPodRun.Result run(PodSpec spec) {
        spec.getVolumes().get(0).getHostPath().setPath(host.toString());
        return new JobPodRun(spec, image).run();
    }

    private static String message(ContainerStatus s) {
        return s.getState().getTerminated().getMessage();
    }

    @Test
    void theRetrievalStepsCopyThePayloadFromTheImagesRootIntoTheHostDirectory() throws Exception {
        Files.createDirectories(
                host.resolve(
                        "0123456789.partial-abcde/manifests")); // an earlier pod's partial copy
        Files.createDirectories(host.resolve("9876543210/manifests")); // a stale release
        Files.createDirectories(host.resolve("1111111111/manifests")); // one in use
        JobPodRun.Result r =
                run(
                        pod(
                                List.of(
                                        List.of(
                                                "rm",
                                                "-fR",
                                                "/payloads/0123456789.partial-abcde",
                                                "/payloads/9876543210"),
                                        List.of("mkdir", "/payloads/0123456789.partial-abcde"),
                                        List.of(
                                                "cp",
                                                "-r",
                                                "/manifests",
                                                "/payloads/0123456789.partial-abcde/manifests"),
                                        List.of(
                                                "cp",
                                                "-r",
                                                "/release-manifests",
                                                "/payloads/0123456789.partial-abcde/release-manifests")),
                                List.of(
                                        "mv",
                                        "/payloads/0123456789.partial-abcde",
                                        "/payloads/0123456789")));
        assertThat(r.succeeded()).isTrue();
        assertThat(r.initContainers())
                .allSatisfy(s -> assertThat(s.getState().getTerminated().getExitCode()).isZero());
        assertThat(Files.readString(host.resolve("0123456789/manifests/0000_00_deployment.yaml")))
                .isEqualTo("kind: Deployment\n");
        assertThat(host.resolve("0123456789/release-manifests/release-metadata")).exists();
        try (var entries = Files.list(host)) {
            assertThat(entries.map(p -> p.getFileName().toString()))
                    .containsExactlyInAnyOrder("0123456789", "1111111111");
        }
        assertThat(image.resolve("manifests")).as("copied, not moved").isDirectory();
    }

    @Test
    void aStepThatFailsEndsThePodWithWhatItSaidAndTheNextStepsNeverRun() {
        JobPodRun.Result r =
                run(
                        pod(
                                List.of(List.of("mv", "/manifests", "/payloads/x")),
                                List.of("mkdir", "/payloads/never")));
        assertThat(r.succeeded()).isFalse();
        assertThat(r.initContainers().get(0).getState().getTerminated().getExitCode()).isEqualTo(1);
        // a move across file systems copies, then cannot remove its source from the read-only root
        assertThat(message(r.initContainers().get(0)))
                .isEqualTo("mv: cannot remove '/manifests': Read-only file system\n");
        assertThat(r.containers().get(0).getState().getWaiting().getReason())
                .isEqualTo("PodInitializing");
        assertThat(host.resolve("never")).doesNotExist();

        r = run(pod(List.of(), List.of("mkdir", "/tmp")));
        assertThat(message(r.containers().get(0)))
                .isEqualTo("mkdir: cannot create directory '/tmp': Read-only file system\n");
        r = run(pod(List.of(), List.of("mkdir", "/payloads/a/b")));
        assertThat(message(r.containers().get(0)))
                .isEqualTo(
                        "mkdir: cannot create directory '/payloads/a/b': No such file or"
                                + " directory\n");
        r = run(pod(List.of(), List.of("cp", "-r", "/nothing", "/payloads/a")));
        assertThat(message(r.containers().get(0)))
                .isEqualTo("cp: cannot stat '/nothing': No such file or directory\n");
    }

    @Test
    void aCommandTheSimulationDoesNotRunFailsSayingSo() {
        JobPodRun.Result r = run(pod(List.of(), List.of("sh", "-c", "rm -fR ./*")));
        assertThat(r.succeeded()).isFalse();
        assertThat(r.containers().get(0).getState().getTerminated().getExitCode()).isEqualTo(127);
        assertThat(message(r.containers().get(0)))
                .contains(
                        "the simulated kubelet runs rm, mkdir, cp and mv only, not sh -c rm -fR"
                                + " ./*");
        PodSpec entryPoint = pod(List.of(), List.of());
        entryPoint.getContainers().get(0).setCommand(null);
        entryPoint
                .getContainers()
                .get(0)
                .setArgs(List.of("release", "copy-payload", "--to", "/payloads/x"));
        assertThat(message(run(entryPoint).containers().get(0)))
                .contains("cannot run the image's entry point");
    }

    @Test
    void aMoveOntoAnExistingDirectoryGoesInsideItAsMvDoes() throws Exception {
        Files.createDirectories(host.resolve("target"));
        Files.createDirectories(host.resolve("tmp/manifests"));
        assertThat(
                        run(pod(List.of(), List.of("mv", "/payloads/tmp", "/payloads/target")))
                                .succeeded())
                .isTrue();
        assertThat(host.resolve("target/tmp/manifests")).isDirectory();
    }
}
