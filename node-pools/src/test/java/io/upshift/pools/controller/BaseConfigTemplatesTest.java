package io.upshift.pools.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.openshift.api.model.config.v1.ClusterOperator;
import io.fabric8.openshift.api.model.config.v1.ClusterOperatorStatusCondition;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfig;
import io.upshift.api.json.Mappers;
import io.upshift.api.schema.CrdSchema;
import io.upshift.pools.model.NodeAnnotations;
import io.upshift.pools.templates.BaseConfigs;
import io.upshift.testkit.WithStatus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A payload that ships templates and no MachineConfigs: the pool controller renders its release's
 * base configs from them, the pools render those, and the nodes roll; the next release's templates
 * wait for the next release's controller; templates that do not render write nothing and say which
 * template is wrong.
 */
@Tag("e2e")
class BaseConfigTemplatesTest {
    static final String NS = PoolControllerOptions.NAMESPACE;

    @TempDir Path hosts;

    /**
     * A release's templates: a common file naming the release, a file per role, a kubelet config
     * for the workers.
     */
    static Map<String, String> templates(String release) {
        Map<String, String> t = new LinkedHashMap<>();
        t.put("releaseVersion", release);
        t.put(
                "common._base.files.release.yaml",
                "path: /etc/upshift-test/release\n"
                        + "mode: 0644\n"
                        + "contents:\n"
                        + "  inline: \"{{.ReleaseVersion}} on {{.OSImageURL}}\"\n");
        for (String role : List.of("master", "worker")) {
            t.put(
                    role + ".00-" + role + "._base.files.role.yaml",
                    "path: /etc/upshift-test/role\ncontents:\n  inline: " + role + "\n");
        }
        t.put(
                "worker.01-worker-kubelet._base.files.kubelet.yaml",
                "path: /etc/upshift-test/kubelet\ncontents:\n  inline: kubelet\n");
        return t;
    }

    static void ship(PoolHarness h, String release, Map<String, String> templates) {
        h.client
                .configMaps()
                .inNamespace(NS)
                .resource(
                        new ConfigMapBuilder()
                                .withNewMetadata()
                                .withName(BaseConfigSync.OS_IMAGE_URL)
                                .withNamespace(NS)
                                .endMetadata()
                                .withData(
                                        Map.of(
                                                "releaseVersion",
                                                release,
                                                "baseOSContainerImage",
                                                "quay.example/os:" + release,
                                                "baseOSExtensionsContainerImage",
                                                "",
                                                "osImageURL",
                                                ""))
                                .build())
                .createOr(c -> c.update());
        h.client
                .configMaps()
                .inNamespace(NS)
                .resource(
                        new ConfigMapBuilder()
                                .withNewMetadata()
                                .withName(BaseConfigSync.TEMPLATES)
                                .withNamespace(NS)
                                .endMetadata()
                                .withData(templates)
                                .build())
                .createOr(c -> c.update());
    }

    /**
     * Pools master and worker, one node each, agents running, the payload of {@code release}
     * shipped and its controller started.
     */
    static void installed(PoolHarness h, String release) {
        installed(h, release, templates(release));
    }

    static void installed(PoolHarness h, String release, Map<String, String> templates) {
        h.pool("master", 1, false, true);
        h.pool("worker", 1, false);
        h.node("m0", "master", "a", 2);
        h.node("w0", "worker", "a", 1);
        ship(h, release, templates);
        h.startAgents();
        h.startController(release);
        await("both pools on " + release)
                .atMost(Duration.ofSeconds(60))
                .until(
                        () ->
                                h.settled("master")
                                        && h.settled("worker")
                                        && release.equals(
                                                releaseOf(
                                                        h,
                                                        h.pool("worker")
                                                                .getSpec()
                                                                .getConfiguration()
                                                                .getName())));
    }

