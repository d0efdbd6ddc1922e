package io.upshift.cli.release;

import io.upshift.core.inclusion.InclusionRules;
import io.upshift.core.payload.Payload;
import io.upshift.core.payload.PayloadLoader;
import io.upshift.core.taskgraph.GraphText;
import io.upshift.core.taskgraph.Mode;
import io.upshift.core.taskgraph.TaskGraph;
import io.upshift.release.image.ImageRef;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(name = "graph", mixinStandardHelpOptions = true,
        description = "Print the order in which a release's manifests are applied: run-levels in series, components in parallel.")
public final class GraphCommand implements Callable<Integer> {

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Parameters(paramLabel = "REF|DIR", description = "A release image or a payload directory.")
    String source;

    @Option(names = "--mode", defaultValue = "UPDATING", paramLabel = "MODE",
            description = "UPDATING (default), INITIALIZING or RECONCILING.")
    Mode mode;

    @Option(names = "--attempt", defaultValue = "0", description = "Reconcile attempt, which picks the permutation.")
    int attempt;

    @Option(names = "--dot", description = "Print Graphviz DOT instead of text.")
    boolean dot;

    @Mixin
    RegistryOptions registry;

    @Override
    public Integer call() throws Exception {
        var err = spec.commandLine().getErr();
        Payload payload;
        Path dir = Path.of(source);
        if (Files.isDirectory(dir)) {
            payload = PayloadLoader.load(dir, source, InclusionRules.defaults(), w -> err.println("warning: " + w));
        } else {
            Path tmp = Files.createTempDirectory("upshift-graph-");
            try {
                var image = registry.releases(err).extract(ImageRef.parse(source), tmp.resolve("payload"), new ProgressLine(err, "pulled"));
                payload = PayloadLoader.load(tmp.resolve("payload"), image.pullspec(), InclusionRules.defaults(), w -> err.println("warning: " + w));
            } finally {
                io.upshift.release.image.FileTrees.deleteQuietly(tmp);
            }
        }
        TaskGraph graph = TaskGraph.build(payload.manifests(), mode, attempt);
        var out = spec.commandLine().getOut();
        out.print(dot ? GraphText.dot(graph) : GraphText.text(graph, "release " + payload.version()));
        out.flush();
        return 0;
    }
}
