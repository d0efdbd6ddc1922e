package io.upshift.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.upshift.api.json.Mappers;
import io.upshift.releases.image.DockerCredentials;
import io.upshift.releases.image.ImageJdk;
import io.upshift.releases.image.ImageRef;
import io.upshift.releases.image.ImageStore;
import io.upshift.releases.image.Releases;
import io.upshift.releases.image.ResolvedImage;
import io.upshift.releases.image.UpshiftImage;
import io.upshift.releases.manifest.ManifestTemplate;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The demo's self-replacement: the controller that takes over runs the code the new release image
 * holds, read out of the image, not this JVM's, with exactly what its Deployment gives it. Here the
 * "Upshift" laid under the release is a small program that says which jar it runs from, with what
 * arguments and environment, and ends at once when asked.
 */
@Tag("e2e")
class ReleaseControllerTest {

    @TempDir static Path dir;
    private static final Releases releases = new Releases(DockerCredentials.none(), false, w -> {});

    /** The release image: built once, jlink taking its time. */
    private static String image;

    @BeforeAll
    static void buildRelease() throws Exception {
        image = release();
    }

    @Test
    void theControllerThatTakesOverIsTheReleasesOwnCodeRunAsItsDeploymentSays() throws Exception {
        Path work = Files.createDirectories(dir.resolve("work-" + System.nanoTime()));
        Deployment d = deployment(image);
        try (ReleaseController controller =
                ReleaseController.start(
                        releases,
                        d,
                        "control-plane-0",
                        work.resolve("hosts/control-plane-0"),
                        work,
                        1,
                        (sa, podDir) -> Map.of("KUBERNETES_MASTER", "http://127.0.0.1:1", "SA", sa),
                        ContainerLaunch.ConfigMaps.NONE,
                        events::add)) {
            String out = output(work.resolve("controller-1.log"), "listening");
            Path payloads = work.resolve("hosts/control-plane-0/var/lib/upshift/payloads");
            int metrics = port(out, 9099), health = port(out, 9098);
            assertThat(out)
                    .contains("running " + work.resolve("controllers"))
                    .contains(
                            "upshift.jar operator --namespace openshift-cluster-version --identity"
                                    + " cluster-version-operator-")
                    .containsPattern(
                            Pattern.quote(
                                            " --metrics-port "
                                                    + metrics
                                                    + " --metrics-auth token --serving-cert-file "
                                                    + work.resolve("pods"))
                                    // the optional Secret's volume, in the pod's own directory
                                    + "/cluster-version-operator-[0-9a-f]+-1/volumes/serving-cert/tls.crt"
                                    + " --serving-key-file \\S+/volumes/serving-cert/tls.key"
                                    + Pattern.quote(
                                            " --serving-cert-optional --health-port "
                                                    + health
                                                    + " --payload-cache "
                                                    + payloads
                                                    + " --always-enable-capabilities=Ingress"
                                                    + " --release "
                                                    + image
                                                    + "\n"))
                    .contains("NODE_NAME=control-plane-0")
                    .contains("KUBERNETES_MASTER=http://127.0.0.1:1")
                    .contains("SA=upshift")
                    .contains("HOME=/tmp")
                    .contains("PATH=/opt/upshift/jre/bin:/usr/sbin:/usr/bin:/sbin:/bin")
                    .contains("USER=null"); // nothing of this machine's environment
            List<String> entrypoint =
                    UpshiftImage.entrypoint(ImageJdk.forImage().makesReproducibleArchive());
            List<String> options = entrypoint.subList(1, entrypoint.size());
            assertThat(out)
                    .containsPattern(
                            // the image's own runtime and entry point, in its working directory,
                            // with the container's memory limit
                            "\\$ cd (\\S+) && \\1/jre/bin/java -XX:MaxRAM=536870912"
                                    + Pattern.quote(" " + String.join(" ", options))
                                    + " operator ");
            assertThat(payloads).isDirectory();
            assertThat(controller.alive()).isTrue();
            assertThat(events).isEmpty();
        }
    }

    /**
     * Two pods of the Deployment at once (this demo's and another's, a test's, one still stopping):
     * each listens on its ports, as in pods of their own network namespaces, where on this
     * machine's 9099 and 9098 the second would fail and crash-loop.
     */
    @Test
    void twoPodsOfTheDeploymentEachListenOnTheirOwnPorts() throws Exception {
        Path work = Files.createDirectories(dir.resolve("work-" + System.nanoTime()));
        Deployment d = deployment(image);
        try (ReleaseController first = start(d, work, 4);
                ReleaseController second = start(d, work, 5)) {
            String one = output(work.resolve("controller-4.log"), "listening");
            String two = output(work.resolve("controller-5.log"), "listening");
            assertThat(one).doesNotContain("Address already in use");
            assertThat(two).doesNotContain("Address already in use");
            assertThat(port(one, 9099)).isNotEqualTo(port(two, 9099));
            assertThat(first.alive()).isTrue();
            assertThat(second.alive()).isTrue();
            assertThat(events).isEmpty();
        }
    }

