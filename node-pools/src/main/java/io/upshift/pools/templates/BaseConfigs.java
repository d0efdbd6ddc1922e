package io.upshift.pools.templates;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfig;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigBuilder;
import io.upshift.api.json.Mappers;
import io.upshift.pools.model.NodeAnnotations;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The base MachineConfigs of every role ({@code 00-worker}, {@code 01-worker-kubelet}, ...)
 * rendered from a release's templates, as upstream's template controller renders them ({@code
 * pkg/controller/template/render.go}, {@code generateTemplateMachineConfigs}): one MachineConfig
 * per config directory of a role, named after it and labelled with the role; into each, the
 * templates of its {@code _base} directory, then those of the cluster's platform directory (a
 * template of the same kind and file name replaces the earlier one, an empty one removes it, one
 * that renders blank makes nothing); the role {@code common}'s templates go first into the role's
 * first config. Files of the same path: the later template (by file name) wins; units of the same
 * name merge, drop-ins by name. Each carries the release's OS image, as release-4.19's generated
 * configs do (the rendered config takes the last OS image given, so an administrator's
 * MachineConfig named after them overrides it), and is annotated with the controller's release. All
 * or nothing: any template that fails fails the set.
 */
public final class BaseConfigs {
    /**
     * Upstream's annotation on the configs a controller generates, with that controller's version
     * (here: its release).
     */
    public static final String GENERATED_BY = NodeAnnotations.GENERATED_BY;

    /**
     * Marks the configs Upshift rendered from templates: those a later template set no longer makes
     * are removed.
     */
    public static final String FROM_TEMPLATES = "upshift.io/generated-from";

    public static final String FROM_TEMPLATES_VALUE = "machine-config-templates";
    public static final String ROLE_LABEL = "machineconfiguration.openshift.io/role";
    static final String IGNITION_VERSION = "3.2.0";

    private BaseConfigs() {}

    /** The base configs, by name. */
    public static List<MachineConfig> render(TemplateSet set, ControllerConfig config) {
        Map<String, String> fields = config.fields();
        List<String> platforms = new ArrayList<>(List.of(Template.BASE_PLATFORM));
        if (!config.platformDirectory().isEmpty()
                && !config.platformDirectory().equals(Template.BASE_PLATFORM))
            platforms.add(config.platformDirectory());
        Map<String, TreeSet<String>> configsByRole = new TreeMap<>();
        for (Template t : set.templates()) {
            if (!t.isCommon())
                configsByRole.computeIfAbsent(t.role(), r -> new TreeSet<>()).add(t.config());
        }
        List<MachineConfig> out = new ArrayList<>();
        configsByRole.forEach(
                (role, names) -> {
                    boolean first = true;
                    for (String name : names) {
                        Map<Template.Kind, SortedMap<String, Template>> chosen =
                                new LinkedHashMap<>();
                        for (Template.Kind k : Template.Kind.values())
                            chosen.put(k, new TreeMap<>());
                        if (first)
                            for (String platform : platforms)
                                layer(chosen, set, Template.COMMON, null, platform);
                        for (String platform : platforms) layer(chosen, set, role, name, platform);
                        first = false;
                        out.add(machineConfig(role, name, chosen, fields, config));
                    }
                });
        out.sort(Comparator.comparing(mc -> mc.getMetadata().getName()));
        return out;
    }

    private static void layer(
            Map<Template.Kind, SortedMap<String, Template>> chosen,
            TemplateSet set,
            String role,
            String config,
            String platform) {
        for (Template t : set.templates()) {
            if (!t.role().equals(role)
                    || !Objects.equals(t.config(), config)
                    || !t.platform().equals(platform)) continue;
            if (t.text().isEmpty())
                chosen.get(t.kind()).remove(t.file()); // an empty template means: not this one
            else chosen.get(t.kind()).put(t.file(), t);
        }
    }

    private static MachineConfig machineConfig(
            String role,
            String name,
            Map<Template.Kind, SortedMap<String, Template>> chosen,
            Map<String, String> fields,
            ControllerConfig config) {
        Map<String, ObjectNode> files = new TreeMap<>(), units = new TreeMap<>();
        for (Template t : chosen.get(Template.Kind.FILES).values()) {
            String text = Substitution.render(t.key(), t.text(), fields);
            if (text.isBlank()) continue;
            ObjectNode file = IgnitionEntries.file(t.key(), IgnitionEntries.yaml(t.key(), text));
            files.put(file.get("path").asText(), file);
        }
        for (Template t : chosen.get(Template.Kind.UNITS).values()) {
            String text = Substitution.render(t.key(), t.text(), fields);
            if (text.isBlank()) continue;
            ObjectNode unit = IgnitionEntries.unit(t.key(), IgnitionEntries.yaml(t.key(), text));
            units.merge(unit.get("name").asText(), unit, IgnitionEntries::mergeUnit);
        }
        ObjectNode ignition = Mappers.JSON.createObjectNode();
        ignition.putObject("ignition").put("version", IGNITION_VERSION);
        if (!files.isEmpty())
            files.values().forEach(ignition.putObject("storage").putArray("files")::add);
        if (!units.isEmpty())
            units.values().forEach(ignition.putObject("systemd").putArray("units")::add);
        return new MachineConfigBuilder()
                .withNewMetadata()
                .withName(name)
                .addToLabels(ROLE_LABEL, role)
                .addToAnnotations(GENERATED_BY, config.releaseVersion())
                .addToAnnotations(FROM_TEMPLATES, FROM_TEMPLATES_VALUE)
                .endMetadata()
                .withNewSpec()
                .withConfig(Mappers.JSON.convertValue(ignition, Object.class))
                .withOsImageURL(config.osImageURL().isEmpty() ? null : config.osImageURL())
                .endSpec()
                .build();
    }

    /** True when {@code mc} is one of the configs Upshift renders from templates. */
    public static boolean isFromTemplates(MachineConfig mc) {
        Map<String, String> a = mc.getMetadata().getAnnotations();
        return a != null && FROM_TEMPLATES_VALUE.equals(a.get(FROM_TEMPLATES));
    }

    /**
     * The release whose controller generated {@code mc}, or "" for a config no controller
     * generated.
     */
    public static String generatedBy(MachineConfig mc) {
        Map<String, String> a = mc.getMetadata().getAnnotations();
        return a == null ? "" : a.getOrDefault(GENERATED_BY, "");
    }
}
