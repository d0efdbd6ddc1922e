package io.upshift.demo;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.upshift.releases.image.DockerCredentials;
import io.upshift.releases.image.FileTrees;
import io.upshift.releases.image.ImageRef;
import io.upshift.releases.image.Releases;
import io.upshift.releases.image.UpshiftImage;
import io.upshift.testkit.EmbeddedApiServer;
import io.upshift.testkit.ServiceAccount;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The pod of the controller's Deployment, as the demo's kubelet runs it on a simulated node: the
 * code the release image holds (its {@code /opt/upshift}, read out of the image) started as a
 * process of its own with the image's entry point ({@link UpshiftImage#entrypoint(Path)}: the
 * image's own Java runtime and jar, in its working directory; the container's memory limit given to
 * the JVM as {@code -XX:MaxRAM}, which a cgroup would tell it) and exactly the container's args,
 * env, volumes and ports ({@link ContainerLaunch}: each containerPort a free port of this machine,
 * as a pod's own network namespace has it free), over what a kubelet gives every pod ({@link
 * #apiServerAccess}); its output, after the mounts, ports and command line it ran with, in {@code
 * work}/controller-N.log. Nothing rescues a pod whose Deployment lacks something: it fails as it
 * would on a cluster, and as a kubelet with {@code restartPolicy: Always} does, the container is
 * started again after a growing back-off (10 s, doubling, at most 5 min). Stopped as Kubernetes
 * stops a pod (SIGTERM, then killed after the pod's grace period), so that it releases its Lease
 * and the next one takes over at once. Its startup and readiness probes are run as a kubelet runs
 * them ({@link ContainerProbes}): the Deployment has rolled out once the pod is ready.
 */
final class ReleaseController implements AutoCloseable {

    private static final String JAVA =
            Path.of(System.getProperty("java.home"), "bin", "java").toString();

    private final Deployment deployment;
    private final Path log;
    private final List<String> command;
    private final Map<String, String> env;
    private final Path workingDir;
    private final Map<Integer, Integer> ports;
    private volatile long startedNanos;
    private final Thread kubelet;
    private final Consumer<String> events;
    private final long gracePeriodSeconds;
    private volatile Process process;
    private volatile boolean stopped;
    private ContainerProbes probes;

    private ReleaseController(
            Deployment deployment,
            Path log,
            List<String> command,
            Map<String, String> env,
            Path workingDir,
            Consumer<String> events,
            Map<Integer, Integer> ports) {
        this.deployment = deployment;
        this.ports = ports;
        this.events = events;
        Long grace =
                deployment.getSpec().getTemplate().getSpec().getTerminationGracePeriodSeconds();
        // Kubernetes' default when the pod says nothing
        this.gracePeriodSeconds = grace == null ? 30 : Math.max(0, grace);
        this.log = log;
        this.command = command;
        this.env = env;
        this.workingDir = workingDir;
        this.kubelet = new Thread(this::keepRunning, "kubelet-" + log.getFileName());
        this.kubelet.setDaemon(true);
    }

    /**
     * What a kubelet gives every pod to reach the API server, and nothing more: the service's
     * address ({@code KUBERNETES_SERVICE_HOST} and {@code _PORT}) and the pod's ServiceAccount
     * credentials. The embedded server is plain HTTP and knows no ServiceAccount tokens yet, so the
     * address is also given as fabric8's {@code KUBERNETES_MASTER} (its URL, scheme included) and
     * the credentials as a kubeconfig ({@code KUBECONFIG}, written in the pod's directory). THE ONE
     * PLACE to switch to the ServiceAccount's token (the file a kubelet projects at
     * /var/run/secrets/kubernetes.io/serviceaccount/token) once the embedded server authenticates
     * them.
     */
    static Map<String, String> apiServerAccess(
            EmbeddedApiServer server, ServiceAccount serviceAccount, Path podDir)
            throws IOException {
        URI url = URI.create(server.url());
        Path kubeconfig =
                Files.createDirectories(podDir.resolve("serviceaccount")).resolve("kubeconfig");
        Files.writeString(
                kubeconfig,
                server.kubeconfig(
                        serviceAccount)); // the pod's ServiceAccount token, as the kubelet mounts
        // it
        Map<String, String> env = new LinkedHashMap<>();
        env.put("KUBERNETES_SERVICE_HOST", url.getHost());
        env.put("KUBERNETES_SERVICE_PORT", String.valueOf(url.getPort()));
        env.put("KUBERNETES_MASTER", server.url());
        env.put("KUBECONFIG", kubeconfig.toString());
        return env;
    }

    /**
     * The ConfigMaps and Secrets of {@code server} as a kubelet reads them for configMap and secret
     * volumes (with the server's own credentials: a kubelet reads what its pods mount as the node,
     * not as the pod).
     */
    static ContainerLaunch.ConfigMaps configMaps(EmbeddedApiServer server) {
        return new ContainerLaunch.ConfigMaps() {
            @Override
            public Map<String, byte[]> files(String namespace, String name) {
                try (var client = server.client("kubelet")) {
                    var cm = client.configMaps().inNamespace(namespace).withName(name).get();
                    if (cm == null) return null;
                    Map<String, byte[]> files = new LinkedHashMap<>();
                    if (cm.getData() != null)
                        cm.getData()
                                .forEach(
                                        (k, v) -> files.put(k, v.getBytes(StandardCharsets.UTF_8)));
                    if (cm.getBinaryData() != null)
                        cm.getBinaryData()
                                .forEach((k, v) -> files.put(k, Base64.getDecoder().decode(v)));
                    return files;
                }
            }

            @Override
            public Map<String, byte[]> secret(String namespace, String name) {
                try (var client = server.client("kubelet")) {
                    var secret = client.secrets().inNamespace(namespace).withName(name).get();
                    if (secret == null) return null;
                    Map<String, byte[]> files = new LinkedHashMap<>();
                    if (secret.getData() != null)
                        secret.getData()
                                .forEach((k, v) -> files.put(k, Base64.getDecoder().decode(v)));
                    if (secret.getStringData() != null)
                        secret.getStringData()
                                .forEach(
                                        (k, v) -> files.put(k, v.getBytes(StandardCharsets.UTF_8)));
                    return files;
                }
            }
        };
    }

    /** The pulls under way, by the directory they unpack into. */
    private static final Map<Path, CompletableFuture<Path>> PULLING = new ConcurrentHashMap<>();

    /**
     * Upshift's directory ({@value UpshiftImage#HOME}) of {@code image}, as the node's kubelet
     * keeps what it pulled: unpacked once into {@code work}/controllers (beside, then renamed into
     * place, so that a pod never starts on a half-unpacked one), found there after; a pull of it
     * under way is waited for rather than made twice. Its layers are kept once each, in {@code
     * work}/layers, as a container runtime keeps them: a release laid on the same Upshift image as
     * one pulled before costs its own payload layer alone.
     */
    static Path pull(Releases releases, Path work, String image) throws Exception {
        Path code =
                work.resolve("controllers")
                        .resolve(
                                image.substring(
                                        image.lastIndexOf(':') + 1,
                                        Math.min(image.length(), image.lastIndexOf(':') + 13)));
        if (Files.isDirectory(code)) return code;
        CompletableFuture<Path> mine = new CompletableFuture<>();
        CompletableFuture<Path> pulling = PULLING.putIfAbsent(code, mine);
        if (pulling != null) {
            try {
                return pulling.join();
            } catch (CompletionException e) {
                throw e.getCause() instanceof Exception x ? x : e;
            }
        }
        Path partial =
                Files.createDirectories(code.getParent())
                        .resolve(code.getFileName() + ".partial-" + UUID.randomUUID());
        try {
            if (!Files.isDirectory(code)) {
                releases.unpackDirectory(
                        ImageRef.parse(image),
                        UpshiftImage.HOME.substring(1),
                        partial,
                        work.resolve("layers"));
                Files.move(partial, code, StandardCopyOption.ATOMIC_MOVE);
            }
            mine.complete(code);
            return code;
        } catch (Exception e) {
            mine.completeExceptionally(e);
            throw e;
        } finally {
            PULLING.remove(code, mine);
            FileTrees.deleteQuietly(partial);
        }
    }

    /**
     * Pulls {@code image}'s Upshift directory on a thread of its own, as a kubelet has the image of
     * a payload Job it ran: a controller's pod of the same release then starts without pulling it.
     * A pull that fails is left to the pod's start, which says why.
     */
    static void pullInBackground(Path work, String image) {
        Thread t =
                new Thread(
                        () -> {
                            try {
                                pull(
                                        new Releases(DockerCredentials.none(), false, w -> {}),
                                        work,
                                        image);
                            } catch (Exception e) {
                                // the pod's start pulls again and reports it
                            }
                        },
                        "kubelet-pull");
        t.setDaemon(true);
        t.start();
    }

    /**
     * Schedules a pod of {@code deployment} on {@code node} and starts it.
     *
     * @param nodeRoot the node's filesystem (its hostPath volumes)
     * @param n its number among the demo's controller pods: its log is {@code
     *     work}/controller-N.log
     * @param access {@link #apiServerAccess}, given the pod's directory
     * @param configMaps what the kubelet reads for the pod's configMap volumes
     * @param events hears when the pod cannot start and when its container ends, one line each
     */
    static ReleaseController start(
            Releases releases,
            Deployment deployment,
            String node,
            Path nodeRoot,
            Path work,
            int n,
            Access access,
            ContainerLaunch.ConfigMaps configMaps,
            Consumer<String> events)
            throws Exception {
        var template = deployment.getSpec().getTemplate();
        String image = template.getSpec().getContainers().get(0).getImage();
        String name =
                deployment.getMetadata().getName()
                        + "-"
                        + Integer.toHexString(template.hashCode() & 0xfffffff)
                        + "-"
                        + n;
        Pod pod =
                new PodBuilder()
                        .withNewMetadata()
                        .withName(name)
                        .withNamespace(deployment.getMetadata().getNamespace())
                        .withUid(UUID.randomUUID().toString())
                        .withLabels(
                                template.getMetadata() == null
                                        ? null
                                        : template.getMetadata().getLabels())
                        .withAnnotations(
                                template.getMetadata() == null
                                        ? null
                                        : template.getMetadata().getAnnotations())
                        .endMetadata()
                        .withSpec(template.getSpec())
                        .editSpec()
                        .withNodeName(node)
                        .endSpec()
                        .withNewStatus()
                        .withHostIP("127.0.0.1")
                        .withPodIP("127.0.0.1")
                        .endStatus()
                        .build();
        Path podDir = Files.createDirectories(work.resolve("pods").resolve(name));
        Path log = work.resolve("controller-" + n + ".log");
        Map<String, String> given = new LinkedHashMap<>();
        // the image's environment (its config's Env), then the runtime's HOSTNAME, then the
        // kubelet's
        given.putAll(UpshiftImage.ENV);
        given.put("HOSTNAME", name);
        given.putAll(access.env(template.getSpec().getServiceAccountName(), podDir));
        ContainerLaunch launch;
        try {
            launch =
                    ContainerLaunch.of(
                            pod,
                            given,
                            nodeRoot,
                            podDir,
                            configMaps,
                            ContainerLaunch.HostPorts.FREE);
        } catch (ContainerLaunch.CannotStart e) {
            String line =
                    "pod "
                            + pod.getMetadata().getNamespace()
                            + "/"
                            + name
                            + " on node "
                            + node
                            + " cannot start: "
                            + e.reason()
                            + ": "
                            + e.getMessage();
            Files.writeString(log, line + "\n");
            events.accept(line);
            return new ReleaseController(deployment, log, null, null, podDir, events, Map.of());
        }
        Path code = pull(releases, work, image);
        // the image's own entry point and runtime, with the image's /opt/upshift at code; an
        // image without its own runtime (or one built elsewhere) runs on this JDK
        List<String> command = new ArrayList<>(UpshiftImage.entrypoint(code));
        if (!Files.isExecutable(Path.of(command.get(0)))) command.set(0, JAVA);
        String limit = memoryLimit(template.getSpec().getContainers().get(0));
        // a container runtime puts the process in a cgroup of the container's memory limit, which
        // the JVM reads as its physical memory; no cgroup here: the JVM is told it instead
        if (limit != null) command.add(1, "-XX:MaxRAM=" + limit);
        command.addAll(launch.args());
        ReleaseController pc =
                new ReleaseController(
                        deployment, log, command, launch.env(), code, events, launch.ports());
        StringBuilder header =
                new StringBuilder(
                        "pod "
                                + pod.getMetadata().getNamespace()
                                + "/"
                                + name
                                + " on node "
                                + node
                                + ", container "
                                + launch.container()
                                + " of image "
                                + image
                                + "\n");
        launch.mounts()
                .forEach(
                        (m, dir) ->
                                header.append("mount ")
                                        .append(m)
                                        .append(" = ")
                                        .append(dir)
                                        .append('\n'));
        launch.ports()
                .forEach(
                        (port, onMachine) ->
                                header.append("port ")
                                        .append(port)
                                        .append(" = ")
                                        .append(onMachine)
                                        .append('\n'));
        launch.env()
                .forEach(
                        (k, v) ->
                                header.append("env ").append(k).append('=').append(v).append('\n'));
        header.append("$ cd ")
                .append(code)
                .append(" && ")
                .append(String.join(" ", command))
                .append('\n');
        Files.writeString(log, header);
        pc.process = pc.run();
        pc.kubelet.start();
        pc.probes =
                new ContainerProbes(
                                template.getSpec().getContainers().get(0),
                                launch.ports(),
                                () -> pc.process)
                        .start();
        return pc;
    }

    /** {@link #apiServerAccess} for a pod's ServiceAccount and directory. */
    interface Access {
        Map<String, String> env(String serviceAccount, Path podDir) throws IOException;
    }

    private Process run() throws IOException {
        ProcessBuilder b =
                new ProcessBuilder(command)
                        .directory(workingDir.toFile())
                        .redirectErrorStream(true)
                        .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        b.environment().clear(); // a container gets its own environment, not this machine's
        b.environment().putAll(env);
        startedNanos = System.nanoTime();
        return b.start();
    }

    /**
     * restartPolicy Always: the container is started again once it ends, after CrashLoopBackOff's
     * back-off.
     */
    private void keepRunning() {
        long backoff = 10;
        while (!stopped) {
            try {
                Process p = process;
                long started = System.nanoTime();
                int code = p.waitFor();
                if (stopped) return;
                if (TimeUnit.NANOSECONDS.toMinutes(System.nanoTime() - started) >= 10)
                    backoff = 10; // ran 10 minutes: the back-off starts over
                String line =
                        "container exited with code "
                                + code
                                + "; restarting in "
                                + backoff
                                + " s (CrashLoopBackOff)";
                Files.writeString(log, line + "\n", StandardOpenOption.APPEND);
                events.accept("the controller's pod: " + line + " (" + log.getFileName() + ")");
                synchronized (this) {
                    wait(TimeUnit.SECONDS.toMillis(backoff));
                    if (stopped) return;
                    process = run();
                }
                backoff = Math.min(backoff * 2, 300);
            } catch (InterruptedException e) {
                return;
            } catch (IOException e) {
                return;
            }
        }
    }

    Deployment deployment() {
        return deployment;
    }

    /** The container's process as it runs now; null when it cannot start. */
    DemoController.PodProcess podProcess() {
        Process p = process;
        return p == null
                ? null
                : new DemoController.PodProcess(p.toHandle(), startedNanos, ports, log);
    }

    /**
     * The container's memory limit in bytes, or null when it has none: what its cgroup would tell
     * the JVM.
     */
    private static String memoryLimit(io.fabric8.kubernetes.api.model.Container c) {
        var resources = c.getResources();
        if (resources == null || resources.getLimits() == null) return null;
        var memory = resources.getLimits().get("memory");
        return memory == null
                ? null
                : io.fabric8.kubernetes.api.model.Quantity.getAmountInBytes(memory)
                        .toBigInteger()
                        .toString();
    }

    /** Whether the pod is ready, as its probes said last; never when it cannot start. */
    boolean ready() {
        ContainerProbes p = probes;
        return p != null && p.ready();
    }

    boolean alive() {
        Process p = process;
        return p != null && p.isAlive();
    }

    /**
     * Stops it as a kubelet stops a pod: SIGTERM, then killed once the pod's {@code
     * terminationGracePeriodSeconds} (30 s unless it says) have passed. The controller writes its
     * last status and releases its Lease in that time; killed sooner, it would hold the Lease for
     * 137 s and the next pod would wait for it.
     */
    @Override
    public void close() {
        synchronized (this) {
            stopped = true;
            notifyAll();
        }
        kubelet.interrupt();
        if (probes != null) probes.close();
        Process p = process;
        if (p == null) return;
        p.destroy();
        try {
            if (!p.waitFor(gracePeriodSeconds, TimeUnit.SECONDS))
                p.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