    private ReleaseController start(Deployment d, Path work, int n) throws Exception {
        return ReleaseController.start(
                releases,
                d,
                "control-plane-0",
                work.resolve("hosts/control-plane-0"),
                work,
                n,
                (sa, podDir) -> Map.of(),
                ContainerLaunch.ConfigMaps.NONE,
                events::add);
    }

    /** The port of this machine the pod's log header gives {@code containerPort}. */
    private static int port(String log, int containerPort) {
        Matcher m = Pattern.compile("(?m)^port " + containerPort + " = ([0-9]+)$").matcher(log);
        assertThat(m.find()).as(log).isTrue();
        return Integer.parseInt(m.group(1));
    }

    @Test
    void aContainerThatEndsIsStartedAgainAfterABackOff() throws Exception {
        Path work = Files.createDirectories(dir.resolve("work-" + System.nanoTime()));
        Deployment d = deployment(image);
        d.getSpec().getTemplate().getSpec().getContainers().get(0).setArgs(List.of("--exit"));
        try (ReleaseController controller =
                ReleaseController.start(
                        releases,
                        d,
                        "n",
                        work.resolve("hosts/n"),
                        work,
                        2,
                        (sa, podDir) -> Map.of(),
                        ContainerLaunch.ConfigMaps.NONE,
                        events::add)) {
            assertThat(output(work.resolve("controller-2.log"), "restarting"))
                    .contains("running")
                    .contains(
                            "container exited with code 3; "
                                    + "restarting in 10 s (CrashLoopBackOff)");
            await().atMost(Duration.ofSeconds(60))
                    .untilAsserted(
                            () ->
                                    assertThat(events)
                                            .containsExactly(
                                                    "the controller's pod: container exited with"
                                                            + " code 3; restarting in 10 s"
                                                            + " (CrashLoopBackOff)"
                                                            + " (controller-2.log)"));
        }
    }

    /**
     * Stopped, the container has the pod's grace period (the Deployment's 30 s) to end before it is
     * killed: the controller writes its last status and releases its Lease then. This one takes 11
     * s.
     */
    @Test
    void aStoppedContainerHasThePodsGracePeriodToEnd() throws Exception {
        Path work = Files.createDirectories(dir.resolve("work-" + System.nanoTime()));
        Deployment d = deployment(image);
        assertThat(d.getSpec().getTemplate().getSpec().getTerminationGracePeriodSeconds())
                .isEqualTo(30);
        d.getSpec().getTemplate().getSpec().getContainers().get(0).setArgs(List.of("--slow-stop"));
        ReleaseController controller = start(d, work, 6);
        output(work.resolve("controller-6.log"), "listening");
        controller.close();
        assertThat(Files.readString(work.resolve("controller-6.log"))).contains("\nlet go\n");
        assertThat(controller.alive()).isFalse();
    }

    @Test
    void aPodItCannotRunSaysWhyAndRunsNothing() throws Exception {
        Path work = Files.createDirectories(dir.resolve("work-" + System.nanoTime()));
        Deployment d = deployment(image);
        d.getSpec().getTemplate().getSpec().getContainers().get(0).setCommand(List.of("sh"));
        try (ReleaseController controller =
                ReleaseController.start(
                        releases,
                        d,
                        "n",
                        work.resolve("hosts/n"),
                        work,
                        3,
                        (sa, podDir) -> Map.of(),
                        ContainerLaunch.ConfigMaps.NONE,
                        events::add)) {
            assertThat(controller.alive()).isFalse();
            assertThat(events)
                    .singleElement()
                    .asString()
                    .contains(
                            "cannot start: CreateContainerError: container controller sets command"
                                    + " [sh]");
            assertThat(Files.readString(work.resolve("controller-3.log")))
                    .startsWith("pod openshift-cluster-version/cluster-version-operator-")
                    .contains(
                            " on node n cannot start: CreateContainerError: container controller"
                                    + " sets command [sh]");
        }
    }

    private final List<String> events = new CopyOnWriteArrayList<>();

