package io.upshift.releases.capability;

import static org.assertj.core.api.Assertions.assertThat;

import io.upshift.releases.manifest.Manifest;
import io.upshift.releases.manifest.ManifestReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

class ImplicitCapabilitiesTest {

    static Manifest manifest(String name, String caps) throws Exception {
        return ManifestReader.read(
                        "f.yaml",
                        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: "
                                + name
                                + "\n  namespace: ns\n  annotations:\n"
                                + "    capability.openshift.io/name: "
                                + caps
                                + "\n")
                .get(0);
    }

    @Test
    void aResourceMovingUnderADisabledCapabilityEnablesIt() throws Exception {
        Capabilities enabled = new Capabilities(Set.of("A", "B", "C"), Set.of("A"));
        assertThat(
                        ImplicitCapabilities.of(
                                List.of(manifest("x", "A")), List.of(manifest("x", "B")), enabled))
                .containsExactly("B");
        // not applied now (its capability is disabled): nothing to keep
        assertThat(
                        ImplicitCapabilities.of(
                                List.of(manifest("x", "C")), List.of(manifest("x", "B")), enabled))
                .isEmpty();
        // a new resource under a disabled capability stays off
        assertThat(ImplicitCapabilities.of(List.of(), List.of(manifest("y", "B")), enabled))
                .isEmpty();
    }

    /**
     * The reference's capability test payloads: current/ and update/ of test1 (cap1 -> cap2) and
     * test6.
     */
    @Test
    void referenceCapabilityPayloads() throws Exception {
        Path dir =
                Path.of(
                        System.getProperty("upshift.fixtures", "../../shared/fixtures"),
                        "cvo-payloads",
                        "payloadcapabilitytest");
        Assumptions.assumeTrue(Files.isDirectory(dir), "shared fixtures not present");
        Capabilities enabled = new Capabilities(Set.of("cap1", "cap2", "cap3"), Set.of("cap1"));
        assertThat(
                        ImplicitCapabilities.of(
                                read(dir.resolve("test1/current")),
                                read(dir.resolve("test1/update")),
                                enabled))
                .containsExactly("cap2");
        assertThat(
                        ImplicitCapabilities.of(
                                read(dir.resolve("test6/current")),
                                read(dir.resolve("test6/update")),
                                enabled))
                .containsExactly("cap2");
    }

    static List<Manifest> read(Path dir) throws Exception {
        List<Manifest> out = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.sorted().toList())
                out.addAll(ManifestReader.read(f.getFileName().toString(), Files.readString(f)));
        }
        return out;
    }
}
