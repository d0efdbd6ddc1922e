package io.upshift.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfig;
import io.upshift.api.json.Mappers;
import io.upshift.pools.templates.BaseConfigs;
import io.upshift.pools.templates.ControllerConfig;
import io.upshift.pools.templates.TemplateSet;
import io.upshift.releases.inclusion.LoadRules;
import io.upshift.releases.manifest.Manifest;
import io.upshift.releases.payload.Payload;
import io.upshift.releases.payload.PayloadLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The demo's machine-config component ships templates, not MachineConfigs, as a real payload does.
 */
class DemoPayloadsTest {

    @TempDir Path dir;

    @Test
    void
            theMachineConfigComponentShipsTheTemplatesAndTheOsImageBeforeItsOperatorAndNoMachineConfig()
                    throws Exception {
        DemoPayloads.write(
                dir, "4.18.2", DemoPayloads.components(2, 2, true), "key", dir.resolve("store"));
        // what building the release image adds
        Files.writeString(
                dir.resolve("release-manifests/release-metadata"),
                "{\"kind\":\"cincinnati-metadata-v0\",\"version\":\"4.18.2\",\"previous\":[]}");
        Files.writeString(
                dir.resolve("release-manifests/image-references"),
                "{\"kind\":\"ImageStream\",\"apiVersion\":\"image.openshift.io/v1\",\"metadata\":{\"name\":\"4.18.2\"},\"spec\":{\"tags\":[]}}");
        Payload payload = PayloadLoader.load(dir, "(test)", LoadRules.defaults(), w -> {});
        List<Manifest> manifests = payload.manifests();
        assertThat(manifests).noneMatch(m -> m.kind().equals("MachineConfig"));
        int templates = index(manifests, "ConfigMap", "machine-config-templates"),
                os = index(manifests, "ConfigMap", "machine-config-osimageurl");
        int operator = index(manifests, "Deployment", "machine-config-operator");
        assertThat(templates).isNotNegative().isLessThan(operator);
        assertThat(os).isNotNegative().isLessThan(operator);

        Map<String, String> data = new LinkedHashMap<>();
        manifests
                .get(templates)
                .object()
                .path("data")
                .fields()
                .forEachRemaining(e -> data.put(e.getKey(), e.getValue().asText()));
        String image =
                manifests.get(os).object().path("data").path("baseOSContainerImage").asText();
        assertThat(image).isEqualTo("quay.example/upshift-demo/node-os:4.18.2");
        List<MachineConfig> base =
                BaseConfigs.render(TemplateSet.parse(data), ControllerConfig.of("4.18.2", image));
        assertThat(base)
                .extracting(mc -> mc.getMetadata().getName())
                .containsExactly(
                        "00-master", "00-worker", "01-master-kubelet", "01-worker-kubelet");
        assertThat(
                        Mappers.JSON
                                .valueToTree(base.get(1).getSpec().getConfig())
                                .at("/storage/files")
                                .findValuesAsText("path"))
                .containsExactly("/etc/upshift-demo/release", "/etc/upshift-demo/role");
        assertThat(base.get(1).getSpec().getOsImageURL()).isEqualTo(image);
    }

    private static int index(List<Manifest> manifests, String kind, String name) {
        for (int i = 0; i < manifests.size(); i++) {
            if (manifests.get(i).kind().equals(kind) && manifests.get(i).name().equals(name))
                return i;
        }
        return -1;
    }
}
