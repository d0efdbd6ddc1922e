package io.upshift.pools.templates;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfig;
import io.upshift.api.json.Mappers;
import io.upshift.base.proxy.ClusterProxy;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BaseConfigsTest {

    static final ControllerConfig AWS =
            new ControllerConfig(
                    "4.19.1",
                    "quay.example/os@sha256:41",
                    "quay.example/ext@sha256:41",
                    "AWS",
                    "172.30.0.10",
                    "example.com",
                    "https://api.example.com:6443",
                    "https://api-int.example.com:6443",
                    new ClusterProxy("http://proxy:3128", "", "10.0.0.0/8"));

    static Map<String, String> templates() {
        Map<String, String> t = new LinkedHashMap<>();
        t.put("releaseVersion", "4.19.1");
        t.put(
                "common._base.files.proxy.yaml",
                "mode: 0644\n"
                        + "path: /etc/mco/proxy.env\n"
                        + "contents:\n"
                        + "  inline: |\n"
                        + "    HTTP_PROXY={{.Proxy.HTTPProxy}}\n"
                        + "    NO_PROXY={{ .Proxy.NoProxy }}\n");
        t.put(
                "common._base.units.kubelet.service.yaml",
                "name: kubelet.service\n"
                        + "dropins:\n"
                        + "- name: 10-default-env.conf\n"
                        + "  contents: \"[Service]\\n"
                        + "Environment=A=1\\n"
                        + "\"\n");
        t.put(
                "common._base.units.kubelet.service-proxy.yaml",
                "name: kubelet.service\n"
                        + "dropins:\n"
                        + "- name: 10-proxy.conf\n"
                        + "  contents: \"[Service]\\n"
                        + "EnvironmentFile=/etc/mco/proxy.env\\n"
                        + "\"\n");
        t.put("common.aws.files.proxy.yaml", ""); // empty: no proxy file on this platform
        for (String role : List.of("master", "worker")) {
            t.put(
                    role + ".00-" + role + "._base.files.release.yaml",
                    "path: /etc/upshift/release\n"
                            + "mode: 420\n"
                            + "contents:\n"
                            + "  inline: \"{{.ReleaseVersion}} {{.OSImageURL}}\"\n");
            t.put(
                    role + ".01-" + role + "-kubelet._base.files.kubelet.yaml",
                    "path: /etc/kubernetes/kubelet.conf\n"
                            + "contents:\n"
                            + "  inline: |\n"
                            + "    clusterDNS: [{{.ClusterDNSIP}}]\n"
                            + "    domain: {{.DNS.Spec.BaseDomain}}\n");
            t.put(
                    role + ".01-" + role + "-kubelet._base.units.kubelet.service.yaml",
                    "name: kubelet.service\nenabled: true\ncontents: \"[Unit]\\n\"\n");
            t.put(
                    role + ".01-" + role + "-kubelet.aws.files.kubelet.yaml",
                    "path: /etc/kubernetes/kubelet.conf\n"
                            + "contents:\n"
                            + "  inline: \"aws {{.Infra.Status.PlatformStatus.Type}}\"\n");
            t.put(
                    role + ".01-" + role + "-kubelet.gcp.files.kubelet.yaml",
                    "path: /etc/kubernetes/kubelet.conf\ncontents:\n  inline: gcp\n");
        }
        return t;
    }

    @Test
    void rendersOneConfigPerRoleDirectoryWithCommonTemplatesInTheFirstAndThePlatformOverBase() {
        List<MachineConfig> configs = BaseConfigs.render(TemplateSet.parse(templates()), AWS);
        assertThat(configs)
                .extracting(mc -> mc.getMetadata().getName())
                .containsExactly(
                        "00-master", "00-worker", "01-master-kubelet", "01-worker-kubelet");
        MachineConfig worker = configs.get(1);
        assertThat(worker.getMetadata().getLabels())
                .containsExactlyEntriesOf(
                        Map.of("machineconfiguration.openshift.io/role", "worker"));
        assertThat(worker.getMetadata().getAnnotations())
                .containsEntry(
                        "machineconfiguration.openshift.io/generated-by-controller-version",
                        "4.19.1");
        assertThat(BaseConfigs.isFromTemplates(worker)).isTrue();
        assertThat(worker.getSpec().getOsImageURL()).isEqualTo("quay.example/os@sha256:41");
        JsonNode c = Mappers.JSON.valueToTree(worker.getSpec().getConfig());
        assertThat(c.at("/ignition/version").asText()).isEqualTo("3.2.0");
        // the common proxy file is removed on aws by its empty template; the release file is the
        // role's own
        assertThat(c.at("/storage/files")).hasSize(1);
        assertThat(c.at("/storage/files/0/path").asText()).isEqualTo("/etc/upshift/release");
        assertThat(c.at("/storage/files/0/mode").asInt()).isEqualTo(0644);
        assertThat(c.at("/storage/files/0/overwrite").asBoolean()).isTrue();
        assertThat(text(c.at("/storage/files/0"))).isEqualTo("4.19.1 quay.example/os@sha256:41");
        // common units of the same name merge their drop-ins
        assertThat(c.at("/systemd/units")).hasSize(1);
        assertThat(c.at("/systemd/units/0/dropins"))
                .extracting(d -> d.path("name").asText())
                .containsExactlyInAnyOrder("10-default-env.conf", "10-proxy.conf");

        JsonNode kubelet = Mappers.JSON.valueToTree(configs.get(3).getSpec().getConfig());
        assertThat(text(kubelet.at("/storage/files/0")))
                .isEqualTo("aws AWS"); // aws's over _base's, gcp's not taken
        assertThat(kubelet.at("/systemd/units/0/enabled").asBoolean()).isTrue();
        assertThat(kubelet.at("/systemd/units/0").has("dropins"))
                .isFalse(); // common went into 00-worker only
    }

    @Test
    void withoutAPlatformOnlyBaseTemplatesAndTheClusterValuesAreSubstituted() {
        ControllerConfig plain =
                new ControllerConfig(
                        "4.19.1",
                        "quay.example/os@sha256:41",
                        "",
                        "",
                        "172.30.0.10",
                        "example.com",
                        "",
                        "",
                        new ClusterProxy("http://proxy:3128", "", "10.0.0.0/8"));
        List<MachineConfig> configs = BaseConfigs.render(TemplateSet.parse(templates()), plain);
        JsonNode master = Mappers.JSON.valueToTree(configs.get(0).getSpec().getConfig());
        assertThat(master.at("/storage/files"))
                .extracting(f -> f.path("path").asText())
                .containsExactly("/etc/mco/proxy.env", "/etc/upshift/release");
        assertThat(text(master.at("/storage/files/0")))
                .isEqualTo("HTTP_PROXY=http://proxy:3128\nNO_PROXY=10.0.0.0/8\n");
        JsonNode kubelet = Mappers.JSON.valueToTree(configs.get(2).getSpec().getConfig());
        assertThat(text(kubelet.at("/storage/files/0")))
                .isEqualTo("clusterDNS: [172.30.0.10]\ndomain: example.com\n");
        // the same inputs render the same configs
        assertThat(
                        (JsonNode)
                                Mappers.JSON.valueToTree(
                                        BaseConfigs.render(TemplateSet.parse(templates()), plain)))
                .isEqualTo(Mappers.JSON.valueToTree(configs));
    }

    @Test
    void aBadTemplateFailsTheWholeSetNamingIt() {
        Map<String, String> unknown = templates();
        unknown.put(
                "worker.00-worker._base.files.motd.yaml",
                "path: /etc/motd\ncontents:\n  inline: \"{{.Hostname}}\"\n");
        assertThatThrownBy(() -> BaseConfigs.render(TemplateSet.parse(unknown), AWS))
                .isInstanceOf(TemplateException.class)
                .hasMessage(
                        "template worker.00-worker._base.files.motd.yaml: line 3: unknown field"
                                + " .Hostname");

        Map<String, String> relative = templates();
        relative.put(
                "master.00-master._base.files.motd.yaml",
                "path: etc/motd\ncontents:\n  inline: hi\n");
        assertThatThrownBy(() -> BaseConfigs.render(TemplateSet.parse(relative), AWS))
                .hasMessage(
                        "template master.00-master._base.files.motd.yaml: file path \"etc/motd\" is"
                                + " not absolute");

        Map<String, String> climbing = templates();
        climbing.put("master.00-master._base.files.motd.yaml", "path: /etc/../../motd\n");
        assertThatThrownBy(() -> BaseConfigs.render(TemplateSet.parse(climbing), AWS))
                .hasMessageEndingWith("contains \"..\"");

        Map<String, String> unitWithoutType = templates();
        unitWithoutType.put("worker.00-worker._base.units.app.yaml", "name: app\n");
        assertThatThrownBy(() -> BaseConfigs.render(TemplateSet.parse(unitWithoutType), AWS))
                .hasMessage(
                        "template worker.00-worker._base.units.app.yaml: unit name \"app\" is not a"
                                + " unit file name (such as kubelet.service)");

        Map<String, String> unknownKey = templates();
        unknownKey.put("worker.00-worker._base.files.motd.yaml", "path: /etc/motd\nappend: true\n");
        assertThatThrownBy(() -> BaseConfigs.render(TemplateSet.parse(unknownKey), AWS))
                .hasMessage(
                        "template worker.00-worker._base.files.motd.yaml: unknown key \"append\" in"
                                + " a file (known: contents, group, mode, overwrite, path, user)");
    }

    @Test
    void aSetNamesItsReleaseAndEveryKeyIsATemplate() {
        Map<String, String> noRelease = templates();
        noRelease.remove("releaseVersion");
        assertThatThrownBy(() -> TemplateSet.parse(noRelease))
                .hasMessageStartingWith("no releaseVersion key");
        for (String key :
                List.of(
                        "worker.00-worker.files.a.yaml",
                        "worker.00-worker._base.extensions.usbguard",
                        "Worker.00-worker._base.files.a.yaml",
                        "common._base.a.yaml")) {
            Map<String, String> bad = templates();
            bad.put(key, "path: /a\n");
            assertThatThrownBy(() -> TemplateSet.parse(bad))
                    .as(key)
                    .isInstanceOf(TemplateException.class)
                    .hasMessageStartingWith("template " + key + ": ");
        }
        assertThat(TemplateSet.parse(templates()).releaseVersion()).isEqualTo("4.19.1");
        assertThat(TemplateSet.parse(templates()).templates()).hasSize(templates().size() - 1);
    }

    static String text(JsonNode file) {
        String source = file.at("/contents/source").asText();
        assertThat(source).startsWith("data:,");
        return URLDecoder.decode(source.substring("data:,".length()), StandardCharsets.UTF_8);
    }
}
