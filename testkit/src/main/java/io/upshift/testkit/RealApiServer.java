package io.upshift.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.authentication.TokenRequest;
import io.fabric8.kubernetes.api.model.authentication.TokenRequestBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.upshift.api.json.Mappers;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * A test's turn on the JVM's real control plane ({@link ControlPlane}): a kube-apiserver on etcd,
 * with kube-controller-manager when the test asked for its controllers. Opened by {@link
 * ApiServers}, for one test at a time; closed, it puts the cluster back as it found it ({@link
 * ClusterReset}), so that the next test starts on an empty cluster too.
 *
 * <p>The CRDs a test asks for when it opens (and installs later) are there for it alone: at the
 * next opening, those the next test does not ask for are deleted, and those it asks for again are
 * kept, emptied (a CRD takes a second or two to come and go).
 */
public final class RealApiServer implements ApiServer {
    static final String TEST_AGENT = "upshift-test";

    /**
     * A CRD this harness installed: from what manifest, and as which object at which generation (a
     * test may have changed it since).
     */
    private record Installed(String manifest, String uid, long generation) {}

    /** The CRDs this harness installed, by name. */
    private static final Map<String, Installed> installed = new ConcurrentHashMap<>();

    /** The turn under way, if any. */
    private static volatile RealApiServer current;

    private final ControlPlane plane;
    private final KubernetesClient client;
    private final RequestLog requests;
    private final Map<ServiceAccount, String> tokens = new ConcurrentHashMap<>();
    private boolean closed;

    RealApiServer(ControlPlane plane, boolean controllers, List<String> crds) {
        this.plane = plane;
        // tests run one at a time in a JVM: a turn still held is one a test forgot to close (its
        // set-up failed half-way, say); it ends here, rather than blocking every test after it
        RealApiServer stale = current;
        if (!plane.inUse.tryAcquire()) {
            System.out.println(
                    "API-semantics tests: the last test left its API server open; closing it");
            if (stale != null) stale.close();
            plane.inUse.acquireUninterruptibly();
        }
        try {
            // a test that did not ask for the controllers gets none: one that plays the Job
            // controller itself, say, must not find the real one writing the same status
            if (controllers) plane.startControllerManager();
            else plane.stopControllerManager();
            keepOnly(crds);
            for (String name : crds) install(name);
            client = new KubernetesClientBuilder().withConfig(config(TEST_AGENT)).build();
            requests = plane.audit.startLog();
            current = this;
        } catch (RuntimeException e) {
            plane.inUse.release();
            throw e;
        }
    }

    @Override
    public KubernetesClient client() {
        return client;
    }

    @Override
    public Config config(String userAgent) {
        return plane.config(userAgent, plane.adminToken);
    }

    @Override
    public Config config(String userAgent, ServiceAccount account) {
        return plane.config(userAgent, token(account));
    }

    /**
     * A token of {@code account} from the TokenRequest API, as the kubelet gets a pod's: the
     * account must exist ({@link #installRbac()} makes deploy/'s).
     */
    @Override
    public String token(ServiceAccount account) {
        return tokens.computeIfAbsent(account, this::requestToken);
    }

    private String requestToken(ServiceAccount account) {
        TokenRequest request =
                new TokenRequestBuilder()
                        .withNewSpec()
                        .withExpirationSeconds(Duration.ofHours(12).toSeconds())
                        .endSpec()
                        .build();
        try {
            return plane.admin
                    .serviceAccounts()
                    .inNamespace(account.namespace())
                    .withName(account.name())
                    .tokenRequest(request)
                    .getStatus()
                    .getToken();
        } catch (KubernetesClientException e) {
            if (e.getCode() == 404)
                throw new IllegalStateException(
                        "ServiceAccount "
                                + account
                                + " does not exist on kube-apiserver, which issues no token for"
                                + " it: installRbac() first, or create it",
                        e);
            throw e;
        }
    }

    @Override
    public String adminToken() {
        return plane.adminToken;
    }

    @Override
    public String kubeconfig() {
        return plane.kubeconfig(plane.adminToken);
    }

    @Override
    public String kubeconfig(ServiceAccount account) {
        return plane.kubeconfig(token(account));
    }

    @Override
    public RealApiServer installRbac() {
        for (String file :
                List.of(
                        "/deploy/namespace.yaml",
                        "/deploy/rbac.yaml",
                        "/deploy/rehearse-rbac.yaml"))
            for (JsonNode object : Manifests.read(file)) apply(object);
        return this;
    }