    @Test
    void theBaseConfigsAreRenderedFromTheTemplatesAndTheNodesRollToThem() throws Exception {
        try (PoolHarness h = new PoolHarness(hosts)) {
            installed(h, "4.19.0");
            assertThat(configs(h)).containsOnlyKeys("00-master", "00-worker", "01-worker-kubelet");
            MachineConfig worker = configs(h).get("00-worker");
            assertThat(worker.getMetadata().getLabels())
                    .containsEntry("machineconfiguration.openshift.io/role", "worker");
            assertThat(worker.getMetadata().getAnnotations())
                    .containsEntry(BaseConfigs.GENERATED_BY, "4.19.0");
            assertThat(h.pool("worker").getSpec().getConfiguration().getSource())
                    .extracting(s -> s.getName())
                    .containsExactly("00-worker", "01-worker-kubelet");
            assertThat(Files.readString(hosts.resolve("w0/etc/upshift-test/release")))
                    .isEqualTo("4.19.0 on quay.example/os:4.19.0");
            assertThat(Files.readString(hosts.resolve("w0/etc/upshift-test/kubelet")))
                    .isEqualTo("kubelet");
            assertThat(Files.readString(hosts.resolve("m0/etc/upshift-test/role")))
                    .isEqualTo("master");
            assertThat(h.machines.get("w0").osImage()).isEqualTo("quay.example/os:4.19.0");
            for (MachineConfig mc : h.client.resources(MachineConfig.class).list().getItems()) {
                assertThat(
                                CrdSchema.bundled(
                                                "machineconfigs.machineconfiguration.openshift.io",
                                                "v1")
                                        .violations(mc))
                        .as(mc.getMetadata().getName())
                        .isEmpty();
            }

            // passes after that write nothing: the configs are as the templates make them
            String version = worker.getMetadata().getResourceVersion();
            long passes = h.controller.passes();
            await("more passes")
                    .atMost(Duration.ofSeconds(60))
                    .until(() -> h.controller.passes() >= passes + 3);
            assertThat(configs(h).get("00-worker").getMetadata().getResourceVersion())
                    .isEqualTo(version);
        }
    }

    @Test
    void theNextReleasesTemplatesWaitForItsControllerWhichRendersThemAndDropsWhatTheyNoLongerMake()
            throws Exception {
        try (PoolHarness h = new PoolHarness(hosts)) {
            installed(h, "4.19.0");
            String before = h.pool("worker").getSpec().getConfiguration().getName();
            Map<String, String> next = templates("4.19.1");
            next.remove("worker.01-worker-kubelet._base.files.kubelet.yaml");
            ship(h, "4.19.1", next);
            long passes = h.controller.passes();
            await("more passes")
                    .atMost(Duration.ofSeconds(60))
                    .until(() -> h.controller.passes() >= passes + 3);
            assertThat(configs(h).get("00-worker").getMetadata().getAnnotations())
                    .containsEntry(BaseConfigs.GENERATED_BY, "4.19.0");
            assertThat(h.pool("worker").getSpec().getConfiguration().getName()).isEqualTo(before);

            h.startController("4.19.1");
            await("both pools on 4.19.1")
                    .atMost(Duration.ofSeconds(60))
                    .until(
                            () ->
                                    h.settled("master")
                                            && h.settled("worker")
                                            && "4.19.1"
                                                    .equals(
                                                            releaseOf(
                                                                    h,
                                                                    h.pool("worker")
                                                                            .getSpec()
                                                                            .getConfiguration()
                                                                            .getName())));
            assertThat(configs(h)).containsOnlyKeys("00-master", "00-worker");
            assertThat(configs(h).get("00-worker").getMetadata().getAnnotations())
                    .containsEntry(BaseConfigs.GENERATED_BY, "4.19.1");
            assertThat(Files.readString(hosts.resolve("w0/etc/upshift-test/release")))
                    .isEqualTo("4.19.1 on quay.example/os:4.19.1");
            assertThat(hosts.resolve("w0/etc/upshift-test/kubelet")).doesNotExist();
        }
    }

