package io.upshift.status.model;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.CustomResource;
import io.upshift.api.update.ControlPlane;
import io.upshift.api.update.Informer;
import io.upshift.api.update.Insight;
import io.upshift.api.update.InsightObjects;
import io.upshift.api.update.InsightSpec;
import io.upshift.api.update.InsightType;
import io.upshift.api.update.Pool;
import io.upshift.api.update.UpdateStatusStatus;
import io.upshift.api.update.insight.ClusterOperatorProgressInsight;
import io.upshift.api.update.insight.ClusterVersionProgressInsight;
import io.upshift.api.update.insight.HealthInsightObject;
import io.upshift.api.update.insight.MachineConfigPoolProgressInsight;
import io.upshift.api.update.insight.NodeProgressInsight;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The UpdateStatus as it is stored: one object per insight (openshift/api PR #2233's kinds) and the
 * UpdateStatus {@code cluster} as a summary of them, which holds the ClusterVersion and pool
 * insights (small, one per pool) and, per kind, how many objects there are and their names; node
 * insights are named as their nodes and not listed, so that the summary stays small however many
 * nodes there are. {@link #split} and {@link #join} are inverses: joining the summary with the
 * objects gives the status that was split, insights in the same order.
 */
public final class StatusObjects {
    /** When the insight's content last changed (an insight's {@code acquiredAt}). */
    public static final String ACQUIRED_AT = "upshift.io/acquired-at";

    /**
     * The summary to write into the UpdateStatus, and one object per insight, none with an owner
     * yet.
     */
    public record Split(UpdateStatusStatus summary, List<HasMetadata> objects) {}

    private StatusObjects() {}

    /** The plural resource name of the objects holding insights of a type. */
    public static String resource(InsightType type) {
        return switch (type) {
            case ClusterVersion -> ClusterVersionProgressInsight.PLURAL;
            case ClusterOperator -> ClusterOperatorProgressInsight.PLURAL;
            case MachineConfigPool -> MachineConfigPoolProgressInsight.PLURAL;
            case Node -> NodeProgressInsight.PLURAL;
            case Health -> HealthInsightObject.PLURAL;
        };
    }

    public static Split split(UpdateStatusStatus full) {
        List<HasMetadata> objects = new ArrayList<>(full.insights().size());
        Map<InsightType, List<String>> names = new EnumMap<>(InsightType.class);
        for (InsightType t : InsightType.values()) {
            names.put(t, new ArrayList<>());
        }
        ControlPlane cp = full.controlPlane();
        ControlPlane summaryCp =
                cp == null
                        ? null
                        : new ControlPlane(
                                cp.conditions(),
                                cp.resource(),
                                cp.poolResource(),
                                keep(cp.informers(), objects, names));
        List<Pool> pools = new ArrayList<>(full.workerPools().size());
        for (Pool p : full.workerPools()) {
            pools.add(
                    new Pool(
                            p.conditions(),
                            p.name(),
                            p.resource(),
                            keep(p.informers(), objects, names)));
        }
        List<InsightObjects> where = new ArrayList<>();
        names.forEach(
                (type, n) ->
                        where.add(
                                new InsightObjects(
                                        resource(type),
                                        n.size(),
                                        type == InsightType.Node ? null : n)));
        return new Split(
                new UpdateStatusStatus(full.conditions(), summaryCp, pools, where), objects);
    }

    /**
     * The insights an informer keeps in the summary (ClusterVersion and pools); every insight
     * becomes an object.
     */
    private static List<Informer> keep(
            List<Informer> informers,
            List<HasMetadata> objects,
            Map<InsightType, List<String>> names) {
        List<Informer> out = new ArrayList<>(informers.size());
        for (Informer informer : informers) {
            List<Insight> kept = new ArrayList<>();
            for (Insight i : informer.insights()) {
                HasMetadata o = object(i);
                objects.add(o);
                names.get(i.type()).add(o.getMetadata().getName());
                if (i.type() == InsightType.ClusterVersion
                        || i.type() == InsightType.MachineConfigPool) {
                    kept.add(i);
                }
            }
            out.add(new Informer(informer.name(), kept));
        }
        return out;
    }

    /**
     * The name of an insight's object: its subject's name (upstream's rule), or for a health
     * insight its uid.
     */
    public static String name(Insight i) {
        return switch (i.type()) {
            case ClusterVersion -> i.clusterVersion().resource().name();
            case ClusterOperator -> i.clusterOperator().name();
            case MachineConfigPool -> i.machineConfigPool().name();
            case Node -> i.node().name();
            case Health -> i.uid();
        };
    }

    /** The object holding one insight. */
    public static HasMetadata object(Insight i) {
        CustomResource<InsightSpec, ?> o =
                switch (i.type()) {
                    case ClusterVersion -> {
                        var x = new ClusterVersionProgressInsight();
                        x.setStatus(i.clusterVersion());
                        yield x;
                    }
                    case ClusterOperator -> {
                        var x = new ClusterOperatorProgressInsight();
                        x.setStatus(i.clusterOperator());
                        yield x;
                    }
                    case MachineConfigPool -> {
                        var x = new MachineConfigPoolProgressInsight();
                        x.setStatus(i.machineConfigPool());
                        yield x;
                    }
                    case Node -> {
                        var x = new NodeProgressInsight();
                        x.setStatus(i.node());
                        yield x;
                    }
                    case Health -> {
                        var x = new HealthInsightObject();
                        x.setStatus(i.health());
                        yield x;
                    }
                };
        o.setMetadata(
                new ObjectMetaBuilder()
                        .withName(name(i))
                        .addToAnnotations(ACQUIRED_AT, i.acquiredAt())
                        .build());
        return o;
    }

    /**
     * The insight an object holds, with the uid the assessment gives it; null for an object without
     * status.
     */
    public static Insight insight(HasMetadata o) {
        String name = o.getMetadata().getName();
        Map<String, String> annotations = o.getMetadata().getAnnotations();
        String acquired = annotations == null ? null : annotations.get(ACQUIRED_AT);
        if (o instanceof ClusterVersionProgressInsight x && x.getStatus() != null) {
            return Insight.of(InsightIds.of("cv", name), acquired, x.getStatus());
        } else if (o instanceof ClusterOperatorProgressInsight x && x.getStatus() != null) {
            return Insight.of(InsightIds.of("co", name), acquired, x.getStatus());
        } else if (o instanceof MachineConfigPoolProgressInsight x && x.getStatus() != null) {
            return Insight.of(InsightIds.of("mcp", name), acquired, x.getStatus());
        } else if (o instanceof NodeProgressInsight x && x.getStatus() != null) {
            return Insight.of(InsightIds.of("node", name), acquired, x.getStatus());
        } else if (o instanceof HealthInsightObject x && x.getStatus() != null) {
            return Insight.of(name, acquired, x.getStatus());
        }
        return null;
    }

    /**
     * The whole status from the summary and the objects: operators after the ClusterVersion (by
     * name, as the API lists them), each pool's nodes after the pool in display order, health
     * insights in the order the summary names them (others after, by name). Insights the summary
     * holds itself stay; objects of pools the summary lacks are left out.
     */
    public static UpdateStatusStatus join(
            UpdateStatusStatus summary, Collection<? extends HasMetadata> objects) {
        if (summary == null || summary.controlPlane() == null) {
            return summary;
        }
        Set<String> inSummary = new HashSet<>();
        summary.insights().forEach(i -> inSummary.add(i.uid()));
        List<Insight> operators = new ArrayList<>();
        Map<String, List<Insight>> nodesByPool = new HashMap<>();
        Map<String, Insight> health = new LinkedHashMap<>();
        for (HasMetadata o : objects) {
            Insight i = insight(o);
            if (i == null || inSummary.contains(i.uid())) {
                continue;
            }
            switch (i.type()) {
                case ClusterOperator -> operators.add(i);
                case Node -> {
                    String pool =
                            i.node().poolResource() == null ? "" : i.node().poolResource().name();
                    nodesByPool.computeIfAbsent(pool, k -> new ArrayList<>()).add(i);
                }
                case Health -> health.put(i.uid(), i);
                default -> {} // the ClusterVersion and pools: the summary's copies stand
            }
        }
        operators.sort(Comparator.comparing(i -> i.clusterOperator().name()));
        Comparator<Insight> display =
                Comparator.comparing(Insight::node, NodeInsights.DISPLAY_ORDER);
        nodesByPool.values().forEach(l -> l.sort(display));
        List<Insight> orderedHealth = new ArrayList<>();
        for (String name : raised(summary)) {
            Insight h = health.remove(name);
            if (h != null) {
                orderedHealth.add(h);
            }
        }
        health.values().stream()
                .sorted(Comparator.comparing(Insight::uid))
                .forEach(orderedHealth::add);

        ControlPlane cp = summary.controlPlane();
        String masterPool = cp.poolResource() == null ? null : cp.poolResource().name();
        List<Informer> cpInformers = new ArrayList<>();
        for (Informer informer : cp.informers()) {
            List<Insight> insights = new ArrayList<>(informer.insights());
            switch (informer.name()) {
                case UpdateAssessment.CLUSTER_VERSION_INFORMER -> insights.addAll(operators);
                case UpdateAssessment.NODES_INFORMER ->
                        insights.addAll(nodesByPool.getOrDefault(masterPool, List.of()));
                case UpdateAssessment.HEALTH_INFORMER -> insights.addAll(orderedHealth);
                default -> {}
            }
            cpInformers.add(new Informer(informer.name(), insights));
        }
        List<Pool> pools = new ArrayList<>(summary.workerPools().size());
        for (Pool p : summary.workerPools()) {
            List<Informer> informers = new ArrayList<>();
            for (Informer informer : p.informers()) {
                List<Insight> insights = new ArrayList<>(informer.insights());
                if (informer.name().equals(UpdateAssessment.NODES_INFORMER)) {
                    insights.addAll(nodesByPool.getOrDefault(p.name(), List.of()));
                }
                informers.add(new Informer(informer.name(), insights));
            }
            pools.add(new Pool(p.conditions(), p.name(), p.resource(), informers));
        }
        return new UpdateStatusStatus(
                summary.conditions(),
                new ControlPlane(cp.conditions(), cp.resource(), cp.poolResource(), cpInformers),
                pools);
    }

    /** The names of the health insight objects, in the order they were raised. */
    private static List<String> raised(UpdateStatusStatus summary) {
        return summary.insightObjects().stream()
                .filter(o -> o.resource().equals(HealthInsightObject.PLURAL))
                .findFirst()
                .map(InsightObjects::names)
                .orElse(List.of());
    }
}
