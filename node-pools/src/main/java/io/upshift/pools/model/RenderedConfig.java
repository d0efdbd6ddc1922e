package io.upshift.pools.model;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfig;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigSpec;
import io.upshift.api.json.Mappers;
import io.upshift.base.kube.LabelSelectors;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

/**
 * A pool's rendered MachineConfig: the MachineConfigs its {@code machineConfigSelector} selects,
 * merged in name order — a later file (by path) or unit (by name) replaces an earlier one, users
 * are merged by name (SSH keys added up), kernel arguments are appended (each once), extensions are
 * united, the last OS image given wins — named {@code rendered-<pool>-<hash of the merged
 * content>}. A file path that is relative or climbs with ".." fails the whole render: nothing of it
 * may be applied.
 */
public record RenderedConfig(String name, MachineConfigSpec spec, List<String> sources) {

    public static final String PREFIX = "rendered-";
    private static final ObjectMapper JSON = Mappers.JSON;

    public static RenderedConfig render(
            String pool, LabelSelector selector, List<MachineConfig> all) {
        List<MachineConfig> selected = new ArrayList<>();
        for (MachineConfig mc : all) {
            String name = mc.getMetadata().getName();
            if (name.startsWith(PREFIX)) continue; // rendered configs are outputs, not inputs
            Map<String, String> labels =
                    mc.getMetadata().getLabels() == null ? Map.of() : mc.getMetadata().getLabels();
            if (LabelSelectors.matches(selector, labels)) selected.add(mc);
        }
        selected.sort(Comparator.comparing(mc -> mc.getMetadata().getName()));
        Map<String, JsonNode> files = new LinkedHashMap<>(), units = new LinkedHashMap<>();
        Map<String, ObjectNode> users = new LinkedHashMap<>();
        LinkedHashSet<String> kernelArguments = new LinkedHashSet<>(),
                extensions = new LinkedHashSet<>();
        String osImage = null, kernelType = null;
        boolean fips = false;
        String ignitionVersion = "3.2.0";
        for (MachineConfig mc : selected) {
            MachineConfigSpec s = mc.getSpec() == null ? new MachineConfigSpec() : mc.getSpec();
            JsonNode config =
                    s.getConfig() == null
                            ? JSON.createObjectNode()
                            : JSON.valueToTree(s.getConfig());
            ignitionVersion = config.path("ignition").path("version").asText(ignitionVersion);
            for (JsonNode f : config.path("storage").path("files"))
                files.put(checkedPath(mc, f.path("path").asText()), f);
            for (JsonNode u : config.path("systemd").path("units"))
                units.put(checkedUnit(mc, u.path("name").asText()), u);
            for (JsonNode u : config.path("passwd").path("users")) mergeUser(users, u);
            if (s.getKernelArguments() != null) kernelArguments.addAll(s.getKernelArguments());
            if (s.getExtensions() != null) extensions.addAll(s.getExtensions());
            if (s.getOsImageURL() != null && !s.getOsImageURL().isEmpty())
                osImage = s.getOsImageURL();
            if (s.getKernelType() != null && !s.getKernelType().isEmpty())
                kernelType = s.getKernelType();
            fips |= Boolean.TRUE.equals(s.getFips());
        }
        ObjectNode config = JSON.createObjectNode();
        config.putObject("ignition").put("version", ignitionVersion);
        ArrayNode fileList = config.putObject("storage").putArray("files");
        files.keySet().stream().sorted().forEach(p -> fileList.add(files.get(p)));
        ArrayNode unitList = config.putObject("systemd").putArray("units");
        units.keySet().stream().sorted().forEach(n -> unitList.add(units.get(n)));
        if (!users.isEmpty())
            users.values().forEach(config.putObject("passwd").putArray("users")::add);
        MachineConfigSpec merged = new MachineConfigSpec();
        merged.setConfig(JSON.convertValue(config, Object.class));
        merged.setKernelArguments(new ArrayList<>(kernelArguments));
        merged.setExtensions(new ArrayList<>(extensions));
        merged.setOsImageURL(osImage == null ? "" : osImage);
        if (kernelType != null) merged.setKernelType(kernelType);
        merged.setFips(fips);
        return new RenderedConfig(
                PREFIX + pool + "-" + hash(merged),
                merged,
                selected.stream().map(mc -> mc.getMetadata().getName()).toList());
    }

    /**
     * Users by name, as Ignition merges them: a later config's fields replace an earlier one's, but
     * SSH keys add up (each once), so that every config can bring the core user its keys.
     */
    private static void mergeUser(Map<String, ObjectNode> users, JsonNode user) {
        ObjectNode before = users.get(user.path("name").asText());
        if (before == null) {
            users.put(user.path("name").asText(), user.deepCopy());
            return;
        }
        LinkedHashSet<String> keys = new LinkedHashSet<>();
        before.path("sshAuthorizedKeys").forEach(k -> keys.add(k.asText()));
        user.path("sshAuthorizedKeys").forEach(k -> keys.add(k.asText()));
        before.setAll((ObjectNode) user.deepCopy());
        if (!keys.isEmpty()) keys.forEach(before.putArray("sshAuthorizedKeys")::add);
    }

    /**
     * A file must land where it says on the host: an absolute path without ".." (the agent writes
     * it under its host root).
     */
    private static String checkedPath(MachineConfig mc, String path) {
        if (!path.startsWith("/")) throw invalid(mc, "file path \"" + path + "\" is not absolute");
        for (String segment : path.split("/")) {
            if (segment.equals(".."))
                throw invalid(mc, "file path \"" + path + "\" contains \"..\"");
        }
        return path;
    }

    private static String checkedUnit(MachineConfig mc, String name) {
        if (name.isEmpty() || name.contains("/") || name.equals(".."))
            throw invalid(mc, "systemd unit name \"" + name + "\" is not a file name");
        return name;
    }

    private static IllegalArgumentException invalid(MachineConfig mc, String why) {
        return new IllegalArgumentException(
                "MachineConfig " + mc.getMetadata().getName() + ": " + why);
    }

    private static String hash(MachineConfigSpec spec) {
        try {
            byte[] canonical = JSON.writeValueAsBytes(JSON.valueToTree(spec));
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-256").digest(canonical))
                    .substring(0, 32);
        } catch (NoSuchAlgorithmException | JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
