package io.upshift.clusterversion.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.openshift.api.model.config.v1.ClusterOperator;
import io.upshift.base.proxy.ClusterProxy;
import io.upshift.releases.manifest.Manifest;
import io.upshift.releases.manifest.ManifestReader;
import io.upshift.releases.taskgraph.Mode;
import io.upshift.runtime.kube.Changes;
import io.upshift.runtime.kube.OptionalInformer;
import io.upshift.testkit.ApiServer;
import io.upshift.testkit.ApiServers;
import io.upshift.testkit.WithStatus;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Applying manifests on an API server ({@link ApiServers}: the real one when there): no write
 * without a difference, upstream's per-kind merge, updates conditional on the resourceVersion read,
 * immutable fields never written. {@link ManifestApplierOlderServerTest}: no write loop where the
 * server keeps a manifest otherwise than written.
 */
@Tag("e2e")
class ManifestApplierTest {

    final ApiServer server =
            ApiServers.start("clusteroperators.config.openshift.io", "proxies.config.openshift.io");
    final KubernetesClient client = namespace(server.client(), "ns");
    final LiveCache cache = new LiveCache(client, new Changes());
    final OptionalInformer<GenericKubernetesResource> proxies = ClusterCaches.proxyInformer(client);
    final ManifestApplier applier = new ManifestApplier(client, cache, this::clusterProxy);

    ClusterProxy clusterProxy() {
        proxies.start().join();
        return ClusterCaches.clusterProxy(proxies);
    }

    @AfterEach
    void tearDown() {
        proxies.close();
        cache.close();
        server.close();
    }

    /** {@code client}, once the namespace {@code name} the manifests go to exists. */
    static KubernetesClient namespace(KubernetesClient client, String name) {
        client.namespaces()
                .resource(
                        new NamespaceBuilder()
                                .withNewMetadata()
                                .withName(name)
                                .endMetadata()
                                .build())
                .create();
        return client;
    }

    static Manifest manifest(String yaml) throws Exception {
        return ManifestReader.read("0000_50_test_x.yaml", yaml).get(0);
    }

    /** Applies, then waits until the cache holds what the API server holds (our write included). */
    ManifestApplier.Outcome applyAndSettle(Manifest m) {
        ManifestApplier.Outcome o = applier.apply(m, Mode.UPDATING).outcome();
        settle(m);
        return o;
    }

    void settle(Manifest m) {
        await().atMost(Duration.ofSeconds(60))
                .until(
                        () -> {
                            GenericKubernetesResource live = LiveObjects.of(client, m).get();
                            GenericKubernetesResource cached = cache.get(m);
                            return live == null
                                    ? cached == null
                                    : cached != null
                                            && Objects.equals(
                                                    live.getMetadata().getResourceVersion(),
                                                    cached.getMetadata().getResourceVersion());
                        });
    }

    static final String WEB =
            "apiVersion: apps/v1\n"
                    + "kind: Deployment\n"
                    + "metadata:\n"
                    + "  name: web\n"
                    + "  namespace: ns\n"
                    + "  labels: {app: web}\n"
                    + "spec:\n"
                    + "  replicas: 2\n"
                    + "  selector: {matchLabels: {app: web}}\n"
                    + "  template:\n"
                    + "    metadata: {labels: {app: web}}\n"
                    + "    spec:\n"
                    + "      containers:\n"
                    + "      - {name: web, image: 'web:1'}\n";

    @Test
    void aBindingWhoseRoleChangesIsCreatedAgainNeverRefusedAsImmutable() throws Exception {
        String binding =
                "apiVersion: rbac.authorization.k8s.io/v1\n"
                        + "kind: RoleBinding\n"
                        + "metadata:\n"
                        + "  name: reader\n"
                        + "  namespace: ns\n"
                        + "roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: %s}\n"
                        + "subjects:\n"
                        + "- {kind: ServiceAccount, name: app, namespace: ns}\n";
        Manifest old = manifest(String.format(binding, "old-role"));
        assertThat(applyAndSettle(old)).isEqualTo(ManifestApplier.Outcome.CREATED);
        String uid = LiveObjects.of(client, old).get().getMetadata().getUid();
        Manifest changed = manifest(String.format(binding, "new-role"));
        assertThat(applyAndSettle(changed)).isEqualTo(ManifestApplier.Outcome.CREATED);
        GenericKubernetesResource live = LiveObjects.of(client, changed).get();
        assertThat(live.getMetadata().getUid()).isNotEqualTo(uid);
        assertThat(live.getAdditionalProperties().get("roleRef").toString()).contains("new-role");
        assertThat(server.invalidWrites()).isEmpty();
        assertThat(applyAndSettle(changed)).isEqualTo(ManifestApplier.Outcome.UNCHANGED);
    }

