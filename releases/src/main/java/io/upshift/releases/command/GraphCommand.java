package io.upshift.releases.command;

import io.upshift.releases.capability.Capabilities;
import io.upshift.releases.capability.CapabilitySets;
import io.upshift.releases.image.FileTrees;
import io.upshift.releases.image.ImageRef;
import io.upshift.releases.inclusion.InclusionRules;
import io.upshift.releases.inclusion.LoadRules;
import io.upshift.releases.manifest.Manifest;
import io.upshift.releases.payload.OperatorFlags;
import io.upshift.releases.payload.Payload;
import io.upshift.releases.payload.PayloadLoader;
import io.upshift.releases.payload.PayloadVerdicts;
import io.upshift.releases.taskgraph.GraphText;
import io.upshift.releases.taskgraph.Mode;
import io.upshift.releases.taskgraph.TaskGraph;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(
        name = "graph",
        mixinStandardHelpOptions = true,
        description = {
            "Show what Upshift will do with a payload before any cluster does: the order in which"
                + " its manifests are applied (run-levels in series, components in parallel) for a"
                + " cluster configuration, and which manifests it leaves out and why."
        })
public final class GraphCommand implements Callable<Integer> {

    private static final Set<String> FEATURE_SETS =
            Set.of(
                    "Default",
                    "TechPreviewNoUpgrade",
                    "DevPreviewNoUpgrade",
                    "CustomNoUpgrade",
                    "OKD");

    @Spec picocli.CommandLine.Model.CommandSpec spec;

    @Parameters(paramLabel = "REF|DIR", description = "A release image or a payload directory.")
    String source;

    @Option(
            names = "--mode",
            defaultValue = "updating",
            paramLabel = "MODE",
            description = "updating (default), initializing or reconciling; any case.")
    String mode;

    @Option(
            names = "--attempt",
            defaultValue = "0",
            paramLabel = "N",
            description = "Reconcile attempt, which picks the permutation.")
    int attempt;

    @Option(
            names = "--profile",
            defaultValue = InclusionRules.DEFAULT_PROFILE,
            paramLabel = "P",
            description = "Cluster profile (default ${DEFAULT-VALUE}).")
    String profile;

    @Option(
            names = "--baseline-capabilities",
            defaultValue = "vCurrent",
            paramLabel = "SET",
            description = "Baseline capability set: None, v4.11 ... vCurrent (default).")
    String baseline;

    @Option(
            names = "--capabilities",
            split = ",",
            paramLabel = "A,B",
            description = "Capabilities enabled beyond the baseline.")
    List<String> additional = List.of();

    @Option(
            names = "--always-enable-capabilities",
            split = ",",
            paramLabel = "A,B",
            description =
                    "Capabilities the cluster-version operator always enables, implicitly"
                            + " (default: the --always-enable-capabilities of the payload's own"
                            + " operator Deployment, as that operator does; empty: none).")
    List<String> alwaysEnabled;

    @Option(
            names = "--feature-set",
            defaultValue = "Default",
            paramLabel = "F",
            description =
                    "Default (default), TechPreviewNoUpgrade, DevPreviewNoUpgrade, CustomNoUpgrade"
                            + " or OKD.")
    String featureSet;

    @Option(
            names = "--feature-gates",
            split = ",",
            paramLabel = "A,B",
            description =
                    "The enabled feature gates (default: those the payload's own FeatureGate"
                            + " manifest enables for the profile and feature set).")
    List<String> featureGates;

    @Option(
            names = "--exclude",
            paramLabel = "ID",
            description =
                    "Leave out manifests annotated exclude.release.openshift.io/ID: \"true\".")
    String exclude;

    @Option(
            names = "--format",
            defaultValue = "text",
            paramLabel = "FORMAT",
            description =
                    "text (default), tsv (for tools: node, skipped and excluded lines) or dot"
                            + " (Graphviz).")
    String format;

    @Mixin RegistryOptions registry;

