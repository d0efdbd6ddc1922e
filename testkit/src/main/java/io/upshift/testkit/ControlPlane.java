package io.upshift.testkit;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;

/**
 * A real control plane for the tests of one JVM: etcd, kube-apiserver and, once a test asks for its
 * controllers, kube-controller-manager, started from {@link KubeBinaries} on ports picked at run
 * time, on 127.0.0.1 alone, with keys made for it ({@link ControlPlanePki}), and stopped when the
 * JVM exits (or, should the JVM be killed, when its pipes close). One test at a time uses it
 * ({@link RealApiServer}), and leaves it as it found it ({@link ClusterReset}).
 *
 * <p>Authentication and authorization are a real cluster's: the administrator and the
 * controller-manager have static tokens (the administrator in {@code system:masters}, as kubeadm's
 * admin.conf); ServiceAccounts get theirs from the TokenRequest API; RBAC and the Node authorizer
 * decide, with the default admission plugins. An audit log (metadata, the request as received and
 * as answered) is where the tests' request logs come from ({@link AuditLog}).
 */
final class ControlPlane {
    /** The harness's own requests (starting, resetting) carry this User-Agent. */
    static final String HARNESS = "upshift-test-harness";

    /**
     * The controllers a test's cluster needs from kube-controller-manager: workloads (Deployments,
     * ReplicaSets, Jobs, StatefulSets), garbage collection, namespace deletion, each namespace's
     * default ServiceAccount and root CA, PodDisruptionBudgets' status. Not the node lifecycle (no
     * kubelet renews a simulated node's lease: it would taint them all unreachable), nor pod GC of
     * unknown nodes, which a test's hand-made pods would not survive, nor DaemonSets (their pods
     * would land on every simulated node; a test's DaemonSet pods are its own).
     */
    private static final String CONTROLLERS =
            String.join(
                    ",",
                    "deployment-controller",
                    "replicaset-controller",
                    "job-controller",
                    "statefulset-controller",
                    "cronjob-controller",
                    "ttl-after-finished-controller",
                    "garbage-collector-controller",
                    "namespace-controller",
                    "serviceaccount-controller",
                    "serviceaccount-token-controller",
                    "root-ca-certificate-publisher-controller",
                    "disruption-controller",
                    "clusterrole-aggregation-controller");

    private static ControlPlane shared;
    private static KubeBinaries.Absent absent;

    final KubeBinaries binaries;
    final Path dir;
    final ControlPlanePki pki;
    final int port;
    final String adminToken;
    private final String controllerManagerToken;
    private final List<Process> processes = new ArrayList<>();
    private volatile Process controllerManager;
    final AuditLog audit;
    final KubernetesClient admin;
    final Semaphore inUse = new Semaphore(1);
    final ClusterReset reset;
    final Duration startTime;

    /**
     * The JVM's control plane, started on first use; or why there is none ({@link
     * KubeBinaries.Absent}). A control plane that was found but does not start is an error.
     */
    static synchronized ControlPlane shared() {
        if (shared != null || absent != null) return shared;
        KubeBinaries.Found found = KubeBinaries.find();
        if (found instanceof KubeBinaries.Absent a) {
            absent = a;
            return null;
        }
        shared = new ControlPlane(((KubeBinaries.Present) found).binaries());
        return shared;
    }

    static synchronized KubeBinaries.Absent absence() {
        shared();
        return absent;
    }