    @Test
    void writesOnlyWhatDiffersAndKeepsWhatOthersSet() throws Exception {
        Manifest d = manifest(WEB);
        assertThat(applyAndSettle(d)).isEqualTo(ManifestApplier.Outcome.CREATED);
        assertThat(applyAndSettle(d)).isEqualTo(ManifestApplier.Outcome.UNCHANGED);
        // another writer adds a label and a field the manifest does not set: nothing to do
        Deployment live = client.apps().deployments().inNamespace("ns").withName("web").get();
        live.getMetadata().getLabels().put("owner", "someone");
        live.getSpec().setRevisionHistoryLimit(5);
        client.apps().deployments().inNamespace("ns").resource(live).update();
        settle(d);
        assertThat(applyAndSettle(d)).isEqualTo(ManifestApplier.Outcome.UNCHANGED);
        // someone scales it: the manifest's value comes back, the other fields stay
        live = client.apps().deployments().inNamespace("ns").withName("web").get();
        live.getSpec().setReplicas(5);
        client.apps().deployments().inNamespace("ns").resource(live).update();
        settle(d);
        assertThat(applyAndSettle(d)).isEqualTo(ManifestApplier.Outcome.UPDATED);
        Deployment after = client.apps().deployments().inNamespace("ns").withName("web").get();
        assertThat(after.getSpec().getReplicas()).isEqualTo(2);
        assertThat(after.getSpec().getRevisionHistoryLimit()).isEqualTo(5);
        assertThat(after.getMetadata().getLabels())
                .containsEntry("owner", "someone")
                .containsEntry("app", "web");
        assertThat(applier.writes.get()).isEqualTo(2);
    }

    @Test
    void anUpdateComputedFromAStaleReadIsRefusedAndTheOtherWritersChangeSurvivesTheRetry()
            throws Exception {
        Manifest d = manifest(WEB);
        applyAndSettle(d);
        Deployment live = client.apps().deployments().inNamespace("ns").withName("web").get();
        live.getSpec().setReplicas(7);
        client.apps().deployments().inNamespace("ns").resource(live).update(); // someone scales it
        settle(d);
        GenericKubernetesResource scaled = cache.get(d);
        live = client.apps().deployments().inNamespace("ns").withName("web").get();
        live.getMetadata().getLabels().put("owner", "someone");
        client.apps()
                .deployments()
                .inNamespace("ns")
                .resource(live)
                .update(); // someone else labels it
        // the applier computes replicas 2 from the scaled object, read before the label was added
        ManifestApplier stale = new ManifestApplier(client, m -> scaled, () -> ClusterProxy.NONE);
        assertThatThrownBy(() -> stale.apply(d, Mode.UPDATING))
                .isInstanceOfSatisfying(
                        KubernetesClientException.class,
                        e -> assertThat(e.getCode()).isEqualTo(409));
        settle(d);
        assertThat(applyAndSettle(d)).isEqualTo(ManifestApplier.Outcome.UPDATED);
        Deployment after = client.apps().deployments().inNamespace("ns").withName("web").get();
        assertThat(after.getSpec().getReplicas()).isEqualTo(2);
        assertThat(after.getMetadata().getLabels()).containsEntry("owner", "someone");
    }

