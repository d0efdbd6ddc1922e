package io.upshift.pools.disruption;

import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** MachineConfig specs for tests, built up a field at a time. */
final class Specs {
    private final List<Map<String, Object>> files = new ArrayList<>();
    private final List<Map<String, Object>> units = new ArrayList<>();
    private final Map<String, Object> extra = new LinkedHashMap<>();
    private List<String> keys;
    private final MachineConfigSpec spec = new MachineConfigSpec();

    static Specs spec() {
        Specs s = new Specs();
        s.spec.setOsImageURL("dummy://");
        return s;
    }

    Specs file(String path, String contents) {
        files.add(
                new LinkedHashMap<>(
                        Map.of(
                                "path",
                                path,
                                "mode",
                                420,
                                "contents",
                                Map.of("source", "data:," + contents))));
        return this;
    }

    Specs fileWithMode(String path, String contents, int mode) {
        files.add(
                new LinkedHashMap<>(
                        Map.of(
                                "path",
                                path,
                                "mode",
                                mode,
                                "contents",
                                Map.of("source", "data:," + contents))));
        return this;
    }

    Specs unit(Map<String, Object> unit) {
        units.add(unit);
        return this;
    }

    Specs sshKeys(String... keys) {
        this.keys = List.of(keys);
        return this;
    }

    /**
     * Any other top-level Ignition section, e.g. {@code storage.disks} as ("disks", [...]) under
     * storage.
     */
    Specs ignition(String section, Object value) {
        extra.put(section, value);
        return this;
    }

    Specs os(String image) {
        spec.setOsImageURL(image);
        return this;
    }

    Specs kargs(String... kargs) {
        spec.setKernelArguments(List.of(kargs));
        return this;
    }

    Specs extensions(String... extensions) {
        spec.setExtensions(List.of(extensions));
        return this;
    }

    Specs kernelType(String type) {
        spec.setKernelType(type);
        return this;
    }

    Specs fips(boolean fips) {
        spec.setFips(fips);
        return this;
    }

    MachineConfigSpec build() {
        Map<String, Object> config = new LinkedHashMap<>();
        config.put("ignition", Map.of("version", "3.2.0"));
        Map<String, Object> storage = new LinkedHashMap<>();
        storage.put("files", files);
        for (Map.Entry<String, Object> e : extra.entrySet()) {
            if (List.of("disks", "filesystems", "raid", "directories", "links")
                    .contains(e.getKey())) storage.put(e.getKey(), e.getValue());
            else config.put(e.getKey(), e.getValue());
        }
        config.put("storage", storage);
        config.put("systemd", Map.of("units", units));
        if (keys != null)
            config.put(
                    "passwd",
                    Map.of("users", List.of(Map.of("name", "core", "sshAuthorizedKeys", keys))));
        spec.setConfig(config);
        return spec;
    }
}
