package io.upshift.demo;

import io.upshift.release.image.ImageRef;
import io.upshift.release.image.Releases;
import io.upshift.release.image.UpshiftImage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The cluster-version controller a release image holds, run as its pod would run it: Upshift's jar and libraries read
 * out of the image ({@code /opt/upshift}) and started as a process of its own, {@code upshift operator --release IMAGE},
 * against the demo's API server; stopped as Kubernetes stops a pod (SIGTERM, then killed after a grace period), so
 * that it releases its Lease and the next one takes over at once.
 */
final class ReleaseController implements AutoCloseable {

    private final String image;
    private final Process process;
    private final Path log;

    private ReleaseController(String image, Process process, Path log) {
        this.image = image;
        this.process = process;
        this.log = log;
    }

    /**
     * Starts the controller of release {@code image}: its code unpacked under {@code work}/controllers, its output in
     * {@code work}/controller-N.log.
     *
     * @param operatorArgs the rest of its command line (kubeconfig, namespace, payload retrieval)
     */
    static ReleaseController start(Releases releases, String image, Path work, int n, List<String> operatorArgs) throws Exception {
        Path code = work.resolve("controllers").resolve(image.substring(image.lastIndexOf(':') + 1, image.lastIndexOf(':') + 13));
        if (!Files.isRegularFile(code.resolve("upshift.jar"))) releases.unpackDirectory(ImageRef.parse(image), UpshiftImage.HOME.substring(1), code);
        Path log = work.resolve("controller-" + n + ".log");
        List<String> command = new java.util.ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:+UseParallelGC", "-Dorg.slf4j.simpleLogger.defaultLogLevel=info", "-jar", code.resolve("upshift.jar").toString(),
                "operator", "--release", image, "--identity", "demo-controller-" + n));
        command.addAll(operatorArgs);
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        return new ReleaseController(image, p, log);
    }

    String image() {
        return image;
    }

    boolean alive() {
        return process.isAlive();
    }

    /** Its output so far, for a failure's message. */
    String output() {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
        } catch (IOException e) {
            return "(no output: " + e.getMessage() + ")";
        }
    }

    /** Stops it as a pod is stopped: SIGTERM, at most 10 s for it to let go, then killed. */
    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