    @Test
    void aControllerWhoseReleaseHasNoTemplatesYetRendersNoPoolFromAnotherReleasesBaseConfigs()
            throws Exception {
        try (PoolHarness h = new PoolHarness(hosts)) {
            installed(h, "4.19.0");
            String before = h.pool("worker").getSpec().getConfiguration().getName();
            h.startController("4.19.1");
            await("RenderDegraded")
                    .atMost(Duration.ofSeconds(60))
                    .until(() -> h.conditionTrue("worker", "RenderDegraded"));
            assertThat(h.condition("worker", "RenderDegraded").getMessage())
                    .isEqualTo(
                            "Failed to render configuration for pool worker: ignoring MachineConfig"
                                    + " 00-worker generated by release 4.19.0's controller (this"
                                    + " controller's release: 4.19.1)");
            assertThat(h.pool("worker").getSpec().getConfiguration().getName()).isEqualTo(before);

            ship(h, "4.19.1", templates("4.19.1"));
            await("both pools on 4.19.1")
                    .atMost(Duration.ofSeconds(60))
                    .until(
                            () ->
                                    h.settled("master")
                                            && h.settled("worker")
                                            && "4.19.1"
                                                    .equals(
                                                            releaseOf(
                                                                    h,
                                                                    h.pool("worker")
                                                                            .getSpec()
                                                                            .getConfiguration()
                                                                            .getName())));
            assertThat(h.conditionTrue("worker", "RenderDegraded")).isFalse();
        }
    }

    @Test
    void aTemplateThatDoesNotRenderDegradesEveryPoolAndTheOperatorNamingItAndWritesNothing()
            throws Exception {
        try (PoolHarness h = new PoolHarness(hosts)) {
            installed(h, "4.19.0");
            String before = h.pool("worker").getSpec().getConfiguration().getName();
            Map<String, String> configsBefore = versions(h);
            Map<String, String> bad = templates("4.19.0");
            bad.put(
                    "master.00-master._base.files.role.yaml",
                    "path: /etc/upshift-test/role\ncontents:\n  inline: \"{{.Hostname}}\"\n");
            bad.put(
                    "worker.00-worker._base.files.motd.yaml",
                    "path: /etc/motd\ncontents:\n  inline: changed\n"); // fine alone: not written
            // either
            ship(h, "4.19.0", bad);
            String why =
                    "ConfigMap openshift-machine-config-operator/machine-config-templates: template"
                            + " master.00-master._base.files.role.yaml: line 3: unknown field"
                            + " .Hostname";
            for (String pool : List.of("master", "worker")) {
                await(pool + " RenderDegraded")
                        .atMost(Duration.ofSeconds(60))
                        .until(() -> h.conditionTrue(pool, "RenderDegraded"));
                assertThat(h.condition(pool, "RenderDegraded").getMessage())
                        .isEqualTo("Failed to render configuration for pool " + pool + ": " + why);
            }
            await("the operator Degraded")
                    .atMost(Duration.ofSeconds(60))
                    .until(() -> "True".equals(operatorCondition(h, "Degraded").getStatus()));
            assertThat(operatorCondition(h, "Degraded").getReason())
                    .isEqualTo("MachineConfigControllerFailed");
            assertThat(operatorCondition(h, "Degraded").getMessage())
                    .isEqualTo("Failed to resync 4.19.0 because: " + why);
            assertThat(versions(h)).isEqualTo(configsBefore);
            assertThat(h.pool("worker").getSpec().getConfiguration().getName()).isEqualTo(before);

            bad.put("master.00-master._base.files.role.yaml", "path: etc/upshift-test/role\n");
            ship(h, "4.19.0", bad);
            await("the path named")
                    .atMost(Duration.ofSeconds(60))
                    .until(
                            () ->
                                    h.condition("master", "RenderDegraded")
                                            .getMessage()
                                            .endsWith(
                                                    "template"
                                                        + " master.00-master._base.files.role.yaml:"
                                                        + " file path \"etc/upshift-test/role\" is"
                                                        + " not absolute"));
            assertThat(versions(h)).isEqualTo(configsBefore);

            ship(h, "4.19.0", templates("4.19.0"));
            await("healthy again")
                    .atMost(Duration.ofSeconds(60))
                    .until(
                            () ->
                                    !h.conditionTrue("master", "RenderDegraded")
                                            && "False"
                                                    .equals(
                                                            operatorCondition(h, "Degraded")
                                                                    .getStatus()));
            assertThat(versions(h)).isEqualTo(configsBefore);
        }
    }