    @Test
    void configMapAndSecretKeysOthersAddStay() throws Exception {
        Manifest cm =
                manifest(
                        "apiVersion: v1\n"
                                + "kind: ConfigMap\n"
                                + "metadata:\n"
                                + "  name: conf\n"
                                + "  namespace: ns\n"
                                + "  labels:\n"
                                + "    config.openshift.io/inject-trusted-cabundle: 'true'\n"
                                + "data:\n"
                                + "  a: '1'\n");
        applyAndSettle(cm);
        ConfigMap live = client.configMaps().inNamespace("ns").withName("conf").get();
        live.setData(Map.of("a", "1", "ca-bundle.crt", "injected"));
        client.configMaps().inNamespace("ns").resource(live).update();
        settle(cm);
        assertThat(applyAndSettle(cm)).isEqualTo(ManifestApplier.Outcome.UNCHANGED);
        assertThat(client.configMaps().inNamespace("ns").withName("conf").get().getData())
                .containsEntry("ca-bundle.crt", "injected");

        Manifest secret =
                manifest(
                        "apiVersion: v1\n"
                                + "kind: Secret\n"
                                + "metadata:\n"
                                + "  name: s\n"
                                + "  namespace: ns\n"
                                + "stringData:\n"
                                + "  token: abc\n");
        assertThat(applyAndSettle(secret)).isEqualTo(ManifestApplier.Outcome.CREATED);
        Secret s = client.secrets().inNamespace("ns").withName("s").get();
        assertThat(s.getData()).containsEntry("token", "YWJj");
        assertThat(applyAndSettle(secret))
                .isEqualTo(ManifestApplier.Outcome.UNCHANGED); // stringData compared as data
        s.getData().put("extra", "eA==");
        s.getData().put("token", "b3RoZXI=");
        client.secrets().inNamespace("ns").resource(s).update();
        settle(secret);
        assertThat(applyAndSettle(secret)).isEqualTo(ManifestApplier.Outcome.UPDATED);
        assertThat(client.secrets().inNamespace("ns").withName("s").get().getData())
                .containsEntry("token", "YWJj")
                .containsEntry("extra", "eA==");
    }

    @Test
    void aChangedJobIsUpdatedNotRecreatedAndCreateOnlyAndDeleteAreHonoured() throws Exception {
        String job =
                "apiVersion: batch/v1\n"
                        + "kind: Job\n"
                        + "metadata:\n"
                        + "  name: migrate\n"
                        + "  namespace: ns\n"
                        + "  labels: {step: LABEL}\n"
                        + "spec:\n"
                        + "  template:\n"
                        + "    spec:\n"
                        + "      restartPolicy: Never\n"
                        + "      containers:\n"
                        + "      - {name: m, image: 'migrate:VERSION'}\n";
        applyAndSettle(manifest(job.replace("VERSION", "1").replace("LABEL", "a")));
        String uid =
                client.batch()
                        .v1()
                        .jobs()
                        .inNamespace("ns")
                        .withName("migrate")
                        .get()
                        .getMetadata()
                        .getUid();
        // the pod template of a Job is immutable: it stays, while what may change is updated in
        // place
        assertThat(applyAndSettle(manifest(job.replace("VERSION", "2").replace("LABEL", "b"))))
                .isEqualTo(ManifestApplier.Outcome.UPDATED);
        Job j = client.batch().v1().jobs().inNamespace("ns").withName("migrate").get();
        assertThat(j.getMetadata().getLabels()).containsEntry("step", "b");
        assertThat(j.getSpec().getTemplate().getSpec().getContainers().get(0).getImage())
                .isEqualTo("migrate:1");
        assertThat(j.getMetadata().getUid()).isEqualTo(uid);
        assertThat(server.requests().matching(r -> "DELETE".equals(r.method()))).isEmpty();

        Manifest once =
                manifest(
                        "apiVersion: v1\n"
                                + "kind: ConfigMap\n"
                                + "metadata:\n"
                                + "  name: seed\n"
                                + "  namespace: ns\n"
                                + "  annotations:\n"
                                + "    release.openshift.io/create-only: 'true'\n"
                                + "data: {a: '1'}\n");
        applyAndSettle(once);
        ConfigMap seed = client.configMaps().inNamespace("ns").withName("seed").get();
        seed.setData(Map.of("a", "changed"));
        client.configMaps().inNamespace("ns").resource(seed).update();
        settle(once);
        assertThat(applyAndSettle(once)).isEqualTo(ManifestApplier.Outcome.UNCHANGED);

        Manifest gone =
                manifest(
                        "apiVersion: v1\n"
                                + "kind: ConfigMap\n"
                                + "metadata:\n"
                                + "  name: seed\n"
                                + "  namespace: ns\n"
                                + "  annotations:\n"
                                + "    release.openshift.io/delete: 'true'\n");
        assertThat(applier.apply(gone, Mode.RECONCILING).outcome())
                .isEqualTo(ManifestApplier.Outcome.UNCHANGED);
        assertThat(applyAndSettle(gone)).isEqualTo(ManifestApplier.Outcome.DELETED);
        assertThat(client.configMaps().inNamespace("ns").withName("seed").get()).isNull();
    }

