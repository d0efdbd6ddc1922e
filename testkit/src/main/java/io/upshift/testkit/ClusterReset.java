package io.upshift.testkit;

import io.fabric8.kubernetes.api.model.APIGroup;
import io.fabric8.kubernetes.api.model.APIResource;
import io.fabric8.kubernetes.api.model.DeletionPropagation;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * Puts a real cluster back as it was when the control plane started, between two tests: every
 * object a test made (in any namespace, or cluster-scoped, custom resources included) is deleted at
 * once, its finalizers dropped and no grace period given, and its namespaces deleted and finalized,
 * as no kubelet or finalizing controller is there to do it; sweeps are repeated until one finds
 * nothing (a controller-manager may make a pod while the sweep deletes its owner). The objects the
 * control plane made itself (bootstrap roles, system namespaces and what is in them) stay. CRDs are
 * left to {@link RealApiServer}, which keeps those the next test asks for.
 */
final class ClusterReset {
    private static final Set<String> SYSTEM_NAMESPACES =
            Set.of("default", "kube-system", "kube-public", "kube-node-lease");

    /** Kinds the control plane owns, or that go with another ("group/plural"). */
    private static final Set<String> LEFT_ALONE =
            Set.of(
                    "/namespaces",
                    "/componentstatuses",
                    "/bindings",
                    "apiextensions.k8s.io/customresourcedefinitions",
                    "apiregistration.k8s.io/apiservices",
                    "flowcontrol.apiserver.k8s.io/flowschemas",
                    "flowcontrol.apiserver.k8s.io/prioritylevelconfigurations",
                    "networking.k8s.io/ipaddresses",
                    "networking.k8s.io/servicecidrs",
                    "events.k8s.io/events"); // the same objects as v1's events

    private final KubernetesClient admin;
    private final List<ResourceDefinitionContext> builtIn;
    private final Set<String> baseline = new HashSet<>();

    /**
     * Namespaces the server refuses to delete once made: kube-apiserver's own (default,
     * kube-system, kube-public), and, on OpenShift's fork of it, OpenShift's (openshift-config,
     * openshift-config-managed ...). They stay, emptied, as a real cluster keeps them.
     */
    private final Set<String> immortal = ConcurrentHashMap.newKeySet();

    private final ExecutorService pool =
            Executors.newFixedThreadPool(
                    6,
                    r -> {
                        Thread t = new Thread(r, "cluster-reset");
                        t.setDaemon(true);
                        return t;
                    });

    ClusterReset(KubernetesClient admin) {
        this.admin = admin;
        this.builtIn = discover();
        for (ResourceDefinitionContext kind : builtIn)
            for (GenericKubernetesResource o : list(kind)) baseline.add(o.getMetadata().getUid());
        for (Namespace ns : admin.namespaces().list().getItems())
            baseline.add(ns.getMetadata().getUid());
    }

    /** The built-in kinds that can be listed and deleted, at each group's preferred version. */
    private List<ResourceDefinitionContext> discover() {
        List<ResourceDefinitionContext> kinds = new ArrayList<>();
        for (APIResource r : admin.getApiResources("v1").getResources()) add(kinds, "", "v1", r);
        for (APIGroup g : admin.getApiGroups().getGroups()) {
            String gv = g.getPreferredVersion().getGroupVersion();
            for (APIResource r : admin.getApiResources(gv).getResources())
                add(kinds, g.getName(), g.getPreferredVersion().getVersion(), r);
        }
        return kinds;
    }

    private static void add(
            List<ResourceDefinitionContext> kinds, String group, String version, APIResource r) {
        if (r.getName().contains("/")) return; // a subresource
        if (!r.getVerbs().contains("list") || !r.getVerbs().contains("delete")) return;
        if (LEFT_ALONE.contains(group + "/" + r.getName())) return;
        kinds.add(
                new ResourceDefinitionContext.Builder()
                        .withGroup(group)
                        .withVersion(version)
                        .withPlural(r.getName())
                        .withKind(r.getKind())
                        .withNamespaced(r.getNamespaced())
                        .build());
    }

    /** Deletes what the last test made; throws when the cluster cannot be made clean. */
    void reset() {
        long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
        while (true) {
            int found = sweep();
            found += deleteNamespaces();
            if (found == 0) return;
            if (System.nanoTime() > deadline)
                throw new IllegalStateException(
                        "the cluster still holds "
                                + found
                                + " objects of the last test after 120 s");
        }
    }

    /** One pass over every kind; how many objects it found to delete. */
    private int sweep() {
        List<ResourceDefinitionContext> kinds = new ArrayList<>(builtIn);
        kinds.addAll(customKinds());
        AtomicInteger found = new AtomicInteger();
        List<Future<?>> done = new ArrayList<>();
        for (ResourceDefinitionContext kind : kinds)
            done.add(pool.submit(() -> found.addAndGet(sweep(kind))));
        for (Future<?> f : done) {
            try {
                f.get(120, TimeUnit.SECONDS);
            } catch (ExecutionException e) {
                throw new IllegalStateException("cannot reset the cluster: " + e.getCause(), e);
            } catch (Exception e) {
                throw new IllegalStateException("cannot reset the cluster: " + e, e);
            }
        }
        return found.get();
    }

    private int sweep(ResourceDefinitionContext kind) {
        int found = 0;
        for (GenericKubernetesResource o : list(kind)) {
            if (!made(kind, o)) continue;
            found++;
            delete(kind, o);
        }
        return found;
    }