    @Test
    void theClustersValuesAreSubstitutedItsPlatformsTemplatesLaidOverAndAChangeOfThemRendersAgain()
            throws Exception {
        try (PoolHarness h = new PoolHarness(hosts)) {
            clusterConfig(
                    h,
                    "Proxy",
                    "proxies",
                    "{\"status\": {\"httpProxy\": \"http://proxy.example:3128\", \"noProxy\":"
                            + " \".cluster.local\"}}");
            clusterConfig(
                    h,
                    "Network",
                    "networks",
                    "{\"spec\": {\"serviceNetwork\": [\"172.30.0.0/16\"]}}");
            clusterConfig(h, "DNS", "dnses", "{\"spec\": {\"baseDomain\": \"example.com\"}}");
            clusterConfig(
                    h,
                    "Infrastructure",
                    "infrastructures",
                    "{\"status\": {\"platformStatus\": {\"type\": \"AWS\"},"
                            + " \"apiServerInternalURI\": \"https://api-int.example.com:6443\"}}");
            Map<String, String> templates = templates("4.19.0");
            templates.put(
                    "worker.00-worker._base.files.cluster.yaml",
                    "path: /etc/upshift-test/cluster\n"
                            + "contents:\n"
                            + "  inline: \"{{.ClusterDNSIP}} {{.DNS.Spec.BaseDomain}}"
                            + " {{.Infra.Status.APIServerInternalURL}} {{.Proxy.HTTPProxy}}"
                            + " {{.Proxy.NoProxy}}\"\n");
            templates.put(
                    "worker.00-worker.aws.files.role.yaml",
                    "path: /etc/upshift-test/role\ncontents:\n  inline: aws worker\n");
            installed(h, "4.19.0", templates);
            assertThat(Files.readString(hosts.resolve("w0/etc/upshift-test/cluster")))
                    .isEqualTo(
                            "172.30.0.10 example.com https://api-int.example.com:6443"
                                    + " http://proxy.example:3128 .cluster.local");
            assertThat(Files.readString(hosts.resolve("w0/etc/upshift-test/role")))
                    .isEqualTo("aws worker");
            assertThat(Files.readString(hosts.resolve("m0/etc/upshift-test/role")))
                    .isEqualTo("master");

            String before = h.pool("worker").getSpec().getConfiguration().getName();
            clusterConfig(
                    h,
                    "Proxy",
                    "proxies",
                    "{\"status\": {\"httpProxy\": \"http://other.example:3128\"}}");
            await("the new proxy on w0")
                    .atMost(Duration.ofSeconds(60))
                    .until(
                            () ->
                                    h.settled("worker")
                                            && !before.equals(
                                                    h.pool("worker")
                                                            .getSpec()
                                                            .getConfiguration()
                                                            .getName())
                                            && Files.readString(
                                                            hosts.resolve(
                                                                    "w0/etc/upshift-test/cluster"))
                                                    .endsWith("http://other.example:3128 "));
        }
    }

