package io.upshift.bench;

import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.upshift.demo.DemoController;
import io.upshift.demo.DemoRun;
import io.upshift.releases.image.FileTrees;
import io.upshift.releases.image.UpshiftImage;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the cluster-version operator costs from its start: the demo's cluster (the embedded API
 * server, releases built on Upshift's image from {@code cli/target/upshift-cli.jar}) installs its
 * first release and updates to the second, whose own Deployment's pod then runs the controller as a
 * kubelet runs it: the image's own entry point (its Java runtime, JVM options and class-data
 * archive, {@code -jar upshift.jar}), the container's args and env, its memory limit given to the
 * JVM as the cgroup would. The pod is then replaced (the Recreate of a takeover: the old one lets
 * go of the Lease) N times; each new process is timed from its start to its {@code /readyz}
 * answering 200 (polled every 5 ms on its health port), and its {@code startup:} log lines give the
 * breakdown. After the last, it stays idle for the given time, then its VmRSS and Threads are read
 * from {@code /proc/PID/status}.
 *
 * <p>Usage: {@code OperatorFootprint [--payload DIR] [RUNS] [IDLE_SECONDS]} (default 3, 60), run
 * from the repository's root. Prints {@code operator: ready in <s> s, idle RSS <m> MiB, <t>
 * threads} (the median of the runs), a breakdown line per run and the load average; then, as many
 * times, a pool controller ({@link PoolsProcess}) is started beside it and timed from its process's
 * start to its {@code startup: ready} line: {@code pool controller: ready in <s> s} (the median).
 * With {@code --payload}, the releases are that payload directory (such as a real OpenShift
 * release's) and its next patch, and the peak RSS ({@code VmHWM}) of the pod that ran the update's
 * remainder is printed first. {@code OperatorFootprint --train FILE} instead writes the class list
 * the image's class-data archive is made from (see {@link UpshiftImage#CLASS_LIST}): one pod runs
 * with {@code JAVA_TOOL_OPTIONS= -XX:DumpLoadedClassList} through its start, first sync and the
 * rollout of its own Deployment, then the pool controller ({@link PoolsProcess}) through its first
 * pass.
 */
public final class OperatorFootprint {
    private static final Pattern MILESTONE =
            Pattern.compile("startup: (.+?) ([0-9.]+) s after the JVM started \\((\\d+) classes");
    private static final Pattern JVM_STARTED =
            Pattern.compile("startup: the JVM started at (\\S+)");

    public static void main(String[] args) throws Exception {
        Path payload = null;
        if (args.length > 1 && args[0].equals("--payload")) {
            payload = Path.of(args[1]).toAbsolutePath();
            args = Arrays.copyOfRange(args, 2, args.length);
        }
        boolean train = args.length > 0 && args[0].equals("--train");
        int runs = !train && args.length > 0 ? Integer.parseInt(args[0]) : 3;
        int idleSeconds = !train && args.length > 1 ? Integer.parseInt(args[1]) : 60;
        Path jar = Path.of("cli/target/upshift-cli.jar").toAbsolutePath();
        if (!Files.isRegularFile(jar))
            throw new IllegalStateException(jar + ": build Upshift first (./mvnw install)");
        System.setProperty("org.slf4j.simpleLogger.log.io.upshift", "warn");
        Path work = Files.createTempDirectory("upshift-bench-footprint-");
        DemoRun.Settings settings =
                new DemoRun.Settings(12, 4, Duration.ofMillis(500), 1, work).withSelfHosting(jar);
        if (payload != null) settings = settings.withPayload(payload);
        try (DemoRun demo =
                new DemoRun(settings, l -> System.err.println("  demo: " + l)).start()) {
            if (!demo.admin().await(demo.from(), Duration.ofMinutes(10), () -> {}))
                throw new IllegalStateException("install did not complete; see " + work);
            // the update rolls out the controller's Deployment: the new release's own pod runs it
            demo.requestUpdate();
            if (!demo.admin().await(demo.to(), Duration.ofMinutes(10), () -> {}))
                throw new IllegalStateException("the update did not complete; see " + work);
            DemoController controller = demo.cluster().controller();
            DemoController.PodProcess first = awaitPod(controller, null);
            awaitReady(first);
            if (payload != null)
                System.out.printf(
                        Locale.ROOT,
                        "update %s -> %s of %s: the release's own controller's peak RSS %d MiB%n",
                        demo.from(),
                        demo.to(),
                        payload,
                        procStatus(first.process().pid()).get("VmHWM") / 1024);
            if (train) {
                train(demo, controller, first, Path.of(args[1]));
                return;
            }
            List<Double> ready = new ArrayList<>();
            DemoController.PodProcess pod = first;
            for (int i = 0; i < runs; i++) {
                controller.restart();
                pod = awaitPod(controller, pod);
                double s = awaitReady(pod);
                ready.add(s);
                System.out.println(breakdown("breakdown", pod, awaitFirstSync(pod), s));
            }
            List<Double> poolsReady = new ArrayList<>();
            for (int i = 0; i < runs; i++) {
                try (PoolsProcess pools =
                        PoolsProcess.start(
                                pod,
                                demo.cluster().server().kubeconfig(),
                                demo.to(),
                                null,
                                work.resolve("pools-" + i + ".log"))) {
                    List<String> log = pools.await("first sync");
                    double s = milestones(pools.asPod(), log).get("ready").seconds();
                    poolsReady.add(s);
                    System.out.println(breakdown("pool controller", pools.asPod(), log, s));
                }
            }
            Thread.sleep(idleSeconds * 1000L);
            Map<String, Long> status = procStatus(pod.process().pid());
            ready.sort(Double::compare);
            System.out.printf(
                    Locale.ROOT,
                    "operator: ready in %.2f s, idle RSS %d MiB, %d threads%n",
                    ready.get(ready.size() / 2),
                    status.get("VmRSS") / 1024,
                    status.get("Threads"));
            poolsReady.sort(Double::compare);
            System.out.printf(
                    Locale.ROOT,
                    "pool controller: ready in %.2f s%n",
                    poolsReady.get(poolsReady.size() / 2));
            System.out.printf(
                    Locale.ROOT,
                    "(median of %d takeovers and of %d pool controller starts; idle %d s; memory"
                            + " limit given to the JVM: %s; load average %s)%n",
                    runs,
                    runs,
                    idleSeconds,
                    commandLine(pod).stream()
                            .filter(a -> a.startsWith("-XX:MaxRAM="))
                            .findFirst()
                            .orElse("none"),
                    Files.readString(Path.of("/proc/loadavg")).strip());
        } finally {
            FileTrees.deleteQuietly(work);
        }
    }

    /** The pod that runs after {@code previous} (any, for null), once it has started. */
    private static DemoController.PodProcess awaitPod(
            DemoController controller, DemoController.PodProcess previous)
            throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
        while (System.nanoTime() < deadline) {
            var p = controller.podProcess();
            if (p.isPresent()
                    && (previous == null || p.get().process().pid() != previous.process().pid()))
                return p.get();
            Thread.sleep(5);
        }
        throw new IllegalStateException("the controller's pod did not start");
    }

    /** Seconds from the pod's start to its first {@code /readyz} 200. */
    private static double awaitReady(DemoController.PodProcess pod) throws Exception {
        Integer port = pod.ports().get(9098);
        if (port == null) throw new IllegalStateException("the pod declares no health port 9098");
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
        HttpRequest readyz =
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/readyz"))
                        .timeout(Duration.ofSeconds(2))
                        .build();
        long deadline = pod.startedNanos() + Duration.ofMinutes(2).toNanos();
        while (System.nanoTime() < deadline) {
            try {
                if (http.send(readyz, HttpResponse.BodyHandlers.discarding()).statusCode() == 200)
                    return (System.nanoTime() - pod.startedNanos()) / 1e9;
            } catch (IOException notYet) {
                // not listening yet
            }
            if (!pod.process().isAlive())
                throw new IllegalStateException("the pod's process ended; see " + pod.log());
            Thread.sleep(5);
        }
        throw new IllegalStateException("not ready within 2 minutes; see " + pod.log());
    }

    /** The pod's log once it shows the first sync (or after a minute). */
    private static List<String> awaitFirstSync(DemoController.PodProcess pod) throws Exception {
        long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
        List<String> lines = Files.readAllLines(pod.log());
        while (lines.stream().noneMatch(l -> l.contains("startup: first sync"))
                && System.nanoTime() < deadline) {
            Thread.sleep(50);
            lines = Files.readAllLines(pod.log());
        }
        return lines;
    }

    /** A {@code startup:} milestone: seconds from the process's start, classes loaded then. */
    private record Milestone(double seconds, String classes) {}

    /**
     * Each {@code startup:} milestone of {@code log}, after {@code JVM start}: when the JVM started
     * after the process did.
     */
    private static Map<String, Milestone> milestones(
            DemoController.PodProcess pod, List<String> log) {
        // the process's start on the wall clock, from the monotonic one's reading then
        long spawned =
                System.currentTimeMillis() - (System.nanoTime() - pod.startedNanos()) / 1_000_000;
        Map<String, Milestone> out = new LinkedHashMap<>();
        double jvm = Double.NaN;
        for (String line : log) {
            Matcher j = JVM_STARTED.matcher(line);
            if (j.find()) {
                jvm = (Instant.parse(j.group(1)).toEpochMilli() - spawned) / 1000.0;
                out.put("JVM start", new Milestone(jvm, null));
            }
            Matcher m = MILESTONE.matcher(line);
            if (m.find())
                out.put(
                        m.group(1),
                        new Milestone(Double.parseDouble(m.group(2)) + jvm, m.group(3)));
        }
        return out;
    }

    /**
     * One line: {@code ready}, then each milestone's seconds from the process's start and the
     * classes loaded by then.
     */
    private static String breakdown(
            String what, DemoController.PodProcess pod, List<String> log, double ready) {
        StringBuilder b =
                new StringBuilder(String.format(Locale.ROOT, "%s: ready %.2f s", what, ready));
        milestones(pod, log)
                .forEach(
                        (name, m) -> {
                            b.append(String.format(Locale.ROOT, ", %s %.2f s", name, m.seconds()));
                            if (m.classes() != null)
                                b.append(" (").append(m.classes()).append(" classes)");
                        });
        return b.toString();
    }

    /** VmRSS and VmHWM (KiB) and Threads of {@code /proc/PID/status}. */
    private static Map<String, Long> procStatus(long pid) throws IOException {
        Map<String, Long> out = new LinkedHashMap<>();
        for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
            String[] kv = line.split(":\\s+", 2);
            if (kv.length == 2
                    && (kv[0].equals("VmRSS") || kv[0].equals("VmHWM") || kv[0].equals("Threads")))
                out.put(kv[0], Long.parseLong(kv[1].replace(" kB", "").strip()));
        }
        return out;
    }

    private static List<String> commandLine(DemoController.PodProcess pod) {
        return pod.process().info().arguments().map(List::of).orElse(List.of());
    }

    /**
     * One pod with the JVM's class list dumped, through its start, first sync and the rollout of
     * its own Deployment (its env changed back); the list written to {@code out} without the lines
     * the archive leaves out.
     */
    private static void train(
            DemoRun demo, DemoController controller, DemoController.PodProcess first, Path out)
            throws Exception {
        // beside the output: a path under /tmp would name the pod's own /tmp volume instead
        Path raw = out.toAbsolutePath().resolveSibling(out.getFileName() + ".raw");
        KubernetesClient client = demo.cluster().client();
        var deployments = client.apps().deployments().inNamespace("openshift-cluster-version");
        Deployment d = deployments.withName("cluster-version-operator").get();
        d.getSpec()
                .getTemplate()
                .getSpec()
                .getContainers()
                .get(0)
                .getEnv()
                .add(new EnvVar("JAVA_TOOL_OPTIONS", "-XX:DumpLoadedClassList=" + raw, null));
        deployments.resource(d).update();
        DemoController.PodProcess training = awaitPod(controller, first);
        awaitReady(training);
        awaitFirstSync(training);
        DemoController.PodProcess after = awaitPod(controller, training);
        awaitReady(after);
        // then the pool controller, from its start through its first pass
        Path rawPools = out.toAbsolutePath().resolveSibling(out.getFileName() + ".pools.raw");
        try (PoolsProcess pools =
                PoolsProcess.start(
                        after,
                        demo.cluster().server().kubeconfig(),
                        demo.to(),
                        "-XX:DumpLoadedClassList=" + rawPools,
                        out.toAbsolutePath().resolveSibling(out.getFileName() + ".pools.log"))) {
            pools.await("first sync");
        }
        List<String> classes = new ArrayList<>();
        classes.add(
                "# The classes of Upshift's class-data archive (UpshiftImage.CLASS_LIST), made by"
                        + " bench/run OperatorFootprint --train");
        ClassLists.merge(List.of(raw, rawPools), classes);
        Files.write(out, classes);
        Files.delete(raw);
        Files.delete(rawPools);
        System.out.printf("%d classes written to %s%n", classes.size(), out);
    }
}
