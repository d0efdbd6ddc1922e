package io.upshift.cli;

import io.upshift.releases.command.ProgressLine;
import io.upshift.releases.command.RegistryOptions;
import io.upshift.releases.image.BuiltImage;
import io.upshift.releases.image.FileTrees;
import io.upshift.releases.image.ImageJdk;
import io.upshift.releases.image.ImageRef;
import io.upshift.releases.image.ResolvedImage;
import io.upshift.releases.image.UpshiftImage;
import io.upshift.releases.metadata.Reason;
import io.upshift.releases.metadata.ReleaseException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(
        name = "image",
        mixinStandardHelpOptions = true,
        description = {
            "Build Upshift's own container image and publish it.",
            "No container engine is needed: a Java runtime linked from this JDK, the system"
                + " libraries it loads, a non-root user (1001), Upshift's libraries and jar; the"
                + " entry point runs upshift. The same build makes the same digest."
        })
public final class ImageCommand implements Callable<Integer> {

    @Spec picocli.CommandLine.Model.CommandSpec spec;

    @Option(
            names = "--to",
            required = true,
            paramLabel = "REF",
            description = "docker://HOST[:PORT]/REPO:TAG or oci:PATH[:TAG] (tag default: latest).")
    String to;

    @Option(
            names = "--jdk",
            paramLabel = "DIR",
            description =
                    "The JDK whose jlink makes the image's Java runtime (default: the one running"
                            + " this command if it is JDK 25 or newer, else the newest such JDK"
                            + " installed beside it, else the one running this command: only JDK"
                            + " 25 or newer makes the class-data archive that starts the image"
                            + " faster).")
    Path jdk;

    @Mixin RegistryOptions registry;

    @Override
    public Integer call() throws Exception {
        PrintWriter err = spec.commandLine().getErr();
        Path jar =
                Upshift.ownJar()
                        .orElseThrow(
                                () ->
                                        new ReleaseException(
                                                Reason.PAYLOAD_NOT_FOUND,
                                                "upshift runs from its classes, not from its jar:"
                                                        + " build it first (./upshift image)"));
        Path work = Files.createTempDirectory("upshift-image-");
        try {
            BuiltImage image =
                    UpshiftImage.build(
                            new UpshiftImage.Inputs(
                                    jar,
                                    jar.resolveSibling("lib"),
                                    jdk != null ? jdk : ImageJdk.forImage().home(),
                                    version()),
                            work,
                            step -> err.println("upshift image: " + step));
            ResolvedImage published =
                    registry.releases(err)
                            .publish(image, ImageRef.parse(to), new ProgressLine(err, "pushed"));
            spec.commandLine()
                    .getOut()
                    .println("Published Upshift's image as " + published.pullspec());
            return 0;
        } finally {
            FileTrees.deleteQuietly(work);
        }
    }

    private static String version() {
        String v = Upshift.class.getPackage().getImplementationVersion();
        return v == null ? "development" : v;
    }
}