    /**
     * A config.openshift.io/v1 kind served (its CRD installed) and its object {@code cluster} with
     * {@code fields}.
     */
    static void clusterConfig(PoolHarness h, String kind, String plural, String fields)
            throws Exception {
        ResourceDefinitionContext context =
                new ResourceDefinitionContext.Builder()
                        .withGroup("config.openshift.io")
                        .withVersion("v1")
                        .withKind(kind)
                        .withPlural(plural)
                        .withNamespaced(false)
                        .build();
        if (h.client
                        .apiextensions()
                        .v1()
                        .customResourceDefinitions()
                        .withName(plural + ".config.openshift.io")
                        .get()
                == null) {
            h.client
                    .apiextensions()
                    .v1()
                    .customResourceDefinitions()
                    .resource(
                            new CustomResourceDefinitionBuilder()
                                    .withNewMetadata()
                                    .withName(plural + ".config.openshift.io")
                                    .endMetadata()
                                    .withNewSpec()
                                    .withGroup("config.openshift.io")
                                    .withScope("Cluster")
                                    .withNewNames()
                                    .withKind(kind)
                                    .withPlural(plural)
                                    .withSingular(kind.toLowerCase(Locale.ROOT))
                                    .withListKind(kind + "List")
                                    .endNames()
                                    .addNewVersion()
                                    .withName("v1")
                                    .withServed(true)
                                    .withStorage(true)
                                    .withNewSchema()
                                    .withNewOpenAPIV3Schema()
                                    .withType("object")
                                    .withXKubernetesPreserveUnknownFields(true)
                                    .endOpenAPIV3Schema()
                                    .endSchema()
                                    .endVersion()
                                    .endSpec()
                                    .build())
                    .create();
        }
        GenericKubernetesResource object =
                Mappers.JSON.readValue(fields, GenericKubernetesResource.class);
        object.setApiVersion("config.openshift.io/v1");
        object.setKind(kind);
        object.setMetadata(new ObjectMetaBuilder().withName("cluster").build());
        // OpenShift's config kinds keep their status apart (the status subresource), as the
        // operators that publish it write it: created or updated, then the status written
        var live = h.client.genericKubernetesResources(context).withName("cluster").get();
        if (live == null) {
            WithStatus.create(h.client, object);
        } else {
            object.getMetadata().setResourceVersion(live.getMetadata().getResourceVersion());
            GenericKubernetesResource updated =
                    h.client.genericKubernetesResources(context).resource(object).update();
            if (object.getAdditionalProperties().containsKey("status")) {
                updated.setAdditionalProperty(
                        "status", object.getAdditionalProperties().get("status"));
                h.client.genericKubernetesResources(context).resource(updated).updateStatus();
            }
        }
    }

    static Map<String, MachineConfig> configs(PoolHarness h) {
        Map<String, MachineConfig> out = new LinkedHashMap<>();
        for (MachineConfig mc : h.client.resources(MachineConfig.class).list().getItems()) {
            if (!mc.getMetadata().getName().startsWith("rendered-"))
                out.put(mc.getMetadata().getName(), mc);
        }
        return out;
    }

    /** Every MachineConfig, rendered ones too, by name, with its resourceVersion. */
    static Map<String, String> versions(PoolHarness h) {
        Map<String, String> out = new LinkedHashMap<>();
        h.client
                .resources(MachineConfig.class)
                .list()
                .getItems()
                .forEach(
                        mc ->
                                out.put(
                                        mc.getMetadata().getName(),
                                        mc.getMetadata().getResourceVersion()));
        return out;
    }

    static String releaseOf(PoolHarness h, String rendered) {
        MachineConfig mc = h.client.resources(MachineConfig.class).withName(rendered).get();
        return mc == null
                ? null
                : mc.getMetadata().getAnnotations().get(NodeAnnotations.RELEASE_IMAGE_VERSION);
    }

    static ClusterOperatorStatusCondition operatorCondition(PoolHarness h, String type) {
        ClusterOperator co =
                h.client.resources(ClusterOperator.class).withName("machine-config").get();
        return co == null || co.getStatus() == null
                ? new ClusterOperatorStatusCondition()
                : co.getStatus().getConditions().stream()
                        .filter(c -> type.equals(c.getType()))
                        .findFirst()
                        .orElse(new ClusterOperatorStatusCondition());
    }
}