    private static String output(Path log, String until) {
        return await().atMost(Duration.ofSeconds(60))
                .until(
                        () ->
                                Files.isRegularFile(log)
                                        ? Files.readString(log, StandardCharsets.UTF_8)
                                        : "",
                        s -> s.contains(until));
    }

    private static Deployment deployment(String image) throws Exception {
        return Mappers.YAML.readValue(
                new ManifestTemplate(image, "self-managed-high-availability", Map.of())
                        .render(DemoPayloads.controller("1.0.1")),
                Deployment.class);
    }

    /**
     * A release laid on an "Upshift" image whose jar is the small program; its pullspec. The
     * program listens on the ports its args name ({@code --*-port N}), ending with code 2 when one
     * is taken, as the controller does.
     */
    private static String release() throws Exception {
        Path src = Files.createDirectories(dir.resolve("src/fake"));
        Files.writeString(
                src.resolve("Main.java"),
                "package fake;\n"
                    + "public class Main { public static void main(String[] a) throws Exception {\n"
                    + "  System.out.println(\"running \" +"
                    + " Main.class.getProtectionDomain().getCodeSource().getLocation().getPath() +"
                    + " \" \" + String.join(\" \", a));\n"
                    + "  for (String v : new String[] {\"NODE_NAME\", \"KUBERNETES_MASTER\","
                    + " \"SA\", \"HOME\", \"PATH\", \"USER\"}) System.out.println(v + \"=\" +"
                    + " System.getenv(v));\n"
                    + "  if (a.length > 0 && a[0].equals(\"--exit\")) System.exit(3);\n"
                    + "  if (a.length > 0 && a[0].equals(\"--slow-stop\"))"
                    + " Runtime.getRuntime().addShutdownHook(new Thread(() -> { try {"
                    + " Thread.sleep(11000); System.out.println(\"let go\"); } catch"
                    + " (InterruptedException e) {} }));\n"
                    + "  java.util.List<java.net.ServerSocket> held = new"
                    + " java.util.ArrayList<>();\n"
                    + "  for (int i = 0; i + 1 < a.length; i++) if (a[i].endsWith(\"-port\")) {\n"
                    + "    try { held.add(new java.net.ServerSocket(Integer.parseInt(a[i + 1])));"
                    + " }\n"
                    + "    catch (java.io.IOException e) { System.out.println(e.getMessage());"
                    + " System.exit(2); } }\n"
                    + "  System.out.println(\"listening on \" + held.size() + \" ports\");\n"
                    + "  Thread.sleep(60000); } }\n");
        Path classes = Files.createDirectories(dir.resolve("classes"));
        assertThat(
                        ToolProvider.getSystemJavaCompiler()
                                .run(
                                        null,
                                        null,
                                        null,
                                        "-d",
                                        classes.toString(),
                                        src.resolve("Main.java").toString()))
                .isZero();
        Path app = Files.createDirectories(dir.resolve("app/lib")).getParent();
        Manifest m = new Manifest();
        m.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        m.getMainAttributes().put(Attributes.Name.MAIN_CLASS, "fake.Main");
        try (JarOutputStream out =
                new JarOutputStream(Files.newOutputStream(app.resolve("upshift.jar")), m)) {
            out.putNextEntry(new JarEntry("fake/Main.class"));
            out.write(Files.readAllBytes(classes.resolve("fake/Main.class")));
        }
        var built =
                UpshiftImage.build(
                        new UpshiftImage.Inputs(
                                app.resolve("upshift.jar"),
                                app.resolve("lib"),
                                ImageJdk.forImage().home(),
                                "t"),
                        Files.createDirectories(dir.resolve("build")),
                        s -> {});
        ImageRef base = ImageRef.parse("oci:" + dir.resolve("images") + ":upshift");
        releases.publish(built, base, ImageStore.Progress.NONE);
        Path payload = Files.createDirectories(dir.resolve("payload/release-manifests"));
        Files.createDirectories(dir.resolve("payload/manifests"));
        Files.writeString(
                payload.resolve("0000_10_a_x.yaml"),
                "apiVersion: v1\n"
                        + "kind: Namespace\n"
                        + "metadata:\n"
                        + "  name: a\n"
                        + "  annotations:\n"
                        + "    include.release.openshift.io/self-managed-high-availability:"
                        + " \"true\"\n");
        ResolvedImage release =
                releases.publish(
                        dir.resolve("payload"),
                        "1.0.1",
                        List.of(),
                        base,
                        ImageRef.parse("oci:" + dir.resolve("images") + ":1.0.1"),
                        ImageStore.Progress.NONE);
        return release.pullspec();
    }
}
