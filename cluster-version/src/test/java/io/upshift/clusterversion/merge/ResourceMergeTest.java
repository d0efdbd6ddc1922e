package io.upshift.clusterversion.merge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.upshift.api.json.Mappers;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.junit.jupiter.api.Test;

/**
 * The per-kind merge of a manifest into a live object, against what the upstream operator's merge
 * does.
 */
class ResourceMergeTest {

    static JsonNode yaml(String text) {
        try {
            return Mappers.YAML.readTree(text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static final String DEPLOYMENT =
            """
            apiVersion: apps/v1
            kind: Deployment
            metadata: {name: web, namespace: shop, labels: {app: web}}
            spec:
              selector: {matchLabels: {app: web}}
              template:
                metadata: {labels: {app: web}}
                spec:
                  containers:
                  - name: web
                    image: web:2
                    env: [{name: MODE, value: fast}]
                    resources: {requests: {cpu: 500m, memory: 1Gi}}
                    ports: [{name: http, containerPort: 8080}]
            """;

    /**
     * The Deployment as an API server returns it after creating the manifest: defaults filled in,
     * quantities normalised.
     */
    static final String DEPLOYMENT_LIVE =
            """
            apiVersion: apps/v1
            kind: Deployment
            metadata: {name: web, namespace: shop, labels: {app: web, team: blue}, resourceVersion: "7", uid: u1, generation: 1}
            spec:
              replicas: 1
              progressDeadlineSeconds: 600
              revisionHistoryLimit: 10
              selector: {matchLabels: {app: web}}
              strategy: {type: RollingUpdate, rollingUpdate: {maxSurge: 25%, maxUnavailable: 25%}}
              template:
                metadata: {labels: {app: web}}
                spec:
                  containers:
                  - name: web
                    image: web:2
                    imagePullPolicy: IfNotPresent
                    terminationMessagePath: /dev/termination-log
                    env: [{name: MODE, value: fast}]
                    resources: {requests: {cpu: "0.5", memory: 1024Mi}}
                    ports: [{name: http, containerPort: 8080, protocol: TCP}]
                  dnsPolicy: ClusterFirst
                  restartPolicy: Always
                  schedulerName: default-scheduler
                  terminationGracePeriodSeconds: 30
                  tolerations: [{key: team, operator: Exists}]
            status: {replicas: 1}
            """;

    @Test
    void aDeploymentAsTheServerDefaultedItIsLevel() {
        ResourceMerge.Merged merged = ResourceMerge.merge(yaml(DEPLOYMENT_LIVE), yaml(DEPLOYMENT));
        assertThat(merged.difference()).isNull();
        ResourceMerge.Merged moreCpu =
                ResourceMerge.merge(
                        yaml(DEPLOYMENT_LIVE.replace("\"0.5\"", "\"0.6\"")), yaml(DEPLOYMENT));
        assertThat(moreCpu.difference())
                .isEqualTo(".spec.template.spec.containers[0].resources.requests.cpu");
    }

    @Test
    void containersEnvAndPortsTheManifestNoLongerSetsAreRemovedWhileOthersFieldsStay() {
        ObjectNode live = (ObjectNode) yaml(DEPLOYMENT_LIVE);
        ObjectNode pod = (ObjectNode) live.at("/spec/template/spec");
        pod.withArray("containers")
                .addObject()
                .put("name", "old-sidecar")
                .put("image", "sidecar:1");
        ((ObjectNode) pod.at("/containers/0"))
                .withArray("env")
                .addObject()
                .put("name", "DEBUG")
                .put("value", "1");
        ResourceMerge.Merged merged = ResourceMerge.merge(live, yaml(DEPLOYMENT));
        assertThat(merged.changed()).isTrue();
        JsonNode result = merged.object();
        assertThat(result.at("/spec/template/spec/containers")).hasSize(1);
        assertThat(result.at("/spec/template/spec/containers/0/env")).hasSize(1);
        // what the server and others set survives: a label, a toleration, the pull policy, defaults
        assertThat(result.at("/metadata/labels/team").asText()).isEqualTo("blue");
        assertThat(result.at("/spec/template/spec/tolerations/0/key").asText()).isEqualTo("team");
        assertThat(result.at("/spec/template/spec/containers/0/imagePullPolicy").asText())
                .isEqualTo("IfNotPresent");
        assertThat(result.at("/metadata/resourceVersion").asText()).isEqualTo("7");
    }

    @Test
    void aSecurityContextSettingRootOrFalseIsKeptAsSetAndALiveObjectLackingItDiffers() {
        // deploy/pools.yaml's node agent: root (runAsUser 0), privileged; the zero values are set,
        // as Go's pointers hold them, not absent
        String agent =
                DEPLOYMENT
                        .replace(
                                "    image: web:2\n",
                                "    image: web:2\n"
                                    + "        securityContext: {privileged: true, runAsUser: 0,"
                                    + " allowPrivilegeEscalation: false}\n")
                        .replace(
                                "  containers:\n",
                                "  automountServiceAccountToken: false\n      containers:\n");
        ResourceMerge.Merged merged = ResourceMerge.merge(yaml(DEPLOYMENT_LIVE), yaml(agent));
        JsonNode pod = merged.object().at("/spec/template/spec");
        assertThat(pod.at("/containers/0/securityContext/runAsUser").isInt()).isTrue();
        assertThat(pod.at("/containers/0/securityContext/runAsUser").asInt()).isZero();
        assertThat(pod.at("/containers/0/securityContext/allowPrivilegeEscalation").isBoolean())
                .isTrue();
        assertThat(pod.at("/automountServiceAccountToken").isBoolean()).isTrue();
        assertThat(merged.difference()).isNotNull();

        // a live object that holds them as set is level; one that lost runAsUser 0 is not
        JsonNode level = merged.object().deepCopy();
        assertThat(ResourceMerge.merge(level, yaml(agent)).difference()).isNull();
        ObjectNode lost = (ObjectNode) merged.object().deepCopy();
        ((ObjectNode) lost.at("/spec/template/spec/containers/0/securityContext"))
                .remove("runAsUser");
        ResourceMerge.Merged again = ResourceMerge.merge(lost, yaml(agent));
        assertThat(again.difference())
                .isEqualTo(".spec.template.spec.containers[0].securityContext.runAsUser");
        assertThat(again.object().at("/spec/template/spec/containers/0/securityContext/runAsUser"))
                .isNotNull();

        // and a manifest that no longer sets one takes it away, as upstream's setInt64Ptr does
        ResourceMerge.Merged dropped = ResourceMerge.merge(level, yaml(DEPLOYMENT));
        assertThat(
                        dropped.object()
                                .at("/spec/template/spec/containers/0/securityContext")
                                .isMissingNode())
                .isTrue();
    }

    @Test
    void aNewImageIsTheFirstDifference() {
        ResourceMerge.Merged merged =
                ResourceMerge.merge(
                        yaml(DEPLOYMENT_LIVE), yaml(DEPLOYMENT.replace("web:2", "web:3")));
        assertThat(merged.difference()).isEqualTo(".spec.template.spec.containers[0].image");
        assertThat(merged.object().at("/spec/template/spec/containers/0/image").asText())
                .isEqualTo("web:3");
    }

    @Test
    void configMapKeysInjectedByOthersStay() {
        JsonNode live =
                yaml(
                        """
                        apiVersion: v1
                        kind: ConfigMap
                        metadata: {name: trusted-ca, namespace: shop, labels: {config.openshift.io/inject-trusted-cabundle: "true"}}
                        data: {ca-bundle.crt: "-----BEGIN CERTIFICATE-----", mode: slow}
                        """);
        JsonNode manifest =
                yaml(
                        """
                        apiVersion: v1
                        kind: ConfigMap
                        metadata: {name: trusted-ca, namespace: shop, labels: {config.openshift.io/inject-trusted-cabundle: "true"}}
                        data: {mode: fast}
                        """);
        JsonNode merged = ResourceMerge.merge(live, manifest).object();
        assertThat(merged.at("/data/ca-bundle.crt").asText()).startsWith("-----BEGIN");
        assertThat(merged.at("/data/mode").asText()).isEqualTo("fast");
        assertThat(ResourceMerge.merge(merged, manifest).changed()).isFalse();
    }

    @Test
    void aSecretKeepsKeysOthersAddAndItsStringDataComparesAsData() {
        JsonNode live =
                yaml(
                        """
                        apiVersion: v1
                        kind: Secret
                        metadata: {name: s, namespace: shop}
                        data: {token: c2VjcmV0, extra: eA==}
                        type: Opaque
                        """);
        JsonNode manifest =
                yaml(
                        """
                        apiVersion: v1
                        kind: Secret
                        metadata: {name: s, namespace: shop}
                        stringData: {token: secret}
                        type: Opaque
                        """);
        ResourceMerge.Merged merged = ResourceMerge.merge(live, manifest);
        assertThat(merged.changed()).isFalse();
        assertThat(merged.object().get("data").fieldNames())
                .toIterable()
                .containsExactly("token", "extra");
        assertThat(merged.object().has("stringData")).isFalse();
        ResourceMerge.Merged changed =
                ResourceMerge.merge(
                        live, yaml(manifest.toString().replace("\"secret\"", "\"other\"")));
        assertThat(changed.difference()).isEqualTo(".data.token");
        assertThat(changed.object().at("/data/extra").asText()).isEqualTo("eA==");
    }

    @Test
    void immutableFieldsKeepTheirLiveValueAndAreNamedWhileTheRestIsMerged() {
        ObjectNode live = (ObjectNode) yaml(DEPLOYMENT_LIVE);
        ((ObjectNode) live.at("/spec/selector/matchLabels")).put("tier", "front");
        String manifest = DEPLOYMENT.replace("image: web:2", "image: web:3");
        ResourceMerge.Merged merged = ResourceMerge.merge(live, yaml(manifest));
        assertThat(merged.held()).containsExactly("spec.selector");
        assertThat(merged.object().at("/spec/selector")).isEqualTo(live.at("/spec/selector"));
        assertThat(merged.object().at("/spec/template/spec/containers/0/image").asText())
                .isEqualTo("web:3");
        // nothing else to change: the selector alone is no reason to write
        ResourceMerge.Merged only = ResourceMerge.merge(live, yaml(DEPLOYMENT));
        assertThat(only.changed()).isFalse();
        assertThat(only.held()).containsExactly("spec.selector");
    }

    @Test
    void aServiceKeepsTheClusterIpItWasGivenEvenWhenTheManifestNamesAnother() {
        JsonNode live =
                yaml(
                        """
                        apiVersion: v1
                        kind: Service
                        metadata: {name: web, namespace: shop}
                        spec: {clusterIP: 10.0.0.7, clusterIPs: [10.0.0.7], type: ClusterIP, ports: [{name: http, port: 80, targetPort: 80, protocol: TCP}]}
                        """);
        ResourceMerge.Merged merged =
                ResourceMerge.merge(
                        live,
                        yaml(
                                """
                                apiVersion: v1
                                kind: Service
                                metadata: {name: web, namespace: shop}
                                spec: {clusterIP: 10.0.0.9, ports: [{name: http, port: 80}]}
                                """));
        assertThat(merged.changed()).isFalse();
        assertThat(merged.held()).containsExactly("spec.clusterIP");
    }

    @Test
    void aJobIsUpdatedWhereItMayChangeAndItsPodTemplateStays() {
        String job =
                """
                apiVersion: batch/v1
                kind: Job
                metadata: {name: migrate, namespace: x}
                spec: {activeDeadlineSeconds: 600, template: {spec: {restartPolicy: Never, containers: [{name: m, image: "migrate:1"}]}}}
                """;
        ObjectNode live = ResourceMerge.merge(yaml(job), yaml(job)).object();
        ((ObjectNode) live.at("/spec"))
                .set("selector", yaml("{matchLabels: {controller-uid: u1}}"));
        ((ObjectNode) live.at("/spec/template"))
                .set("metadata", yaml("{labels: {controller-uid: u1, job-name: migrate}}"));
        assertThat(ResourceMerge.merge(live, yaml(job)).changed()).isFalse();
        ResourceMerge.Merged merged =
                ResourceMerge.merge(
                        live, yaml(job.replace("migrate:1", "migrate:2").replace("600", "900")));
        assertThat(merged.difference()).isEqualTo(".spec.activeDeadlineSeconds");
        assertThat(merged.held()).containsExactly("spec.template");
        assertThat(merged.object().at("/spec/template")).isEqualTo(live.at("/spec/template"));
        assertThat(merged.object().at("/spec/selector")).isEqualTo(live.at("/spec/selector"));
    }

    @Test
    void aClaimMayOnlyGrowItsRequestAndKeepsWhatTheBinderAndDefaultsSet() {
        String manifest =
                """
                apiVersion: v1
                kind: PersistentVolumeClaim
                metadata: {name: data, namespace: x}
                spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
                """;
        ObjectNode live = (ObjectNode) yaml(manifest);
        ((ObjectNode) live.at("/spec"))
                .put("volumeName", "pv-1")
                .put("volumeMode", "Filesystem")
                .put("storageClassName", "standard");
        assertThat(ResourceMerge.merge(live, yaml(manifest)).changed()).isFalse();
        ResourceMerge.Merged grown =
                ResourceMerge.merge(
                        live,
                        yaml(
                                manifest.replace("1Gi", "2Gi")
                                        .replace("ReadWriteOnce", "ReadWriteMany")));
        assertThat(grown.difference()).isEqualTo(".spec.resources.requests.storage");
        assertThat(grown.held()).containsExactly("spec.accessModes");
        assertThat(grown.object().at("/spec/volumeName").asText()).isEqualTo("pv-1");
        assertThat(grown.object().at("/spec/accessModes/0").asText()).isEqualTo("ReadWriteOnce");
    }

    @Test
    void anImmutableConfigMapsDataStays() {
        JsonNode live =
                yaml(
                        """
                        apiVersion: v1
                        kind: ConfigMap
                        metadata: {name: frozen, namespace: x}
                        immutable: true
                        data: {a: "1"}
                        """);
        ResourceMerge.Merged merged =
                ResourceMerge.merge(
                        live,
                        yaml(
                                """
                                apiVersion: v1
                                kind: ConfigMap
                                metadata: {name: frozen, namespace: x}
                                immutable: true
                                data: {a: "2", b: "3"}
                                """));
        assertThat(merged.changed()).isFalse();
        assertThat(merged.held()).containsExactly("data");
    }

    @Test
    void aServiceKeepsItsClusterIpAndDropsAPortNoLongerListed() {
        JsonNode live =
                yaml(
                        """
                        apiVersion: v1
                        kind: Service
                        metadata: {name: web, namespace: shop}
                        spec:
                          clusterIP: 10.0.0.7
                          type: ClusterIP
                          selector: {app: web}
                          ports: [{name: http, port: 80, targetPort: 80, protocol: TCP}, {name: debug, port: 9000, targetPort: 9000, protocol: TCP}]
                        """);
        JsonNode manifest =
                yaml(
                        """
                        apiVersion: v1
                        kind: Service
                        metadata: {name: web, namespace: shop}
                        spec:
                          selector: {app: web}
                          ports: [{name: http, port: 80}]
                        """);
        JsonNode merged = ResourceMerge.merge(live, manifest).object();
        assertThat(merged.at("/spec/clusterIP").asText()).isEqualTo("10.0.0.7");
        assertThat(merged.at("/spec/ports")).hasSize(1);
        assertThat(ResourceMerge.merge(merged, manifest).changed()).isFalse();
    }

    @Test
    void aCrdSchemaPropertyRemovedFromTheManifestGoesAndAnInjectedCaBundleStays() {
        String manifest =
                """
                apiVersion: apiextensions.k8s.io/v1
                kind: CustomResourceDefinition
                metadata: {name: widgets.example.com, annotations: {service.beta.openshift.io/inject-cabundle: "true"}}
                spec:
                  group: example.com
                  names: {kind: Widget, plural: widgets}
                  scope: Cluster
                  conversion: {strategy: Webhook, webhook: {conversionReviewVersions: [v1], clientConfig: {service: {name: conv, namespace: x}}}}
                  versions:
                  - name: v1
                    served: true
                    storage: true
                    schema: {openAPIV3Schema: {type: object, properties: {spec: {type: object, properties: {size: {type: integer}}}}}}
                """;
        ObjectNode live =
                (ObjectNode)
                        yaml(
                                manifest.replace(
                                        "size: {type: integer}",
                                        "size: {type: integer}, color: {type: string}"));
        ((ObjectNode) live.at("/spec/names"))
                .put("singular", "widget")
                .put("listKind", "WidgetList");
        ((ObjectNode) live.at("/spec/conversion/webhook/clientConfig")).put("caBundle", "Q0E=");
        JsonNode merged = ResourceMerge.merge(live, yaml(manifest)).object();
        assertThat(
                        merged.at(
                                        "/spec/versions/0/schema/openAPIV3Schema/properties/spec/properties")
                                .has("color"))
                .isFalse();
        assertThat(merged.at("/spec/conversion/webhook/clientConfig/caBundle").asText())
                .isEqualTo("Q0E=");
        assertThat(ResourceMerge.merge(merged, yaml(manifest)).changed()).isFalse();
    }

    @Test
    void aWebhooksInjectedCaBundleStays() {
        String manifest =
                """
                apiVersion: admissionregistration.k8s.io/v1
                kind: ValidatingWebhookConfiguration
                metadata: {name: check, annotations: {service.beta.openshift.io/inject-cabundle: "true"}}
                webhooks:
                - name: check.example.com
                  admissionReviewVersions: [v1]
                  sideEffects: None
                  clientConfig: {service: {name: check, namespace: x}}
                  rules: [{apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [pods]}]
                """;
        ObjectNode live = (ObjectNode) ResourceMerge.merge(yaml(manifest), yaml(manifest)).object();
        ((ObjectNode) live.at("/webhooks/0/clientConfig")).put("caBundle", "Q0E=");
        ResourceMerge.Merged merged = ResourceMerge.merge(live, yaml(manifest));
        assertThat(merged.changed()).isFalse();
        assertThat(merged.object().at("/webhooks/0/clientConfig/caBundle").asText())
                .isEqualTo("Q0E=");
    }

    @Test
    void aMutatingWebhooksInjectedCaBundleStaysAndItsServerDefaultsAreNoDifference() {
        String manifest =
                """
                apiVersion: admissionregistration.k8s.io/v1
                kind: MutatingWebhookConfiguration
                metadata: {name: mutate, annotations: {service.beta.openshift.io/inject-cabundle: "true"}}
                webhooks:
                - name: mutate.example.com
                  admissionReviewVersions: [v1]
                  sideEffects: None
                  clientConfig: {service: {name: mutate, namespace: x}}
                  rules: [{apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [pods]}]
                """;
        // as the API server stores it: every default filled in, and the service CA operator's
        // bundle
        ObjectNode live = (ObjectNode) yaml(manifest);
        ObjectNode hook = (ObjectNode) live.at("/webhooks/0");
        hook.put("failurePolicy", "Fail")
                .put("matchPolicy", "Equivalent")
                .put("timeoutSeconds", 10)
                .put("reinvocationPolicy", "Never");
        hook.putObject("namespaceSelector");
        hook.putObject("objectSelector");
        ((ObjectNode) hook.at("/rules/0")).put("scope", "*");
        ((ObjectNode) hook.at("/clientConfig")).put("caBundle", "Q0E=");
        ResourceMerge.Merged merged = ResourceMerge.merge(live, yaml(manifest));
        assertThat(merged.changed()).isFalse();
        assertThat(merged.object().at("/webhooks/0/clientConfig/caBundle").asText())
                .isEqualTo("Q0E=");
    }

    @Test
    void aCustomResourceHasEachFieldTheManifestSetsReplacedWhole() {
        JsonNode live =
                yaml(
                        """
                        apiVersion: example.com/v1
                        kind: Widget
                        metadata: {name: w, annotations: {owner: someone}}
                        spec: {size: 1, color: red}
                        extra: {kept: true}
                        """);
        JsonNode merged =
                ResourceMerge.merge(
                                live,
                                yaml(
                                        """
                                        apiVersion: example.com/v1
                                        kind: Widget
                                        metadata: {name: w}
                                        spec: {size: 2}
                                        """))
                        .object();
        assertThat(merged.get("spec")).isEqualTo(yaml("{size: 2}"));
        assertThat(merged.at("/extra/kept").asBoolean()).isTrue();
        assertThat(merged.at("/metadata/annotations/owner").asText()).isEqualTo("someone");
    }

    @Test
    void aJobManifestMayNotSetItsSelector() {
        JsonNode job =
                yaml(
                        """
                        apiVersion: batch/v1
                        kind: Job
                        metadata: {name: j, namespace: x}
                        spec: {selector: {matchLabels: {a: b}}, template: {spec: {containers: [{name: c, image: i}], restartPolicy: Never}}}
                        """);
        assertThatThrownBy(() -> ResourceMerge.merge(job, job))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("spec.selector");
    }
}
