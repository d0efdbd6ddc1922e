package io.upshift.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.upshift.release.image.DockerCredentials;
import io.upshift.release.image.ImageRef;
import io.upshift.release.image.ImageStore;
import io.upshift.release.image.Releases;
import io.upshift.release.image.ResolvedImage;
import io.upshift.release.image.UpshiftImage;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The demo's self-replacement: the controller that takes over runs the code the new release image holds, read out
 * of the image, not this JVM's. Here the "Upshift" laid under the release is a small program that says which jar it
 * runs from and with what arguments.
 */
class ReleaseControllerTest {

    @TempDir
    Path dir;

    @Test
    void theControllerThatTakesOverIsTheReleasesOwnCodeFromItsImage() throws Exception {
        Path src = Files.createDirectories(dir.resolve("src/fake"));
        Files.writeString(src.resolve("Main.java"), "package fake;\npublic class Main { public static void main(String[] a) throws Exception {\n"
                + "  System.out.println(\"running \" + Main.class.getProtectionDomain().getCodeSource().getLocation().getPath() + \" \" + String.join(\" \", a));\n"
                + "  Thread.sleep(60000); } }\n");
        Path classes = Files.createDirectories(dir.resolve("classes"));
        assertThat(ToolProvider.getSystemJavaCompiler().run(null, null, null, "-d", classes.toString(), src.resolve("Main.java").toString())).isZero();
        Path app = Files.createDirectories(dir.resolve("app/lib")).getParent();
        Manifest m = new Manifest();
        m.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        m.getMainAttributes().put(Attributes.Name.MAIN_CLASS, "fake.Main");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(app.resolve("upshift.jar")), m)) {
            out.putNextEntry(new JarEntry("fake/Main.class"));
            out.write(Files.readAllBytes(classes.resolve("fake/Main.class")));
        }
        Releases releases = new Releases(DockerCredentials.none(), false, w -> { });
        var image = UpshiftImage.build(new UpshiftImage.Inputs(app.resolve("upshift.jar"), app.resolve("lib"), Path.of(System.getProperty("java.home")), "t"),
                Files.createDirectories(dir.resolve("build")), s -> { });
        ImageRef base = ImageRef.parse("oci:" + dir.resolve("images") + ":upshift");
        releases.publish(image, base, ImageStore.Progress.NONE);
        Path payload = Files.createDirectories(dir.resolve("payload/release-manifests"));
        Files.createDirectories(dir.resolve("payload/manifests"));
        Files.writeString(payload.resolve("0000_10_a_x.yaml"), "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: a\n  annotations:\n"
                + "    include.release.openshift.io/self-managed-high-availability: \"true\"\n");
        ResolvedImage release = releases.publish(dir.resolve("payload"), "1.0.1", List.of(), base, ImageRef.parse("oci:" + dir.resolve("images") + ":1.0.1"),
                ImageStore.Progress.NONE);

        Path work = Files.createDirectories(dir.resolve("work"));
        try (ReleaseController controller = ReleaseController.start(releases, release.pullspec(), work, 1, List.of("--namespace", "upshift"))) {
            Path log = work.resolve("controller-1.log");
            String out = await().atMost(Duration.ofSeconds(30)).until(() -> Files.isRegularFile(log) ? Files.readString(log, StandardCharsets.UTF_8) : "",
                    s -> s.contains("running"));
            assertThat(out).contains("running " + work.resolve("controllers"))
                    .contains("upshift.jar operator --release " + release.pullspec() + " --identity demo-controller-1 --namespace upshift");
            assertThat(controller.alive()).isTrue();
        }
    }
}
