package io.upshift.demo;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.openshift.api.model.config.v1.ClusterVersion;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfig;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigBuilder;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigPool;
import io.upshift.api.json.Mappers;
import io.upshift.clusterversion.model.AdminGates;
import io.upshift.pools.model.MaintenanceWindow;
import io.upshift.pools.model.NodeAnnotations;
import io.upshift.pools.model.PoolMembers;
import io.upshift.pools.model.SoakTime;
import io.upshift.rehearsal.model.ClusterFacts;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The objects a rehearsal seeds its embedded copy of a cluster with, from what it read: each as the
 * cluster had it, without what its API server had set (resourceVersion, uid, managed fields), in
 * namespaces made for them; the ClusterVersion without its update service (the copy asks no one on
 * the network for updates), and it and the pools without their maintenance windows and soak times
 * (the rehearsal adds those waits to the timeline itself). A payload without the machine-config
 * operator's templates renders no base config, so each pool gets one ({@value #BASE}) with the
 * content of the config its nodes run, selected by the pool's role: the machine-config run-level
 * then changes its OS image, as a new release's operator would, and the pool controller renders
 * from it.
 */
final class SeededCluster {
    /** The base config each pool gets: {@code 00-<pool>-rehearsal}. */
    static final String BASE = "00-%s-rehearsal";

    static final String ROLE = "machineconfiguration.openshift.io/role";

    private SeededCluster() {}

    /** The objects but nodes (which the copy registers with their agents), in creation order. */
    static List<HasMetadata> objects(ClusterFacts facts, boolean baseConfigs) {
        List<HasMetadata> out = new ArrayList<>();
        Set<String> namespaces = new LinkedHashSet<>();
        List<HasMetadata> namespaced = new ArrayList<>();
        namespaced.addAll(facts.budgets());
        // a pod already terminating is going away: a drain leaves it alone, and so does the copy
        facts.pods().stream()
                .filter(pod -> pod.getMetadata().getDeletionTimestamp() == null)
                .forEach(namespaced::add);
        namespaced.addAll(facts.signatures());
        namespaced.addAll(adminGates(facts.adminGates()));
        for (HasMetadata o : namespaced) namespaces.add(o.getMetadata().getNamespace());
        for (String ns : namespaces)
            out.add(new NamespaceBuilder().withNewMetadata().withName(ns).endMetadata().build());
        ClusterVersion cv = fresh(facts.clusterVersion());
        if (cv.getSpec() != null) cv.getSpec().setUpstream(null);
        withoutWaits(cv);
        out.add(cv);
        facts.state().operators().forEach(o -> out.add(fresh(o)));
        facts.state().machineConfigs().forEach(o -> out.add(fresh(o)));
        for (MachineConfigPool pool : facts.state().pools()) {
            MachineConfigPool p = fresh(pool);
            withoutWaits(p);
            if (baseConfigs) {
                String name = p.getMetadata().getName();
                if (p.getSpec().getMachineConfigSelector() == null)
                    p.getSpec()
                            .setMachineConfigSelector(
                                    new LabelSelectorBuilder()
                                            .withMatchLabels(Map.of(ROLE, name))
                                            .build());
                MachineConfig running = running(facts, pool);
                if (running != null) out.add(base(name, p, running));
            }
            out.add(p);
        }
        namespaced.forEach(o -> out.add(fresh(o)));
        return out;
    }

    /** The nodes, as the cluster had them. */
    static List<Node> nodes(ClusterFacts facts) {
        return facts.state().nodes().stream().map(SeededCluster::fresh).toList();
    }

    private static List<HasMetadata> adminGates(AdminGates.ConfigMaps maps) {
        List<HasMetadata> out = new ArrayList<>();
        if (maps.gates() != null)
            out.add(configMap(AdminGates.GATES_NAMESPACE, AdminGates.GATES, maps.gates()));
        if (maps.acks() != null)
            out.add(configMap(AdminGates.ACKS_NAMESPACE, AdminGates.ACKS, maps.acks()));
        return out;
    }

    private static ConfigMap configMap(String namespace, String name, Map<String, String> data) {
        return new ConfigMapBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace(namespace)
                .endMetadata()
                .withData(data)
                .build();
    }

    /**
     * The config the pool's nodes run (the pool's current configuration, else its first node's).
     */
    private static MachineConfig running(ClusterFacts facts, MachineConfigPool pool) {
        String name =
                pool.getStatus() != null && pool.getStatus().getConfiguration() != null
                        ? pool.getStatus().getConfiguration().getName()
                        : null;
        if (name == null) {
            List<Node> members =
                    PoolMembers.assign(facts.state().pools(), facts.state().nodes())
                            .get(pool.getMetadata().getName());
            if (!members.isEmpty() && members.get(0).getMetadata().getAnnotations() != null)
                name =
                        members.get(0)
                                .getMetadata()
                                .getAnnotations()
                                .get(NodeAnnotations.CURRENT_CONFIG);
        }
        String wanted = name;
        return facts.state().machineConfigs().stream()
                .filter(mc -> mc.getMetadata().getName().equals(wanted))
                .findFirst()
                .orElse(null);
    }

    /** A base config for the pool with the content its nodes run, matched by its selector. */
    private static MachineConfig base(String pool, MachineConfigPool p, MachineConfig running) {
        Map<String, String> labels =
                new LinkedHashMap<>(
                        p.getSpec().getMachineConfigSelector().getMatchLabels() == null
                                ? Map.of()
                                : p.getSpec().getMachineConfigSelector().getMatchLabels());
        return new MachineConfigBuilder()
                .withNewMetadata()
                .withName(String.format(BASE, pool))
                .withLabels(labels)
                .endMetadata()
                .withSpec(
                        Mappers.JSON.convertValue(running.getSpec(), running.getSpec().getClass()))
                .build();
    }

    /**
     * Without the windows and soak times that would make the copy wait on its accelerated clock for
     * hours of the real one: the copy times the work, and the rehearsal lays those waits over its
     * timeline ({@code TimelineWaits}).
     */
    private static void withoutWaits(HasMetadata o) {
        Map<String, String> a = o.getMetadata().getAnnotations();
        if (a == null) return;
        Map<String, String> kept = new LinkedHashMap<>(a);
        kept.remove(MaintenanceWindow.ANNOTATION);
        kept.remove(SoakTime.ANNOTATION);
        o.getMetadata().setAnnotations(kept);
    }

    /** A copy without what the API server set. */
    @SuppressWarnings("unchecked")
    static <T extends HasMetadata> T fresh(T o) {
        T copy = (T) Mappers.JSON.convertValue(o, o.getClass());
        ObjectMeta m = copy.getMetadata();
        m.setResourceVersion(null);
        m.setUid(null);
        m.setManagedFields(null);
        m.setGeneration(null);
        m.setSelfLink(null);
        m.setDeletionTimestamp(null);
        m.setDeletionGracePeriodSeconds(null);
        return copy;
    }
}
