package io.upshift.bench;

import io.upshift.demo.DemoController;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The pool controller ({@code upshift pools}) run as the machine-config operator's pod would run
 * it: by the image's own entry point, as the demo runs the controller's pod (its runtime, options,
 * archive and working directory, read from that pod's process), with the cluster administrator's
 * kubeconfig. The demo's own pool controller runs in its JVM without a Lease, so this one takes the
 * Lease and runs beside it.
 */
final class PoolsProcess implements AutoCloseable {
    private final Process process;
    private final long startedNanos;
    private final Path log;

    private PoolsProcess(Process process, long startedNanos, Path log) {
        this.process = process;
        this.startedNanos = startedNanos;
        this.log = log;
    }

    /**
     * Starts {@code upshift pools --release-version version} with the runtime of {@code pod}, with
     * {@code javaToolOptions} (null: none), its output in {@code log}.
     */
    static PoolsProcess start(
            DemoController.PodProcess pod,
            String kubeconfig,
            String version,
            String javaToolOptions,
            Path log)
            throws IOException {
        long pid = pod.process().pid();
        List<String> command = new ArrayList<>();
        command.add(pod.process().info().command().orElseThrow());
        List<String> args = List.of(pod.process().info().arguments().orElseThrow());
        int jar = args.indexOf("-jar");
        if (jar < 0) throw new IllegalStateException("the pod's command line has no -jar: " + args);
        command.addAll(args.subList(0, jar + 2));
        command.addAll(List.of("pools", "--release-version", version));
        Path config = log.resolveSibling(log.getFileName() + ".kubeconfig");
        Files.writeString(config, kubeconfig);
        ProcessBuilder b =
                new ProcessBuilder(command)
                        .directory(Path.of("/proc/" + pid + "/cwd").toRealPath().toFile())
                        .redirectErrorStream(true)
                        .redirectOutput(log.toFile());
        Map<String, String> env = b.environment();
        env.clear();
        env.putAll(environment(pid));
        env.remove("JAVA_TOOL_OPTIONS");
        if (javaToolOptions != null) env.put("JAVA_TOOL_OPTIONS", javaToolOptions);
        env.put("KUBECONFIG", config.toString());
        long started = System.nanoTime();
        return new PoolsProcess(b.start(), started, log);
    }

    /** The process's environment, from {@code /proc/PID/environ}. */
    private static Map<String, String> environment(long pid) throws IOException {
        Map<String, String> env = new LinkedHashMap<>();
        byte[] raw = Files.readAllBytes(Path.of("/proc/" + pid + "/environ"));
        for (String kv : new String(raw, StandardCharsets.UTF_8).split("\0")) {
            int eq = kv.indexOf('=');
            if (eq > 0) env.put(kv.substring(0, eq), kv.substring(eq + 1));
        }
        return env;
    }

    DemoController.PodProcess asPod() {
        return new DemoController.PodProcess(process.toHandle(), startedNanos, Map.of(), log);
    }

    /** Its log once it says {@code milestone} (a {@code startup:} line), within a minute. */
    List<String> await(String milestone) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
        while (System.nanoTime() < deadline) {
            List<String> lines = Files.readAllLines(log);
            if (lines.stream().anyMatch(l -> l.contains("startup: " + milestone))) return lines;
            if (!process.isAlive())
                throw new IllegalStateException("the pool controller ended; see " + log);
            Thread.sleep(20);
        }
        throw new IllegalStateException("no 'startup: " + milestone + "' in a minute; see " + log);
    }

    /** Stops it as a kubelet would (SIGTERM), so that it releases its Lease. */
    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(30, TimeUnit.SECONDS)) process.destroyForcibly();
    }
}