    @Override
    public Integer call() throws Exception {
        Mode graphMode = mode();
        String output = format.toLowerCase(Locale.ROOT);
        if (!List.of("text", "tsv", "dot").contains(output))
            throw usage("--format must be text, tsv or dot, not \"" + format + "\"");
        checkCapabilities();
        if (!FEATURE_SETS.contains(featureSet)) {
            throw usage(
                    "--feature-set \""
                            + featureSet
                            + "\" is not one of "
                            + String.join(", ", new TreeSet<>(FEATURE_SETS)));
        }
        String set = featureSet.equals("Default") ? "" : featureSet;
        LoadRules rules =
                new LoadRules(
                        profile,
                        exclude,
                        set,
                        featureGates == null
                                ? new LoadRules.Gates.ByVersion(Map.of())
                                : new LoadRules.Gates.Fixed(Set.copyOf(featureGates)));
        Payload payload = load(rules);
        List<Manifest> documents = payload.documents();
        // as the operator: its --always-enable-capabilities, and the capabilities the feature gates
        // the manifests were loaded with leave out
        List<String> always =
                alwaysEnabled == null
                        ? OperatorFlags.alwaysEnabled(documents)
                        : alwaysEnabled.stream().filter(c -> !c.isBlank()).toList();
        Capabilities capabilities =
                CapabilitySets.of(
                        baseline,
                        additional,
                        always,
                        rules.gates().enabled(payload.version(), documents, profile, set));
        TaskGraph graph = TaskGraph.build(payload.manifests(), graphMode, attempt);
        List<PayloadVerdicts.Row> verdicts =
                PayloadVerdicts.of(payload, InclusionRules.none().withCapabilities(capabilities));
        PrintWriter out = spec.commandLine().getOut();
        out.print(
                switch (output) {
                    case "tsv" -> GraphText.tsv(graph, verdicts);
                    case "dot" -> GraphText.dot(graph);
                    default ->
                            GraphText.text(graph, "release " + payload.version())
                                    + implicitly(capabilities)
                                    + GraphText.leftOut(verdicts);
                });
        out.flush();
        return 0;
    }

    private Mode mode() {
        for (Mode m : Mode.values()) if (m.name().equalsIgnoreCase(mode)) return m;
        throw usage("--mode must be updating, initializing or reconciling, not \"" + mode + "\"");
    }

    /** The capability names given, refused in one line when this version does not know them. */
    private void checkCapabilities() {
        if (!CapabilitySets.BASELINES.containsKey(baseline)) {
            throw usage(
                    "--baseline-capabilities \""
                            + baseline
                            + "\" is not one of "
                            + String.join(", ", CapabilitySets.BASELINES.keySet()));
        }
        for (String c : additional) {
            if (!CapabilitySets.known().contains(c)) {
                throw usage(
                        "--capabilities: \""
                                + c
                                + "\" is not a known capability ("
                                + String.join(", ", CapabilitySets.known())
                                + ")");
            }
        }
        List<String> unknown =
                alwaysEnabled == null
                        ? List.of()
                        : alwaysEnabled.stream()
                                .filter(c -> !c.isBlank() && !CapabilitySets.known().contains(c))
                                .toList();
        if (!unknown.isEmpty())
            throw usage(
                    "--always-enable-capabilities was set with unknown capabilities: ["
                            + String.join(" ", unknown)
                            + "]");
    }

    /** The capabilities enabled that the baseline and --capabilities do not ask for. */
    private static String implicitly(Capabilities capabilities) {
        return capabilities.implicitlyEnabled().isEmpty()
                ? ""
                : "\ncapabilities enabled implicitly (always enabled by the cluster-version"
                        + " operator): "
                        + String.join(", ", new TreeSet<>(capabilities.implicitlyEnabled()))
                        + "\n";
    }

    private Payload load(LoadRules rules) throws Exception {
        var err = spec.commandLine().getErr();
        Path dir = Path.of(source);
        if (Files.isDirectory(dir))
            return PayloadLoader.load(dir, source, rules, w -> err.println("warning: " + w));
        Path tmp = Files.createTempDirectory("upshift-graph-");
        try {
            var image =
                    registry.releases(err)
                            .extract(
                                    ImageRef.parse(source),
                                    tmp.resolve("payload"),
                                    new ProgressLine(err, "pulled"));
            return PayloadLoader.load(
                    tmp.resolve("payload"),
                    image.pullspec(),
                    rules,
                    w -> err.println("warning: " + w));
        } finally {
            FileTrees.deleteQuietly(tmp);
        }
    }

    private ParameterException usage(String message) {
        return new ParameterException(spec.commandLine(), message);
    }
}
