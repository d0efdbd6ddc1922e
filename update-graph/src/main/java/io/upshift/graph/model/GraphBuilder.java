package io.upshift.graph.model;

import io.upshift.base.version.SemVer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Builds the full update graph, all architectures, as the reference graph service's pipeline does:
 * releases give nodes ({@code version+arch}) and edges (previous, next); graph data adds raw
 * metadata, channel membership, hard blocks and conditional blocks; then metadata edits add and
 * remove edges, edges into a conditionally blocked release become conditional edges with their
 * risks. {@link #serve} cuts out one channel and architecture.
 * https://github.com/openshift/cincinnati (openshift-secondary-metadata-parse, edge-add-remove,
 * arch-filter, channel-filter)
 */
public final class GraphBuilder {

    static final String PREFIX = "io.openshift.upgrades.graph.";
    static final String ARCH = PREFIX + "release.arch";
    static final String REMOVE_REGEX = PREFIX + "previous.remove_regex";
    static final String PREVIOUS_ADD = PREFIX + "previous.add";
    static final String PREVIOUS_REMOVE = PREFIX + "previous.remove";
    static final String NEXT_ADD = PREFIX + "next.add";
    static final String NEXT_REMOVE = PREFIX + "next.remove";
    static final String RELEASE_REMOVE = PREFIX + "release.remove";

    /** The whole graph: versions carry their architecture as build metadata. */
    public record Built(List<Node> nodes, Set<Edge> edges, List<ConditionalEdges> conditional) {}

    /** A node while building. */
    public record Node(
            String version, SemVer semver, String payload, Map<String, String> metadata) {
        String arch() {
            return metadata.get(ARCH);
        }
    }

    record Edge(int from, int to) {}

    private GraphBuilder() {}

    public static Built build(List<ReleaseEntry> releases, GraphData data) throws GraphException {
        List<Node> nodes = new ArrayList<>();
        Map<String, Integer> byVersion = new HashMap<>();
        for (ReleaseEntry r : releases) {
            if (!SemVer.isValid(r.version()))
                throw new GraphException(
                        "invalid_release",
                        "release version \"" + r.version() + "\" is not a semantic version");
            String arch =
                    r.architecture() == null || r.architecture().isEmpty()
                            ? "amd64"
                            : r.architecture();
            String v =
                    SemVer.parse(r.version()).build().isEmpty()
                            ? r.version() + "+" + arch
                            : r.version();
            if (byVersion.containsKey(v))
                throw new GraphException(
                        "invalid_release",
                        "release " + r.version() + " (" + arch + ") is listed twice");
            Map<String, String> metadata = new LinkedHashMap<>(r.metadata());
            metadata.put(ARCH, arch);
            int at = r.payload().indexOf('@');
            if (at >= 0) metadata.put(GraphNode.MANIFESTREF, r.payload().substring(at + 1));
            byVersion.put(v, nodes.size());
            nodes.add(new Node(v, SemVer.parse(v), r.payload(), metadata));
        }
        Set<Edge> edges = new LinkedHashSet<>();
        for (int i = 0; i < releases.size(); i++) {
            String arch = nodes.get(i).arch();
            for (String p : releases.get(i).previous())
                addEdge(edges, byVersion.get(withArch(p, arch)), i);
            for (String n : releases.get(i).next())
                addEdge(edges, i, byVersion.get(withArch(n, arch)));
        }
        Set<String> arches = new TreeSet<>();
        nodes.forEach(n -> arches.add(n.semver().build()));

        // raw metadata: appended (comma) to what a release already says, for every architecture of
        // that version
        data.rawMetadata()
                .forEach(
                        (version, meta) -> {
                            SemVer v = SemVer.parse(version);
                            for (Node n : nodes) {
                                if (!sameVersion(n.semver(), v)) continue;
                                meta.forEach(
                                        (k, val) ->
                                                n.metadata().merge(k, val, (a, b) -> a + "," + b));
                            }
                        });
        // hard blocks: the regex of the last block of a release wins
        for (GraphData.Block b : data.blocks()) {
            if (b.conditional()) continue;
            for (String to : targets(b.to(), arches)) {
                Integer n = byVersion.get(to);
                if (n != null) nodes.get(n).metadata().put(REMOVE_REGEX, b.from().pattern());
            }
        }
        // conditional blocks: the edges are removed like blocked ones and come back as conditional
        // edges
        for (GraphData.Block b : data.blocks()) {
            if (!b.conditional()) continue;
            for (String arch : arches) {
                Integer n = byVersion.get(b.to() + "+" + arch);
                if (n != null)
                    nodes.get(n)
                            .metadata()
                            .merge(REMOVE_REGEX, b.from().pattern(), (a, c) -> a + "|" + c);
            }
        }
        channels(nodes, data.channels());

        addEdges(nodes, byVersion, edges);
        List<ConditionalEdges> conditional = conditionalEdges(nodes, edges, data.blocks());
        removeEdges(nodes, byVersion, edges);
        // a cycle (releases naming each other as previous) is refused here, so a reload keeps the
        // last good graph
        List<GraphNode> check =
                nodes.stream().map(n -> new GraphNode(n.version(), n.payload(), Map.of())).toList();
        List<int[]> pairs = edges.stream().map(e -> new int[] {e.from(), e.to()}).toList();
        Graph.of(check, pairs, List.of());
        return new Built(nodes, edges, conditional);
    }

