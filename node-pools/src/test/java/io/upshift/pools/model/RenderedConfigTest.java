package io.upshift.pools.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfig;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigBuilder;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

@SuppressWarnings("unchecked")
class RenderedConfigTest {

    static final ObjectMapper JSON = new ObjectMapper();
    static final LabelSelector WORKER =
            new LabelSelectorBuilder()
                    .withMatchLabels(Map.of("machineconfiguration.openshift.io/role", "worker"))
                    .build();

    static MachineConfig mc(
            String name, String role, String fileContent, List<String> kargs, String os)
            throws Exception {
        Object config =
                JSON.readValue(
                        "{\"ignition\":{\"version\":\"3.2.0\"},\"storage\":{\"files\":[{\"path\":\"/etc/motd\",\"contents\":{\"source\":\"data:,"
                                + fileContent
                                + "\"}}]},\"systemd\":{\"units\":[{\"name\":\""
                                + name
                                + ".service\",\"enabled\":true}]}}",
                        Object.class);
        return new MachineConfigBuilder()
                .withNewMetadata()
                .withName(name)
                .withLabels(Map.of("machineconfiguration.openshift.io/role", role))
                .endMetadata()
                .withNewSpec()
                .withConfig(config)
                .withKernelArguments(kargs)
                .withOsImageURL(os)
                .endSpec()
                .build();
    }

    @Test
    void mergesSelectedConfigsInNameOrder() throws Exception {
        List<MachineConfig> all =
                List.of(
                        mc("99-worker-custom", "worker", "custom", List.of("nosmt"), ""),
                        mc(
                                "00-worker",
                                "worker",
                                "base",
                                List.of("quiet"),
                                "quay.example/os:4.18.1"),
                        mc(
                                "01-master",
                                "master",
                                "master",
                                List.of("master-only"),
                                "quay.example/os:master"),
                        mc(
                                "50-worker-os",
                                "worker",
                                "mid",
                                List.of("quiet"),
                                "quay.example/os:4.18.2"));
        RenderedConfig r = RenderedConfig.render("worker", WORKER, all);
        assertThat(r.sources()).containsExactly("00-worker", "50-worker-os", "99-worker-custom");
        assertThat(r.name())
                .startsWith("rendered-worker-")
                .hasSize("rendered-worker-".length() + 32);
        JsonNode config = JSON.valueToTree(r.spec().getConfig());
        assertThat(config.path("storage").path("files")).hasSize(1);
        assertThat(config.at("/storage/files/0/contents/source").asText())
                .isEqualTo("data:,custom"); // later file wins
        assertThat(config.path("systemd").path("units")).hasSize(3);
        assertThat(r.spec().getKernelArguments()).containsExactly("quiet", "nosmt");
        assertThat(r.spec().getOsImageURL()).isEqualTo("quay.example/os:4.18.2");
        // the same inputs in another order give the same name; a changed input another one
        assertThat(
                        RenderedConfig.render(
                                        "worker",
                                        WORKER,
                                        List.of(all.get(3), all.get(0), all.get(1)))
                                .name())
                .isEqualTo(r.name());
        assertThat(RenderedConfig.render("worker", WORKER, List.of(all.get(1), all.get(3))).name())
                .isNotEqualTo(r.name());
        // earlier rendered configs are not inputs
        MachineConfig old =
                new MachineConfigBuilder()
                        .withNewMetadata()
                        .withName(r.name())
                        .withLabels(Map.of("machineconfiguration.openshift.io/role", "worker"))
                        .endMetadata()
                        .withNewSpec()
                        .endSpec()
                        .build();
        assertThat(
                        RenderedConfig.render(
                                        "worker",
                                        WORKER,
                                        List.of(all.get(0), all.get(1), all.get(3), old))
                                .name())
                .isEqualTo(r.name());
    }

    @Test
    void aRelativeOrClimbingPathFailsTheWholeRender() throws Exception {
        for (String path : List.of("etc/motd", "/etc/../../root/.ssh/authorized_keys")) {
            MachineConfig bad = mc("99-worker-bad", "worker", "x", List.of(), "");
            ((Map<String, Object>)
                            ((List<Object>)
                                            ((Map<String, Object>)
                                                            ((Map<String, Object>)
                                                                            bad.getSpec()
                                                                                    .getConfig())
                                                                    .get("storage"))
                                                    .get("files"))
                                    .get(0))
                    .put("path", path);
            assertThatThrownBy(
                            () ->
                                    RenderedConfig.render(
                                            "worker",
                                            WORKER,
                                            List.of(
                                                    mc(
                                                            "00-worker",
                                                            "worker",
                                                            "base",
                                                            List.of(),
                                                            ""),
                                                    bad)))
                    .hasMessageStartingWith(
                            "MachineConfig 99-worker-bad: file path \"" + path + "\"");
        }
    }

    @Test
    void theCoreUsersSshKeysAddUpAcrossConfigs() throws Exception {
        MachineConfig a = mc("00-worker", "worker", "base", List.of(), "");
        MachineConfig b = mc("99-worker-ssh", "worker", "base", List.of(), "");
        ((Map<String, Object>) a.getSpec().getConfig())
                .put(
                        "passwd",
                        Map.of(
                                "users",
                                List.of(
                                        Map.of(
                                                "name",
                                                "core",
                                                "sshAuthorizedKeys",
                                                List.of("k1", "k2")))));
        ((Map<String, Object>) b.getSpec().getConfig())
                .put(
                        "passwd",
                        Map.of(
                                "users",
                                List.of(
                                        Map.of(
                                                "name",
                                                "core",
                                                "sshAuthorizedKeys",
                                                List.of("k2", "k3")))));
        JsonNode config =
                JSON.valueToTree(
                        RenderedConfig.render("worker", WORKER, List.of(b, a)).spec().getConfig());
        assertThat(config.path("passwd"))
                .isEqualTo(
                        JSON.readTree(
                                "{\"users\":[{\"name\":\"core\",\"sshAuthorizedKeys\":[\"k1\",\"k2\",\"k3\"]}]}"));
        JsonNode none =
                JSON.valueToTree(
                        RenderedConfig.render(
                                        "worker",
                                        WORKER,
                                        List.of(mc("00-worker", "worker", "base", List.of(), "")))
                                .spec()
                                .getConfig());
        assertThat(none.has("passwd"))
                .as(
                        "no users, no passwd section: the rendered names of configs without keys"
                                + " stay as they were")
                .isFalse();
    }
}