    @Test
    void immutableFieldsAreNeverWrittenWhileTheRestIsUpdated() throws Exception {
        // created by an earlier release with a wider selector
        Manifest before =
                manifest(
                        WEB.replace(
                                        "matchLabels: {app: web}",
                                        "matchLabels: {app: web, tier: front}")
                                .replace(
                                        "metadata: {labels: {app: web}}",
                                        "metadata: {labels: {app: web, tier: front}}"));
        applyAndSettle(before);
        // the API server refuses to change it, as kube-apiserver does
        Deployment live = client.apps().deployments().inNamespace("ns").withName("web").get();
        live.getSpec().getSelector().getMatchLabels().remove("tier");
        assertThatThrownBy(
                        () -> client.apps().deployments().inNamespace("ns").resource(live).update())
                .isInstanceOfSatisfying(
                        KubernetesClientException.class,
                        e -> {
                            assertThat(e.getCode()).isEqualTo(422);
                            assertThat(e.getStatus().getMessage())
                                    .startsWith(
                                            "Deployment.apps \"web\" is invalid: spec.selector:"
                                                    + " Invalid value: ")
                                    .endsWith("field is immutable");
                        });
        int refused = server.invalidWrites().size();
        // the new release's selector differs: the image is updated, the selector stays, nothing is
        // refused
        assertThat(applyAndSettle(manifest(WEB.replace("web:1", "web:2"))))
                .isEqualTo(ManifestApplier.Outcome.UPDATED);
        Deployment after = client.apps().deployments().inNamespace("ns").withName("web").get();
        assertThat(after.getSpec().getSelector().getMatchLabels()).containsOnlyKeys("app", "tier");
        assertThat(after.getSpec().getTemplate().getSpec().getContainers().get(0).getImage())
                .isEqualTo("web:2");
        assertThat(applyAndSettle(manifest(WEB.replace("web:1", "web:2"))))
                .isEqualTo(ManifestApplier.Outcome.UNCHANGED);

        Manifest service =
                manifest(
                        "apiVersion: v1\n"
                                + "kind: Service\n"
                                + "metadata:\n"
                                + "  name: web\n"
                                + "  namespace: ns\n"
                                + "spec:\n"
                                + "  clusterIP: 10.96.0.7\n"
                                + "  selector: {app: web}\n"
                                + "  ports: [{name: http, port: 80}]\n");
        applyAndSettle(service);
        Manifest moved =
                manifest(
                        "apiVersion: v1\n"
                                + "kind: Service\n"
                                + "metadata:\n"
                                + "  name: web\n"
                                + "  namespace: ns\n"
                                + "spec:\n"
                                + "  clusterIP: 10.96.0.9\n"
                                + "  selector: {app: web}\n"
                                + "  ports: [{name: http, port: 80}]\n");
        assertThat(applyAndSettle(moved)).isEqualTo(ManifestApplier.Outcome.UNCHANGED);
        assertThat(
                        client.services()
                                .inNamespace("ns")
                                .withName("web")
                                .get()
                                .getSpec()
                                .getClusterIP())
                .isEqualTo("10.96.0.7");
        assertThat(server.invalidWrites()).hasSize(refused);
    }

    static final String PROXIED =
            WEB.replace(
                    "  labels: {app: web}\n",
                    "  labels: {app: web}\n"
                            + "  annotations: {config.openshift.io/inject-proxy: web}\n");