    /**
     * The graph of one channel and architecture: nodes in the channel, edges and conditional edges
     * between them, versions without the architecture suffix, sorted by version.
     */
    public static Graph serve(Built built, String channel, String arch) throws GraphException {
        List<Integer> kept = new ArrayList<>();
        for (int i = 0; i < built.nodes().size(); i++) {
            Node n = built.nodes().get(i);
            if (arch.equals(n.arch())
                    && !"true".equals(n.metadata().get(RELEASE_REMOVE))
                    && inChannel(n, channel)) kept.add(i);
        }
        kept.sort(Comparator.comparing(i -> built.nodes().get(i).semver()));
        Map<Integer, Integer> index = new HashMap<>();
        List<GraphNode> nodes = new ArrayList<>();
        Map<String, String> plain = new HashMap<>();
        for (int i : kept) {
            Node n = built.nodes().get(i);
            Map<String, String> meta = new LinkedHashMap<>(n.metadata());
            meta.remove(ARCH);
            String version = strip(n.version(), arch);
            index.put(i, nodes.size());
            plain.put(n.version(), version);
            nodes.add(new GraphNode(version, n.payload(), meta));
        }
        List<int[]> edges = new ArrayList<>();
        for (Edge e : built.edges()) {
            Integer f = index.get(e.from()), t = index.get(e.to());
            if (f != null && t != null) edges.add(new int[] {f, t});
        }
        edges.sort(Comparator.<int[]>comparingInt(e -> e[0]).thenComparingInt(e -> e[1]));
        List<ConditionalEdges> conditional = new ArrayList<>();
        for (ConditionalEdges c : built.conditional()) {
            List<ConditionalEdges.Edge> ce = new ArrayList<>();
            for (ConditionalEdges.Edge e : c.edges()) {
                if (plain.containsKey(e.from()) && plain.containsKey(e.to()))
                    ce.add(new ConditionalEdges.Edge(plain.get(e.from()), plain.get(e.to())));
            }
            if (!ce.isEmpty()) conditional.add(new ConditionalEdges(ce, c.risks()));
        }
        return Graph.of(nodes, edges, conditional);
    }

    /**
     * The channels {@link #serve} has nodes for, by architecture: every other channel serves an
     * empty graph.
     */
    public static Map<String, Set<String>> channelsByArch(Built built) {
        Map<String, Set<String>> out = new TreeMap<>();
        for (Node n : built.nodes()) {
            if ("true".equals(n.metadata().get(RELEASE_REMOVE))) continue;
            String channels = n.metadata().get(GraphNode.CHANNELS);
            if (channels == null || channels.isEmpty()) continue;
            Set<String> of = out.computeIfAbsent(n.arch(), a -> new TreeSet<>());
            for (String c : channels.split(",")) if (!c.isEmpty()) of.add(c);
        }
        return out;
    }

    private static boolean inChannel(Node n, String channel) {
        for (String c : n.metadata().getOrDefault(GraphNode.CHANNELS, "").split(","))
            if (c.equals(channel)) return true;
        return false;
    }

    private static void channels(List<Node> nodes, List<GraphData.Channel> channels) {
        for (GraphData.Channel c : channels) {
            for (String version : c.versions()) {
                SemVer v = SemVer.parse(version);
                for (Node n : nodes) {
                    if (sameVersion(n.semver(), v)
                            && (v.build().isEmpty() || v.build().equals(n.semver().build()))) {
                        n.metadata().merge(GraphNode.CHANNELS, c.name(), (a, b) -> a + "," + b);
                    }
                }
            }
        }
        // sorted by name, then (stably) by what follows the first dash, e.g. the 4.9 of stable-4.9
        for (Node n : nodes) {
            String channelsValue = n.metadata().get(GraphNode.CHANNELS);
            if (channelsValue == null) continue;
            List<String> list = new ArrayList<>(List.of(channelsValue.split(",")));
            list.sort(null);
            list.sort(Comparator.comparing(GraphBuilder::afterDash));
            n.metadata().put(GraphNode.CHANNELS, String.join(",", list));
        }
    }

    private static String afterDash(String channel) {
        int dash = channel.indexOf('-');
        return dash < 0 ? "" : channel.substring(dash + 1);
    }

