package io.upshift.graph.updates;

import io.upshift.base.version.SemVer;
import io.upshift.graph.model.ConditionalEdges;
import io.upshift.graph.model.Graph;
import io.upshift.graph.model.GraphNode;
import io.upshift.graph.model.Risk;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The updates a graph offers a cluster at {@code current}, as the reference's update client
 * computes them: targets of edges out of the current node; conditional targets of conditional edges
 * from it; a target both conditional and unconditional stays conditional; matching rules of unknown
 * type are pruned and a risk left with none drops its target (the API would reject it); a target in
 * several conditional entries is dropped.
 */
public final class GraphUpdates {

    /** The matching rule types a cluster can evaluate. */
    public static final Set<String> KNOWN_RULES = Set.of("Always", "PromQL");

    private GraphUpdates() {}

    public static RetrievedUpdates compute(
            Graph graph, SemVer current, String channel, Consumer<String> warnings)
            throws UpdatesException {
        return compute(graph, current, channel, false, warnings);
    }

    /**
     * As {@link #compute(Graph, SemVer, String, Consumer)}; {@code migratingToMulti}: the graph is
     * the multi-architecture one and the cluster runs a single architecture, so the only update is
     * its own version's node, as upstream's client answers then (pkg/cincinnati GetUpdates).
     */
    public static RetrievedUpdates compute(
            Graph graph,
            SemVer current,
            String channel,
            boolean migratingToMulti,
            Consumer<String> warnings)
            throws UpdatesException {
        Integer at = null;
        for (int i = 0; i < graph.nodes().size(); i++) {
            String v = graph.nodes().get(i).version();
            if (SemVer.isValid(v) && SemVer.parse(v).compareTo(current) == 0) {
                at = i;
                break;
            }
        }
        if (at == null) {
            throw new UpdatesException(
                    "VersionNotFound",
                    "currently reconciling cluster version "
                            + current
                            + " not found in the \""
                            + channel
                            + "\" channel");
        }
        Target currentTarget = Target.of(graph.nodes().get(at));
        if (migratingToMulti)
            return new RetrievedUpdates(currentTarget, List.of(currentTarget), List.of());
        List<Target> available = new ArrayList<>();
        for (int[] e : graph.edges())
            if (e[0] == at) available.add(Target.of(graph.nodes().get(e[1])));

        Map<String, GraphNode> byVersion = new HashMap<>();
        graph.nodes().forEach(n -> byVersion.put(n.version(), n));
        List<ConditionalTarget> conditional = new ArrayList<>();
        for (ConditionalEdges c : graph.conditionalEdges()) {
            for (ConditionalEdges.Edge e : c.edges()) {
                if (!e.from().equals(current.toString())) continue;
                GraphNode to = byVersion.get(e.to());
                if (to == null)
                    throw new UpdatesException(
                            "ResponseInvalid", "no node for conditional update " + e.to());
                conditional.add(new ConditionalTarget(Target.of(to), c.risks()));
            }
        }
        available.removeIf(
                a ->
                        conditional.stream()
                                .anyMatch(
                                        c -> {
                                            boolean both = c.release().image().equals(a.image());
                                            if (both)
                                                warnings.accept(
                                                        "update to "
                                                                + a.version()
                                                                + " is listed as both conditional"
                                                                + " and unconditional; preferring"
                                                                + " the conditional update");
                                            return both;
                                        }));
        List<ConditionalTarget> pruned = new ArrayList<>();
        for (ConditionalTarget c : conditional) {
            List<Risk> risks = new ArrayList<>();
            boolean drop = false;
            for (Risk r : c.risks()) {
                List<Risk.MatchingRule> rules =
                        r.matchingRules().stream()
                                .filter(
                                        m ->
                                                KNOWN_RULES.contains(m.type())
                                                        && (!"PromQL".equals(m.type())
                                                                || (m.promql() != null
                                                                        && !m.promql().isBlank())))
                                .toList();
                if (rules.size() < r.matchingRules().size()) {
                    warnings.accept(
                            "conditional update to "
                                    + c.release().version()
                                    + ", risk "
                                    + r.name()
                                    + ": unrecognized or invalid matching rules pruned");
                }
                if (rules.isEmpty()) {
                    warnings.accept(
                            "conditional update to "
                                    + c.release().version()
                                    + ", risk "
                                    + r.name()
                                    + " has no matching rule left; dropping this target");
                    drop = true;
                    break;
                }
                risks.add(new Risk(r.url(), r.name(), r.message(), rules));
            }
            if (!drop) pruned.add(new ConditionalTarget(c.release(), risks));
        }
        Map<String, Integer> count = new HashMap<>();
        pruned.forEach(c -> count.merge(c.release().image(), 1, Integer::sum));
        pruned.removeIf(
                c -> {
                    boolean many = count.get(c.release().image()) > 1;
                    if (many)
                        warnings.accept(
                                "upstream declares "
                                        + count.get(c.release().image())
                                        + " conditional updates to "
                                        + c.release().version()
                                        + "; dropping them all");
                    return many;
                });
        return new RetrievedUpdates(currentTarget, available, pruned);
    }
}