    /** Whether a test made {@code o} (not the control plane). */
    private boolean made(ResourceDefinitionContext kind, GenericKubernetesResource o) {
        var m = o.getMetadata();
        if (baseline.contains(m.getUid())) return false;
        String ns = m.getNamespace();
        if (ns != null && !ns.isEmpty()) {
            if (SYSTEM_NAMESPACES.contains(ns) && !ns.equals("default")) return false;
            // what kube-controller-manager puts in every namespace, which stays with the namespace
            boolean stays = ns.equals("default") || immortal.contains(ns);
            if (kind.getPlural().equals("serviceaccounts") && m.getName().equals("default"))
                return !stays;
            if (kind.getPlural().equals("configmaps") && m.getName().equals("kube-root-ca.crt"))
                return !stays;
            return true;
        }
        // the controller-manager's own roles, made when it starts after the baseline
        return !m.getName().startsWith("system:");
    }

    private void delete(ResourceDefinitionContext kind, GenericKubernetesResource o) {
        var m = o.getMetadata();
        var resource =
                kind.isNamespaceScoped()
                        ? admin.genericKubernetesResources(kind)
                                .inNamespace(m.getNamespace())
                                .withName(m.getName())
                        : admin.genericKubernetesResources(kind).withName(m.getName());
        try {
            if (m.getFinalizers() != null && !m.getFinalizers().isEmpty())
                again(
                        () ->
                                resource.patch(
                                        PatchContext.of(PatchType.JSON_MERGE),
                                        "{\"metadata\":{\"finalizers\":null}}"));
            again(
                    () ->
                            resource.withGracePeriod(0)
                                    .withPropagationPolicy(DeletionPropagation.BACKGROUND)
                                    .delete());
        } catch (KubernetesClientException e) {
            if (e.getCode() != 404 && e.getCode() != 409) throw e;
        }
    }

    /**
     * Deletes the namespaces a test made (their content is gone: {@link #sweep}) and finalizes
     * them, as the namespace controller would; how many there were.
     */
    private int deleteNamespaces() {
        int found = 0;
        for (Namespace ns : again(() -> admin.namespaces().list().getItems())) {
            String name = ns.getMetadata().getName();
            if (baseline.contains(ns.getMetadata().getUid()) || immortal.contains(name)) continue;
            try {
                admin.namespaces().withName(name).delete();
            } catch (KubernetesClientException e) {
                if (e.getCode() == 403 && e.getMessage().contains("may not be deleted")) {
                    immortal.add(name);
                    continue;
                }
                if (e.getCode() != 404 && e.getCode() != 409) throw e;
            }
            found++;
            try {
                finalizeNamespace(name);
                admin.namespaces().withName(name).delete();
            } catch (KubernetesClientException e) {
                if (e.getCode() != 404 && e.getCode() != 409) throw e;
            }
        }
        return found;
    }

    /** PUT .../namespaces/NAME/finalize with no finalizers left. */
    private void finalizeNamespace(String name) {
        Namespace ns = admin.namespaces().withName(name).get();
        if (ns == null) return;
        ns.getSpec().setFinalizers(List.of());
        String url = admin.getMasterUrl() + "api/v1/namespaces/" + name + "/finalize";
        HttpRequest request =
                admin.getHttpClient()
                        .newHttpRequestBuilder()
                        .uri(url)
                        .put(
                                "application/json",
                                io.fabric8.kubernetes.client.utils.Serialization.asJson(ns))
                        .build();
        try {
            HttpResponse<String> answer =
                    admin.getHttpClient()
                            .sendAsync(request, String.class)
                            .get(60, TimeUnit.SECONDS);
            if (answer.code() >= 300 && answer.code() != 404 && answer.code() != 409)
                throw new IllegalStateException(
                        "cannot finalize namespace " + name + ": " + answer.body());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while finalizing namespace " + name);
        } catch (Exception e) {
            if (e instanceof IllegalStateException i) throw i;
            throw new IllegalStateException("cannot finalize namespace " + name + ": " + e, e);
        }
    }

    /** The kinds of the CRDs installed now, at their storage version. */
    private List<ResourceDefinitionContext> customKinds() {
        List<ResourceDefinitionContext> kinds = new ArrayList<>();
        for (CustomResourceDefinition crd :
                admin.apiextensions().v1().customResourceDefinitions().list().getItems()) {
            String version =
                    crd.getSpec().getVersions().stream()
                            .filter(CustomResourceDefinitionVersion::getServed)
                            .map(CustomResourceDefinitionVersion::getName)
                            .findFirst()
                            .orElse(null);
            if (version == null) continue;
            kinds.add(
                    new ResourceDefinitionContext.Builder()
                            .withGroup(crd.getSpec().getGroup())
                            .withVersion(version)
                            .withPlural(crd.getSpec().getNames().getPlural())
                            .withKind(crd.getSpec().getNames().getKind())
                            .withNamespaced("Namespaced".equals(crd.getSpec().getScope()))
                            .build());
        }
        return kinds;
    }

    private List<GenericKubernetesResource> list(ResourceDefinitionContext kind) {
        try {
            return again(
                    () ->
                            kind.isNamespaceScoped()
                                    ? admin.genericKubernetesResources(kind)
                                            .inAnyNamespace()
                                            .list()
                                            .getItems()
                                    : admin.genericKubernetesResources(kind).list().getItems());
        } catch (KubernetesClientException e) {
            if (e.getCode() == 404 || e.getCode() == 405) return List.of(); // a CRD just removed
            throw e;
        }
    }

    /**
     * {@code request}, done again when it failed without an answer (a connection the server closed
     * while idle between two tests): up to five times.
     */
    static <T> T again(Supplier<T> request) {
        for (int attempt = 1; ; attempt++) {
            try {
                return request.get();
            } catch (KubernetesClientException e) {
                if (e.getCode() != 0 || attempt == 5) throw e;
            }
        }
    }
}
