package io.upshift.pools.controller;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfig;
import io.upshift.api.json.Mappers;
import io.upshift.pools.templates.BaseConfigs;
import io.upshift.pools.templates.ControllerConfig;
import io.upshift.pools.templates.TemplateSet;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The base MachineConfigs of the controller's release, rendered from the templates its payload
 * ships (the ConfigMap {@value #TEMPLATES}) with the release's OS image ({@value #OS_IMAGE_URL},
 * upstream's) and the cluster's values, as upstream's template controller renders them from the
 * templates in its image. Only the controller's own release's templates are rendered: during an
 * update the next release's ConfigMaps arrive while this release's controller still runs, and it
 * leaves them to the next release's controller. A config is written only when it differs, as an
 * update conditional on the config as read; configs rendered from templates that the templates no
 * longer make are deleted. Without a templates ConfigMap nothing is rendered: the MachineConfigs
 * are whatever the payload and the administrators applied.
 */
final class BaseConfigSync {
    static final String TEMPLATES = "machine-config-templates";
    static final String OS_IMAGE_URL = "machine-config-osimageurl";
    private static final Logger LOG = LoggerFactory.getLogger(BaseConfigSync.class);

    /**
     * @param configs the MachineConfigs as this pass leaves them (those written in place of those
     *     read)
     * @param failure why the templates did not render (nothing was written then), or null
     */
    record Result(List<MachineConfig> configs, String failure) {}

    private final KubernetesClient client;
    private final String namespace;
    private final String releaseVersion;
    private final PoolCaches caches;
    private String waiting = "";
    private String failed = "";

    /**
     * @param caches where the templates, the OS image ConfigMap and the cluster's config objects
     *     are read
     */
    BaseConfigSync(
            KubernetesClient client, String namespace, String releaseVersion, PoolCaches caches) {
        this.client = client;
        this.namespace = namespace;
        this.releaseVersion = releaseVersion;
        this.caches = caches;
    }

    /** Renders and writes the base configs; {@code live} are the MachineConfigs as cached. */
    Result sync(List<MachineConfig> live) {
        ConfigMap set = caches.templates();
        if (set == null) return new Result(live, null);
        String where = "ConfigMap " + namespace + "/" + TEMPLATES + ": ";
        List<MachineConfig> desired;
        try {
            TemplateSet parsed =
                    TemplateSet.parse(set.getData() == null ? Map.of() : set.getData());
            if (!parsed.releaseVersion().equals(releaseVersion))
                return wait("the templates are release " + parsed.releaseVersion() + "'s", live);
            ConfigMap os = caches.osImages();
            Map<String, String> osData =
                    os == null || os.getData() == null ? Map.of() : os.getData();
            if (os != null && !releaseVersion.equals(osData.get("releaseVersion"))) {
                return wait(
                        OS_IMAGE_URL + " is release " + osData.get("releaseVersion") + "'s", live);
            }
            String image = osData.getOrDefault("baseOSContainerImage", "");
            if (image.isEmpty()) image = osData.getOrDefault("osImageURL", "");
            ControllerConfig config =
                    caches.cluster()
                            .controllerConfig(
                                    releaseVersion,
                                    image,
                                    osData.getOrDefault("baseOSExtensionsContainerImage", ""));
            desired = BaseConfigs.render(parsed, config);
        } catch (IllegalArgumentException e) {
            String failure = where + e.getMessage();
            if (!failure.equals(failed))
                LOG.warn("base configs not rendered, no pool rendered: {}", failure);
            failed = failure;
            return new Result(live, failure);
        }
        waiting = "";
        failed = "";
        return new Result(write(desired, live), null);
    }

    private Result wait(String why, List<MachineConfig> live) {
        if (!why.equals(waiting))
            LOG.info(
                    "base configs left as they are: {}, this controller is release {}'s",
                    why,
                    releaseVersion);
        waiting = why;
        return new Result(live, null);
    }

    private List<MachineConfig> write(List<MachineConfig> desired, List<MachineConfig> live) {
        Map<String, MachineConfig> now = new LinkedHashMap<>();
        live.forEach(mc -> now.put(mc.getMetadata().getName(), mc));
        for (MachineConfig want : desired) {
            String name = want.getMetadata().getName();
            MachineConfig have = now.get(name);
            if (have == null) {
                // a 409 (the cache is behind) ends the pass; the next one compares with the config
                // as it is
                now.put(name, client.resources(MachineConfig.class).resource(want).create());
                LOG.info(
                        "machineconfigs/{} rendered from the templates of release {}",
                        name,
                        releaseVersion);
            } else if (differs(want, have)) {
                MachineConfig next =
                        Mappers.JSON.convertValue(
                                Mappers.JSON.valueToTree(have), MachineConfig.class);
                next.getMetadata()
                        .setLabels(
                                merged(
                                        have.getMetadata().getLabels(),
                                        want.getMetadata().getLabels()));
                next.getMetadata()
                        .setAnnotations(
                                merged(
                                        have.getMetadata().getAnnotations(),
                                        want.getMetadata().getAnnotations()));
                next.setSpec(want.getSpec());
                now.put(
                        name,
                        client.resource(next)
                                .update()); // conditional: carries the resourceVersion read
                LOG.info(
                        "machineconfigs/{} rendered again from the templates of release {}",
                        name,
                        releaseVersion);
            }
        }
        Set<String> wanted =
                desired.stream().map(mc -> mc.getMetadata().getName()).collect(Collectors.toSet());
        for (MachineConfig mc : live) {
            String name = mc.getMetadata().getName();
            if (BaseConfigs.isFromTemplates(mc) && !wanted.contains(name)) {
                client.resources(MachineConfig.class).withName(name).delete();
                now.remove(name);
                LOG.info(
                        "machineconfigs/{} deleted: the templates of release {} no longer make it",
                        name,
                        releaseVersion);
            }
        }
        List<MachineConfig> out = new ArrayList<>(now.values());
        out.sort(Comparator.comparing(mc -> mc.getMetadata().getName()));
        return out;
    }

    /** Its labels and annotations lack or differ from the template's, or its spec is another. */
    private static boolean differs(MachineConfig want, MachineConfig have) {
        return !contains(have.getMetadata().getLabels(), want.getMetadata().getLabels())
                || !contains(
                        have.getMetadata().getAnnotations(), want.getMetadata().getAnnotations())
                || !canonical(want.getSpec()).equals(canonical(have.getSpec()));
    }

    private static boolean contains(Map<String, String> have, Map<String, String> want) {
        Map<String, String> h = have == null ? Map.of() : have;
        return want.entrySet().stream()
                .allMatch(e -> Objects.equals(h.get(e.getKey()), e.getValue()));
    }

    private static Map<String, String> merged(Map<String, String> have, Map<String, String> want) {
        Map<String, String> out = new HashMap<>(have == null ? Map.of() : have);
        out.putAll(want);
        return out;
    }

    /** Through text, so that numbers read as ints and as longs compare equal. */
    private static JsonNode canonical(Object spec) {
        try {
            return Mappers.JSON.readTree(Mappers.JSON.writeValueAsString(spec));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