    void proxyStatus(String http, String noProxy) {
        GenericKubernetesResource proxy =
                new GenericKubernetesResourceBuilder()
                        .withApiVersion("config.openshift.io/v1")
                        .withKind("Proxy")
                        .withNewMetadata()
                        .withName("cluster")
                        .endMetadata()
                        .build();
        proxy.setAdditionalProperty("spec", Map.of());
        proxy.setAdditionalProperty(
                "status", Map.of("httpProxy", http, "httpsProxy", http, "noProxy", noProxy));
        var proxies = client.genericKubernetesResources("config.openshift.io/v1", "Proxy");
        if (proxies.withName("cluster").get() == null) WithStatus.create(client, proxy);
        else
            proxies.withName("cluster")
                    .editStatus(
                            p -> {
                                p.setAdditionalProperty(
                                        "status", proxy.getAdditionalProperties().get("status"));
                                return p;
                            });
    }

    List<EnvVar> webEnv() {
        return client.apps()
                .deployments()
                .inNamespace("ns")
                .withName("web")
                .get()
                .getSpec()
                .getTemplate()
                .getSpec()
                .getContainers()
                .get(0)
                .getEnv();
    }

    @Test
    void theClusterProxyIsSetIntoTheContainersAWorkloadNamesAndFollowsItsChanges()
            throws Exception {
        Manifest d = manifest(PROXIED);
        assertThat(applyAndSettle(d))
                .isEqualTo(ManifestApplier.Outcome.CREATED); // no Proxy yet: nothing to inject
        assertThat(webEnv()).isEmpty();
        proxyStatus("http://proxy:3128", ".cluster.local");
        await().atMost(Duration.ofSeconds(60)).until(() -> !clusterProxy().isNone());
        assertThat(applyAndSettle(d)).isEqualTo(ManifestApplier.Outcome.UPDATED);
        assertThat(webEnv())
                .extracting(e -> e.getName() + "=" + e.getValue())
                .containsExactly(
                        "HTTP_PROXY=http://proxy:3128",
                        "HTTPS_PROXY=http://proxy:3128",
                        "NO_PROXY=.cluster.local");
        assertThat(applyAndSettle(d)).isEqualTo(ManifestApplier.Outcome.UNCHANGED);
        proxyStatus("http://other:3128", ".cluster.local");
        await().atMost(Duration.ofSeconds(60))
                .until(() -> clusterProxy().httpProxy().equals("http://other:3128"));
        assertThat(applyAndSettle(d)).isEqualTo(ManifestApplier.Outcome.UPDATED);
        assertThat(webEnv()).extracting(e -> e.getValue()).contains("http://other:3128");
    }

    @Test
    void aClusterOperatorIsPreCreatedOnceWithItsRelatedObjects() throws Exception {
        Manifest co =
                manifest(
                        "apiVersion: config.openshift.io/v1\n"
                            + "kind: ClusterOperator\n"
                            + "metadata:\n"
                            + "  name: web\n"
                            + "spec: {}\n"
                            + "status:\n"
                            + "  versions: [{name: operator, version: '1.0'}]\n"
                            + "  relatedObjects: [{group: '', resource: namespaces, name: ns}]\n");
        assertThat(applier.precreate(co)).isTrue();
        settle(co);
        var created = client.resources(ClusterOperator.class).withName("web").get();
        assertThat(created.getStatus().getRelatedObjects())
                .extracting(r -> r.getResource() + "/" + r.getName())
                .containsExactly("namespaces/ns");
        assertThat(created.getStatus().getVersions())
                .isNullOrEmpty(); // versions are the operator's to report
        long writes = applier.writes.get();
        assertThat(applier.precreate(co)).isFalse();
        assertThat(applier.writes.get()).isEqualTo(writes);
    }

    static final String CRD =
            """
            apiVersion: apiextensions.k8s.io/v1
            kind: CustomResourceDefinition
            metadata: {name: widgets.example.com}
            spec:
              group: example.com
              names: {kind: Widget, plural: widgets}
              scope: Cluster
              versions:
              - name: v1
                served: true
                storage: true
                schema:
                  openAPIV3Schema:
                    type: object
                    x-kubernetes-validations: [{rule: "self.spec.size > 0", message: size must be positive}]
                    properties: {spec: {type: object, properties: {size: {type: integer}}}}
            """;
}