    private ControlPlane(KubeBinaries binaries) {
        this.binaries = binaries;
        long t0 = System.nanoTime();
        try {
            // etcd's data in memory when the machine has it: fsyncs on a busy disk are what a
            // loaded machine's API server waits on most
            Path shm = Path.of("/dev/shm");
            dir =
                    Files.isWritable(shm)
                            ? Files.createTempDirectory(shm, "upshift-kube-")
                            : Files.createTempDirectory("upshift-kube-");
            Runtime.getRuntime().addShutdownHook(new Thread(this::stop, "control-plane-stop"));
            pki = ControlPlanePki.write(dir);
            adminToken = randomToken();
            controllerManagerToken = randomToken();
            Files.writeString(
                    dir.resolve("tokens.csv"),
                    adminToken
                            + ",kubernetes-admin,kubernetes-admin,\"system:masters\"\n"
                            + controllerManagerToken
                            + ",system:kube-controller-manager,system:kube-controller-manager\n");
            Files.writeString(dir.resolve("audit-policy.yaml"), AuditLog.POLICY);
            Path auditLog = dir.resolve("audit.log");
            Files.createFile(auditLog);
            audit = new AuditLog(auditLog);
            int[] started = startEtcdAndApiServer();
            port = started[0];
        } catch (IOException e) {
            stop();
            throw new UncheckedIOException("cannot start a control plane: " + e.getMessage(), e);
        } catch (RuntimeException e) {
            stop();
            throw e;
        }
        admin = new KubernetesClientBuilder().withConfig(config(HARNESS, adminToken)).build();
        waitFor(
                "the default namespaces",
                Duration.ofMinutes(2),
                () ->
                        admin.namespaces().withName("default").get() != null
                                && admin.namespaces().withName("kube-system").get() != null);
        reset = new ClusterReset(admin);
        startTime = Duration.ofNanos(System.nanoTime() - t0);
    }

    /** Starts etcd and kube-apiserver on free ports; their ports (the API server's first). */
    private int[] startEtcdAndApiServer() throws IOException {
        IOException last = null;
        for (int attempt = 0; attempt < 3; attempt++) {
            int etcdClient = freePort(), etcdPeer = freePort(), api = freePort();
            Process etcd =
                    start(
                            "etcd",
                            List.of(
                                    binaries.etcd().toString(),
                                    "--name=upshift-test",
                                    "--data-dir=" + dir.resolve("etcd-" + attempt),
                                    "--listen-client-urls=http://127.0.0.1:" + etcdClient,
                                    "--advertise-client-urls=http://127.0.0.1:" + etcdClient,
                                    "--listen-peer-urls=http://127.0.0.1:" + etcdPeer,
                                    "--initial-advertise-peer-urls=http://127.0.0.1:" + etcdPeer,
                                    "--initial-cluster=upshift-test=http://127.0.0.1:" + etcdPeer,
                                    "--quota-backend-bytes=8589934592",
                                    "--experimental-watch-progress-notify-interval=5s",
                                    "--log-level=warn"));
            if (!ready(etcd, () -> etcdHealthy(etcdClient), Duration.ofSeconds(60))) {
                last = new IOException("etcd did not start: " + tail("etcd"));
                stopProcess(etcd);
                continue;
            }
            Process apiServer =
                    start(
                            "kube-apiserver",
                            List.of(
                                    binaries.apiServer().toString(),
                                    "--bind-address=127.0.0.1",
                                    "--advertise-address=127.0.0.1",
                                    "--secure-port=" + api,
                                    "--etcd-servers=http://127.0.0.1:" + etcdClient,
                                    "--tls-cert-file=" + pki.serverCert,
                                    "--tls-private-key-file=" + pki.serverKey,
                                    "--client-ca-file=" + pki.caCert,
                                    "--token-auth-file=" + dir.resolve("tokens.csv"),
                                    "--service-account-issuer=https://kubernetes.default.svc",
                                    "--service-account-key-file=" + pki.serviceAccountPublicKey,
                                    "--service-account-signing-key-file=" + pki.serviceAccountKey,
                                    "--api-audiences=https://kubernetes.default.svc",
                                    "--service-cluster-ip-range=10.96.0.0/16",
                                    "--authorization-mode=Node,RBAC",
                                    "--endpoint-reconciler-type=none",
                                    "--allow-privileged=true",
                                    "--profiling=false",
                                    "--audit-policy-file=" + dir.resolve("audit-policy.yaml"),
                                    "--audit-log-path=" + dir.resolve("audit.log"),
                                    "--audit-log-format=json",
                                    "--audit-log-mode=blocking",
                                    "--audit-log-maxsize=100",
                                    "--audit-log-maxbackup=1",
                                    "--v=0"));
            if (!ready(apiServer, () -> readyz(api), Duration.ofMinutes(3))) {
                last = new IOException("kube-apiserver did not start: " + tail("kube-apiserver"));
                stopProcess(apiServer);
                stopProcess(etcd);
                continue;
            }
            return new int[] {api, etcdClient};
        }
        throw last;
    }

