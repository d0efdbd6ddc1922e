package io.upshift.operator.cvo;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.upshift.core.payload.Manifest;
import io.upshift.core.payload.ManifestReader;
import io.upshift.core.taskgraph.Mode;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Applying manifests on the CRUD API server: no write without a difference, and the kinds with their own rules. */
@EnableKubernetesMockClient(crud = true)
class ManifestApplierTest {

    KubernetesClient client;
    LiveCache cache;
    ManifestApplier applier;

    @BeforeEach
    void setUp() {
        cache = new LiveCache(client, l -> { });
        applier = new ManifestApplier(client, cache, l -> { });
    }

    @AfterEach
    void tearDown() {
        cache.close();
    }

    static Manifest manifest(String yaml) throws Exception {
        return ManifestReader.read("0000_50_test_x.yaml", yaml).get(0);
    }

    ManifestApplier.Outcome applyAndSettle(Manifest m) throws InterruptedException {
        ManifestApplier.Outcome o = applier.apply(m, Mode.UPDATING).outcome();
        Thread.sleep(300); // let the informer see our own write
        return o;
    }

    @Test
    void writesOnlyWhatDiffersAndKeepsWhatOthersSet() throws Exception {
        Manifest d = manifest("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  namespace: ns\n  labels: {app: web}\n"
                + "spec:\n  replicas: 2\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n"
                + "    spec:\n      containers:\n      - {name: web, image: 'web:1'}\n");
        assertThat(applyAndSettle(d)).isEqualTo(ManifestApplier.Outcome.CREATED);
        assertThat(applyAndSettle(d)).isEqualTo(ManifestApplier.Outcome.UNCHANGED);
        // another writer adds a label and a field the manifest does not set: nothing to do
        Deployment live = client.apps().deployments().inNamespace("ns").withName("web").get();
        live.getMetadata().getLabels().put("owner", "someone");
        live.getSpec().setRevisionHistoryLimit(5);
        client.apps().deployments().inNamespace("ns").resource(live).update();
        Thread.sleep(300);
        assertThat(applyAndSettle(d)).isEqualTo(ManifestApplier.Outcome.UNCHANGED);
        // someone scales it: the manifest's value comes back, the other fields stay
        live = client.apps().deployments().inNamespace("ns").withName("web").get();
        live.getSpec().setReplicas(5);
        client.apps().deployments().inNamespace("ns").resource(live).update();
        Thread.sleep(300);
        assertThat(applyAndSettle(d)).isEqualTo(ManifestApplier.Outcome.PATCHED);
        Deployment after = client.apps().deployments().inNamespace("ns").withName("web").get();
        assertThat(after.getSpec().getReplicas()).isEqualTo(2);
        assertThat(after.getSpec().getRevisionHistoryLimit()).isEqualTo(5);
        assertThat(after.getMetadata().getLabels()).containsEntry("owner", "someone").containsEntry("app", "web");
        assertThat(after.getSpec().getTemplate().getSpec().getContainers()).hasSize(1);
        assertThat(applier.writes.get()).isEqualTo(2);
    }

    @Test
    void configMapAndSecretDataBelongToThePayload() throws Exception {
        Manifest cm = manifest("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: conf\n  namespace: ns\ndata:\n  a: '1'\n");
        applyAndSettle(cm);
        ConfigMap live = client.configMaps().inNamespace("ns").withName("conf").get();
        live.setData(Map.of("a", "1", "extra", "x"));
        client.configMaps().inNamespace("ns").resource(live).update();
        Thread.sleep(300);
        assertThat(applyAndSettle(cm)).isEqualTo(ManifestApplier.Outcome.PATCHED);
        assertThat(client.configMaps().inNamespace("ns").withName("conf").get().getData()).containsExactly(Map.entry("a", "1"));

        Manifest secret = manifest("apiVersion: v1\nkind: Secret\nmetadata:\n  name: s\n  namespace: ns\nstringData:\n  token: abc\n");
        assertThat(applyAndSettle(secret)).isEqualTo(ManifestApplier.Outcome.CREATED);
        Secret s = client.secrets().inNamespace("ns").withName("s").get();
        assertThat(s.getData()).containsEntry("token", "YWJj");
        assertThat(applyAndSettle(secret)).isEqualTo(ManifestApplier.Outcome.UNCHANGED); // stringData compared as data
    }

    @Test
    void aChangedJobIsReplacedAndCreateOnlyAndDeleteAreHonoured() throws Exception {
        String job = "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: migrate\n  namespace: ns\nspec:\n  template:\n    spec:\n"
                + "      restartPolicy: Never\n      containers:\n      - {name: m, image: 'migrate:VERSION'}\n";
        applyAndSettle(manifest(job.replace("VERSION", "1")));
        assertThat(applyAndSettle(manifest(job.replace("VERSION", "2")))).isEqualTo(ManifestApplier.Outcome.CREATED);
        Job j = client.batch().v1().jobs().inNamespace("ns").withName("migrate").get();
        assertThat(j.getSpec().getTemplate().getSpec().getContainers().get(0).getImage()).isEqualTo("migrate:2");

        Manifest once = manifest("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: seed\n  namespace: ns\n  annotations:\n"
                + "    release.openshift.io/create-only: 'true'\ndata: {a: '1'}\n");
        applyAndSettle(once);
        ConfigMap seed = client.configMaps().inNamespace("ns").withName("seed").get();
        seed.setData(Map.of("a", "changed"));
        client.configMaps().inNamespace("ns").resource(seed).update();
        Thread.sleep(300);
        assertThat(applyAndSettle(once)).isEqualTo(ManifestApplier.Outcome.UNCHANGED);

        Manifest gone = manifest("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: seed\n  namespace: ns\n  annotations:\n"
                + "    release.openshift.io/delete: 'true'\n");
        assertThat(applier.apply(gone, Mode.RECONCILING).outcome()).isEqualTo(ManifestApplier.Outcome.UNCHANGED);
        assertThat(applyAndSettle(gone)).isEqualTo(ManifestApplier.Outcome.DELETED);
        assertThat(client.configMaps().inNamespace("ns").withName("seed").get()).isNull();
    }
}
