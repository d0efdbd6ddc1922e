package io.upshift.clusterversion.controller;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.upshift.api.json.Mappers;
import io.upshift.clusterversion.merge.ResourceMerge;
import io.upshift.releases.image.ControllerDeployment;
import io.upshift.releases.manifest.ManifestTemplate;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The controller's Deployment a release carries (deploy/'s), taking over the installed one with it
 * (the Deployment merge, upstream's {@code lib/resourcemerge}) leaves the pod everything the new
 * controller needs: its args with {@code --release}, the node name, the payload directory, its
 * probes and placement.
 */
class ControllerTakeoverTest {

    private static final String INSTALLED_IMAGE =
            "registry.example/upshift@sha256:" + "a".repeat(64);
    private static final String NEW_RELEASE = "registry.example/releases@sha256:" + "b".repeat(64);

    @TempDir Path dir;

    @Test
    void aTakeoverOfTheInstalledDeploymentKeepsWhatTheNewControllerNeeds() throws Exception {
        // as installed: deploy/ with the image set and --release added (a kustomize patch), as the
        // API server returns it
        ObjectNode live = ControllerDeployment.installed();
        live.with("metadata").put("resourceVersion", "12").put("uid", "u1").put("generation", 1);
        ObjectNode liveContainer = ControllerDeployment.container(live);
        liveContainer
                .put("image", INSTALLED_IMAGE)
                .put("imagePullPolicy", "IfNotPresent")
                .put("terminationMessagePath", "/dev/termination-log");
        liveContainer.withArrayProperty("args").add("--release").add(INSTALLED_IMAGE);

        ResourceMerge.Merged merged =
                ResourceMerge.merge(live, render(ControllerDeployment.manifest(), NEW_RELEASE));

        assertThat(merged.changed()).isTrue();
        assertThat(merged.held()).as("immutable fields the takeover asks to change").isEmpty();
        JsonNode pod = merged.object().path("spec").path("template").path("spec");
        JsonNode container = ControllerDeployment.container(merged.object());
        assertThat(container.path("image").asText()).isEqualTo(NEW_RELEASE);
        assertThat(strings(container.path("args")))
                .containsExactly(
                        "operator",
                        "--namespace",
                        "openshift-cluster-version",
                        "--identity",
                        "$(POD_NAME)",
                        "--metrics-port",
                        "9099",
                        "--metrics-auth",
                        "token",
                        "--serving-cert-file",
                        "/etc/tls/serving-cert/tls.crt",
                        "--serving-key-file",
                        "/etc/tls/serving-cert/tls.key",
                        "--serving-cert-optional",
                        "--health-port",
                        "9098",
                        "--payload-cache",
                        "/var/lib/upshift/payloads",
                        "--always-enable-capabilities=Ingress",
                        "--release",
                        NEW_RELEASE);
        assertThat(container.path("env").toString())
                .contains(
                        "{\"name\":\"NODE_NAME\",\"valueFrom\":{\"fieldRef\":{\"fieldPath\":\"spec.nodeName\"")
                .contains(
                        "{\"name\":\"POD_NAME\",\"valueFrom\":{\"fieldRef\":{\"fieldPath\":\"metadata.name\"");
        assertThat(container.path("volumeMounts").get(0).path("mountPath").asText())
                .isEqualTo("/var/lib/upshift/payloads");
        assertThat(pod.path("volumes").get(0).path("hostPath").path("path").asText())
                .isEqualTo("/var/lib/upshift/payloads");
        assertThat(container.path("readinessProbe").path("httpGet").path("path").asText())
                .isEqualTo("/readyz");
        assertThat(container.path("livenessProbe").path("httpGet").path("path").asText())
                .isEqualTo("/healthz");
        assertThat(pod.path("priorityClassName").asText()).isEqualTo("system-cluster-critical");
        assertThat(pod.path("tolerations")).hasSize(4);
        assertThat(merged.object().path("spec").path("strategy").path("type").asText())
                .isEqualTo("Recreate");
    }

    @Test
    void aTakeoverOfAnIncompleteDeploymentGivesItWhatItLacks() throws Exception {
        // an older release's Deployment: args alone, no env, volumes or probes
        ObjectNode live =
                (ObjectNode)
                        Mappers.YAML.readTree(
                                """
                                apiVersion: apps/v1
                                kind: Deployment
                                metadata: {name: cluster-version-operator, namespace: openshift-cluster-version, labels: {app.kubernetes.io/name: upshift}, resourceVersion: "3"}
                                spec:
                                  replicas: 1
                                  strategy: {type: Recreate}
                                  selector: {matchLabels: {app.kubernetes.io/name: upshift}}
                                  template:
                                    metadata: {labels: {app.kubernetes.io/name: upshift}}
                                    spec:
                                      serviceAccountName: upshift
                                      containers:
                                      - name: controller
                                        image: old
                                        args: [operator, --namespace, upshift, --release, old]
                                """);
        JsonNode merged =
                ResourceMerge.merge(live, render(ControllerDeployment.manifest(), NEW_RELEASE))
                        .object();
        JsonNode container = ControllerDeployment.container(merged);
        assertThat(container.path("env").findValuesAsText("name"))
                .containsExactly("NODE_NAME", "POD_NAME");
        assertThat(container.path("volumeMounts").findValuesAsText("name"))
                .containsExactly("payloads", "service-ca", "serving-cert", "tmp");
        List<String> volumes = new ArrayList<>();
        merged.path("spec")
                .path("template")
                .path("spec")
                .path("volumes")
                .forEach(v -> volumes.add(v.path("name").asText()));
        assertThat(volumes).containsExactly("payloads", "service-ca", "serving-cert", "tmp");
        assertThat(strings(container.path("args")))
                .endsWith("--release", NEW_RELEASE)
                .doesNotContain("old");
    }

    private static JsonNode render(String manifest, String releaseImage) throws Exception {
        return Mappers.YAML.readTree(
                new ManifestTemplate(releaseImage, "self-managed-high-availability", Map.of())
                        .render(manifest));
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }
}