    /**
     * Starts kube-controller-manager with {@link #CONTROLLERS} once, and returns when its
     * ServiceAccount controller has made the default namespace's ServiceAccount (a pod needs its
     * namespace's).
     */
    synchronized void startControllerManager() {
        if (controllerManager != null) return;
        try {
            Path kubeconfig = dir.resolve("controller-manager.kubeconfig");
            Files.writeString(kubeconfig, kubeconfig(controllerManagerToken));
            controllerManager =
                    start(
                            "kube-controller-manager",
                            List.of(
                                    binaries.controllerManager().toString(),
                                    "--kubeconfig=" + kubeconfig,
                                    "--secure-port=0",
                                    "--leader-elect=false",
                                    "--use-service-account-credentials=true",
                                    "--service-account-private-key-file=" + pki.serviceAccountKey,
                                    "--root-ca-file=" + pki.caCert,
                                    "--controllers=" + CONTROLLERS,
                                    "--concurrent-gc-syncs=5",
                                    "--v=0"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Process p = controllerManager;
        // its controllers run once a namespace made now gets its default ServiceAccount
        String probe = "upshift-controllers-" + Long.toHexString(System.nanoTime());
        admin.namespaces()
                .resource(
                        new io.fabric8.kubernetes.api.model.NamespaceBuilder()
                                .withNewMetadata()
                                .withName(probe)
                                .endMetadata()
                                .build())
                .create();
        boolean up =
                ready(
                        p,
                        () ->
                                admin.serviceAccounts().inNamespace(probe).withName("default").get()
                                        != null,
                        Duration.ofMinutes(3));
        admin.namespaces().withName(probe).delete();
        if (!up)
            throw new IllegalStateException(
                    "kube-controller-manager did not start: " + tail("kube-controller-manager"));
    }

    /** Stops kube-controller-manager if it runs (a later test that asks starts it again). */
    synchronized void stopControllerManager() {
        Process p = controllerManager;
        if (p == null) return;
        controllerManager = null;
        stopProcess(p);
        synchronized (processes) {
            processes.remove(p);
        }
    }

    boolean controllerManagerRunning() {
        return controllerManager != null;
    }

    /** A client configuration for this server with {@code token}, whose requests carry agent. */
    Config config(String userAgent, String token) {
        return new ConfigBuilder(Config.empty())
                .withMasterUrl(url())
                .withCaCertData(pki.caData())
                .withOauthToken(token)
                .withUserAgent(userAgent)
                .withNamespace("default")
                .withRequestTimeout(60_000)
                .withConnectionTimeout(30_000)
                .build();
    }

    String url() {
        return "https://127.0.0.1:" + port;
    }

    /** A kubeconfig with {@code token} that trusts this server's CA alone. */
    String kubeconfig(String token) {
        return "apiVersion: v1\n"
                + "kind: Config\n"
                + "clusters:\n"
                + "- name: upshift-test\n"
                + "  cluster: {server: '"
                + url()
                + "', certificate-authority-data: "
                + pki.caData()
                + "}\n"
                + "users:\n"
                + "- name: upshift-test\n"
                + "  user: {token: '"
                + token
                + "'}\n"
                + "contexts:\n"
                + "- name: upshift-test\n"
                + "  context: {cluster: upshift-test, user: upshift-test}\n"
                + "current-context: upshift-test\n";
    }

    private Process start(String name, List<String> command) throws IOException {
        // the process is a child of a small shell that ends it as soon as this JVM's end of its
        // stdin closes: when the JVM exits, however it exits, nothing is left behind
        List<String> wrapped = new ArrayList<>();
        wrapped.add("bash");
        wrapped.add("-c");
        wrapped.add(
                "exec 3<&0; \"$@\" </dev/null & child=$!; "
                        + "{ while read -r -u 3 _; do :; done; kill -TERM $child 2>/dev/null; } &"
                        + " watcher=$!; wait $child; status=$?; kill $watcher 2>/dev/null; exit"
                        + " $status");
        wrapped.add(name);
        wrapped.addAll(command);
        Process p =
                new ProcessBuilder(wrapped)
                        .redirectErrorStream(true)
                        .redirectOutput(
                                ProcessBuilder.Redirect.appendTo(
                                        dir.resolve(name + ".log").toFile()))
                        .start();
        synchronized (processes) {
            processes.add(p);
        }
        return p;
    }

    private boolean ready(Process p, BooleanSupplier check, Duration bound) {
        long deadline = System.nanoTime() + bound.toNanos();
        while (System.nanoTime() < deadline) {
            if (!p.isAlive()) return false;
            try {
                if (check.getAsBoolean()) return true;
            } catch (RuntimeException notYet) {
                // not serving yet
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return false;
    }

    private static void waitFor(String what, Duration bound, BooleanSupplier check) {
        long deadline = System.nanoTime() + bound.toNanos();
        while (System.nanoTime() < deadline) {
            try {
                if (check.getAsBoolean()) return;
            } catch (RuntimeException notYet) {
                // not yet
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        throw new IllegalStateException(
                what + " did not appear within " + bound.toSeconds() + " s");
    }

    private static final HttpClient PLAIN = HttpClient.newHttpClient();

    private static boolean etcdHealthy(int port) {
        try {
            return PLAIN.send(
                                    HttpRequest.newBuilder(
                                                    URI.create(
                                                            "http://127.0.0.1:" + port + "/health"))
                                            .timeout(Duration.ofSeconds(5))
                                            .build(),
                                    HttpResponse.BodyHandlers.ofString())
                            .statusCode()
                    == 200;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private boolean readyz(int port) {
        try {
            return HttpClient.newBuilder()
                            .sslContext(pki.trust())
                            .build()
                            .send(
                                    HttpRequest.newBuilder(
                                                    URI.create(
                                                            "https://127.0.0.1:"
                                                                    + port
                                                                    + "/readyz"))
                                            .header("Authorization", "Bearer " + adminToken)
                                            .timeout(Duration.ofSeconds(5))
                                            .build(),
                                    HttpResponse.BodyHandlers.ofString())
                            .statusCode()
                    == 200;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** The last lines of a process's log, for a failure message. */
    String tail(String name) {
        try {
            List<String> lines = Files.readAllLines(dir.resolve(name + ".log"));
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 15), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    private static String randomToken() {
        byte[] b = new byte[24];
        new SecureRandom().nextBytes(b);
        return HexFormat.of().formatHex(b);
    }

    private void stop() {
        List<Process> all;
        synchronized (processes) {
            all = new ArrayList<>(processes);
        }
        // the controller-manager first, etcd last: each stops while what it talks to still runs
        for (int i = all.size() - 1; i >= 0; i--) stopProcess(all.get(i));
        if (dir != null) deleteTree(dir);
    }

    private static void stopProcess(Process p) {
        try {
            p.getOutputStream().close();
        } catch (IOException e) {
            // already closed
        }
        try {
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
                p.waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    private static void deleteTree(Path dir) {
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
        } catch (IOException e) {
            // a temporary folder: what is left the system cleans
        }
    }
}