    private static void addEdges(
            List<Node> nodes, Map<String, Integer> byVersion, Set<Edge> edges) {
        for (int i = 0; i < nodes.size(); i++) {
            Node n = nodes.get(i);
            for (String from : csv(n.metadata().get(PREVIOUS_ADD)))
                addEdge(edges, byVersion.get(withArch(from, n.arch())), i);
            for (String to : csv(n.metadata().get(NEXT_ADD)))
                addEdge(edges, i, byVersion.get(withArch(to, n.arch())));
        }
    }

    private static List<ConditionalEdges> conditionalEdges(
            List<Node> nodes, Set<Edge> edges, List<GraphData.Block> blocks) {
        Map<ConditionalEdges.Edge, List<Risk>> risksByEdge = new LinkedHashMap<>();
        for (GraphData.Block b : blocks) {
            if (!b.conditional()) continue;
            for (int to = 0; to < nodes.size(); to++) {
                Node target = nodes.get(to);
                if (!target.version().equals(b.to())
                        && !target.version().split("\\+")[0].equals(b.to())) continue;
                for (Edge e : edges) {
                    if (e.to() != to) continue;
                    String from = nodes.get(e.from()).version();
                    if (b.from().pattern().equals(".*") || b.from().matcher(from).find()) {
                        risksByEdge
                                .computeIfAbsent(
                                        new ConditionalEdges.Edge(from, target.version()),
                                        k -> new ArrayList<>())
                                .add(b.risk());
                    }
                }
            }
        }
        Map<List<Risk>, List<ConditionalEdges.Edge>> edgesByRisks = new LinkedHashMap<>();
        risksByEdge.forEach(
                (edge, risks) ->
                        edgesByRisks.computeIfAbsent(risks, k -> new ArrayList<>()).add(edge));
        List<ConditionalEdges> out = new ArrayList<>();
        edgesByRisks.forEach((risks, es) -> out.add(new ConditionalEdges(es, risks)));
        return out;
    }

    private static void removeEdges(
            List<Node> nodes, Map<String, Integer> byVersion, Set<Edge> edges)
            throws GraphException {
        for (int i = 0; i < nodes.size(); i++) {
            Node n = nodes.get(i);
            String remove = n.metadata().get(PREVIOUS_REMOVE);
            if (remove != null && remove.strip().equals("*")) {
                int to = i;
                edges.removeIf(e -> e.to() == to);
            } else {
                for (String from : csv(remove))
                    removeEdge(edges, byVersion.get(withArch(from, n.arch())), i);
            }
        }
        for (int i = 0; i < nodes.size(); i++) {
            String regex = nodes.get(i).metadata().get(REMOVE_REGEX);
            if (regex == null) continue;
            int to = i;
            if (regex.equals(".*")) {
                edges.removeIf(e -> e.to() == to);
                continue;
            }
            Pattern p;
            try {
                p = Pattern.compile(regex);
            } catch (PatternSyntaxException e) {
                throw new GraphException(
                        "invalid_graph_data",
                        nodes.get(i).version()
                                + ": "
                                + REMOVE_REGEX
                                + " \""
                                + regex
                                + "\" is not a regular expression");
            }
            edges.removeIf(e -> e.to() == to && p.matcher(nodes.get(e.from()).version()).find());
        }
        for (int i = 0; i < nodes.size(); i++) {
            Node n = nodes.get(i);
            for (String to : csv(n.metadata().get(NEXT_REMOVE)))
                removeEdge(edges, i, byVersion.get(withArch(to, n.arch())));
        }
    }

    private static List<String> targets(String to, Set<String> arches) {
        SemVer v = SemVer.parse(to);
        if (!v.build().isEmpty()) return List.of(to);
        if (v.preRelease().equals(List.of("s390x"))) return List.of(to + "+s390x");
        return arches.stream().map(a -> to + "+" + a).toList();
    }

    private static boolean sameVersion(SemVer a, SemVer b) {
        return a.major() == b.major()
                && a.minor() == b.minor()
                && a.patch() == b.patch()
                && a.preRelease().equals(b.preRelease());
    }

    private static String withArch(String version, String arch) {
        String v = version.strip();
        if (!SemVer.isValid(v)) return v;
        return SemVer.parse(v).build().isEmpty() && arch != null ? v + "+" + arch : v;
    }

    private static String strip(String version, String arch) {
        return version.endsWith("+" + arch)
                ? version.substring(0, version.length() - arch.length() - 1)
                : version;
    }

    private static List<String> csv(String value) {
        if (value == null || value.isBlank()) return List.of();
        List<String> out = new ArrayList<>();
        for (String s : value.split(",")) if (!s.isBlank()) out.add(s.strip());
        return out;
    }

    private static void addEdge(Set<Edge> edges, Integer from, Integer to) {
        if (from != null && to != null && !from.equals(to)) edges.add(new Edge(from, to));
    }

    private static void removeEdge(Set<Edge> edges, Integer from, Integer to) {
        if (from != null && to != null) edges.remove(new Edge(from, to));
    }
}