    /** Creates {@code object}, or replaces what is there, as an administrator's apply would. */
    private void apply(JsonNode object) {
        GenericKubernetesResource resource =
                Serialization.unmarshal(object.toString(), GenericKubernetesResource.class);
        try {
            plane.admin.resource(resource).create();
        } catch (KubernetesClientException e) {
            if (e.getCode() != 409) throw e;
            plane.admin.resource(resource).update();
        }
    }

    @Override
    public RealApiServer installCrds(String... names) {
        for (String name : names) install(name);
        return this;
    }

    /** Installs the CRD of deploy/crds {@code name}, unless it is there as that file has it. */
    private void install(String name) {
        String manifest = Crds.manifest(name);
        Installed before = installed.get(name);
        CustomResourceDefinition live = crd(name);
        if (before != null
                && live != null
                && before.manifest().equals(manifest)
                && before.uid().equals(live.getMetadata().getUid())
                && before.generation() == live.getMetadata().getGeneration()) {
            waitFor("CRD " + name + " Established", () -> established(name));
            return;
        }
        if (live != null) remove(name);
        CustomResourceDefinition crd;
        try {
            crd = Mappers.YAML.readValue(manifest, CustomResourceDefinition.class);
        } catch (IOException e) {
            throw new UncheckedIOException(name + ": " + e.getMessage(), e);
        }
        CustomResourceDefinition created =
                plane.admin.apiextensions().v1().customResourceDefinitions().resource(crd).create();
        installed.put(
                name,
                new Installed(
                        manifest,
                        created.getMetadata().getUid(),
                        created.getMetadata().getGeneration()));
        waitFor("CRD " + name + " Established", () -> established(name));
    }

    /**
     * Deletes every CRD but {@code wanted} (and what they serve), and waits until they are gone.
     */
    private void keepOnly(List<String> wanted) {
        Set<String> keep = Set.copyOf(wanted);
        for (CustomResourceDefinition crd :
                plane.admin.apiextensions().v1().customResourceDefinitions().list().getItems()) {
            String name = crd.getMetadata().getName();
            if (!keep.contains(name)) remove(name);
        }
    }

    private void remove(String name) {
        installed.remove(name);
        try {
            plane.admin.apiextensions().v1().customResourceDefinitions().withName(name).delete();
        } catch (KubernetesClientException e) {
            if (e.getCode() != 404) throw e;
        }
        waitFor("CRD " + name + " deleted", () -> crd(name) == null);
    }

    private CustomResourceDefinition crd(String name) {
        return plane.admin.apiextensions().v1().customResourceDefinitions().withName(name).get();
    }

    private boolean established(String name) {
        CustomResourceDefinition crd = crd(name);
        return crd != null
                && crd.getStatus() != null
                && crd.getStatus().getConditions() != null
                && crd.getStatus().getConditions().stream()
                        .anyMatch(
                                c ->
                                        c.getType().equals("Established")
                                                && c.getStatus().equals("True"));
    }

    private static void waitFor(String what, BooleanSupplier done) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (!done.getAsBoolean()) {
            if (System.nanoTime() > deadline)
                throw new IllegalStateException(what + ": not within 120 s");
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted: " + what);
            }
        }
    }

    @Override
    public String url() {
        return plane.url();
    }

    @Override
    public HttpClient httpClient() {
        return HttpClient.newBuilder().sslContext(plane.pki.trust()).build();
    }

    @Override
    public RequestLog requests() {
        return requests;
    }

    @Override
    public List<String> accessRefusals() {
        return plane.audit.refusals(401, 403);
    }

    @Override
    public List<String> invalidWrites() {
        return plane.audit.refusals(422);
    }

    @Override
    public boolean real() {
        return true;
    }

    @Override
    public String description() {
        return "kube-apiserver " + plane.binaries.version();
    }

    /** Whether kube-controller-manager runs: Deployments, Jobs, garbage collection, budgets. */
    public boolean controllers() {
        return plane.controllerManagerRunning();
    }

    /** Stops this test's use of the server and empties the cluster for the next. */
    @Override
    public void close() {
        synchronized (this) {
            if (closed) return;
            closed = true;
        }
        try {
            client.close();
            plane.reset.reset();
        } finally {
            if (current == this) current = null;
            plane.inUse.release();
        }
    }
}
