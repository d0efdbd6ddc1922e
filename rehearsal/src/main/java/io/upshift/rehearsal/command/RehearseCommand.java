package io.upshift.rehearsal.command;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.upshift.rehearsal.model.ClusterFacts;
import io.upshift.rehearsal.model.Rehearsal;
import io.upshift.rehearsal.read.LiveCluster;
import io.upshift.rehearsal.read.SnapshotCluster;
import io.upshift.rehearsal.render.HtmlReport;
import io.upshift.rehearsal.render.JsonReport;
import io.upshift.rehearsal.render.TextReport;
import io.upshift.rehearsal.run.Rehearse;
import io.upshift.rehearsal.simulation.Simulator;
import io.upshift.rehearsal.simulation.Simulators;
import io.upshift.releases.command.RegistryOptions;
import io.upshift.releases.image.FileTrees;
import io.upshift.releases.image.Releases;
import io.upshift.releases.metadata.ReleaseException;
import io.upshift.releases.signatures.HttpSignatureStore;
import io.upshift.releases.signatures.SignatureStores;
import io.upshift.runtime.cli.ControllerLogs;
import io.upshift.runtime.cli.KubeconfigOption;
import io.upshift.runtime.cli.UsageError;
import io.upshift.status.snapshot.Snapshot;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code upshift rehearse}: an update rehearsed before it is asked for, on a live cluster (read
 * only: get and list requests) or a snapshot. Exit code 0 when nothing would refuse or stall it, 1
 * when something would, 2 on bad input.
 */
@Command(
        name = "rehearse",
        mixinStandardHelpOptions = true,
        description = {
            "Rehearse an update before asking for it: what would refuse it, what would stall it,"
                    + " and how long it would take.",
            "Reads the cluster (read only) or a snapshot, checks the target release as the"
                    + " cluster-version controller would, and runs the real controllers on an"
                    + " embedded copy of the cluster at accelerated time (where Upshift is run from"
                    + " a build; else the timeline is planned)."
        })
public final class RehearseCommand implements Callable<Integer> {
    public static Clock clock = Clock.systemUTC();

    /**
     * Runs this command line again where the simulator is (a build's {@code demo-lib/}), when it is
     * not on this class path; empty when it cannot.
     */
    public interface Elsewhere {
        Optional<Integer> run(String[] args) throws Exception;

        Elsewhere NOWHERE = args -> Optional.empty();
    }

    private final Elsewhere elsewhere;

    @Spec CommandSpec spec;

    @ArgGroup(exclusive = true, multiplicity = "1")
    Release release;

    static final class Release {
        @Option(
                names = "--to",
                paramLabel = "VERSION",
                description =
                        "The version to rehearse the update to: one of the cluster's updates.")
        String to;

        @Option(
                names = "--to-image",
                paramLabel = "REF",
                description =
                        "The release image to rehearse the update to (a pullspec, or oci:DIR:TAG).")
        String toImage;
    }

    @Option(
            names = "--snapshot",
            paramLabel = "DIR",
            description =
                    "Read the cluster from a directory of `kubectl get -o yaml|json` dumps instead"
                            + " of an API server (see docs/rehearse.md for the kinds it reads).")
    Path snapshot;

    @Mixin KubeconfigOption kube;

    @Option(
            names = "--output",
            arity = "1..2",
            paramLabel = "FORMAT [FILE]",
            hideParamSyntax = true,
            description =
                    "text (default), json, or html FILE: a self-contained page with the timeline"
                            + " drawn (the text goes to stdout as well).")
    List<String> output = List.of("text");

    @Option(
            names = "--plan-only",
            description =
                    "Do not simulate: plan the timeline from the durations alone (seconds instead"
                            + " of a minute).")
    boolean planOnly;

    @Option(
            names = "--simulation-time",
            paramLabel = "DURATION",
            defaultValue = "PT60S",
            description =
                    "About how long the simulation may take; the speed-up is chosen to fit"
                            + " (default: ${DEFAULT-VALUE}).")
    Duration simulationTime;

    @Option(
            names = "--timeout",
            paramLabel = "DURATION",
            defaultValue = "PT5M",
            description = "Give the simulation up after this long (default: ${DEFAULT-VALUE}).")
    Duration timeout;

    @Option(
            names = "--allow-explicit-upgrade",
            description =
                    "As upshift upgrade's: with --to-image, rehearse the update even if the image"
                            + " is not among the cluster's updates.")
    boolean allowExplicitUpgrade;

    @Option(
            names = "--allow-not-recommended",
            description = "As upshift upgrade's: rehearse a conditional update whose risks apply.")
    boolean allowNotRecommended;

    @Option(
            names = "--allow-upgrade-with-warnings",
            description =
                    "As upshift upgrade's: rehearse the update though the cluster is Invalid,"
                            + " Failing or already updating.")
    boolean allowUpgradeWithWarnings;

    @Option(
            names = "--force",
            description =
                    "As upshift upgrade's: rehearse the update forced (a by-tag image allowed; the"
                            + " controller's failed verification and preconditions become the"
                            + " risks it accepts).")
    boolean force;

    @Mixin RegistryOptions registry;

    public RehearseCommand() {
        this(Elsewhere.NOWHERE);
    }

    public RehearseCommand(Elsewhere elsewhere) {
        this.elsewhere = elsewhere;
    }

    @Override
    public Integer call() throws Exception {
        Format format = format();
        if (snapshot != null && kube.given())
            throw new UsageError(spec, "--snapshot and --kubeconfig cannot be given together");
        Optional<Simulator> simulator = planOnly ? Optional.empty() : Simulators.find();
        if (!planOnly && simulator.isEmpty()) {
            Optional<Integer> code =
                    elsewhere.run(
                            spec.root()
                                    .commandLine()
                                    .getParseResult()
                                    .originalArgs()
                                    .toArray(String[]::new));
            if (code.isPresent()) return code.get();
        }
        // the copy's controllers and agents would log every step of the simulation on stderr; what
        // they found is in the report, and the rehearsal's own progress lines stay
        if (simulator.isPresent()) ControllerLogs.errorsOnly();
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Rehearse.Source source = source();
        Path work = Files.createTempDirectory("upshift-rehearse-");
        try {
            Rehearsal r =
                    new Rehearse(
                                    releases(err),
                                    new SignatureStores(HttpSignatureStore.defaultClient()),
                                    work,
                                    line -> {
                                        err.println("rehearse: " + line);
                                        err.flush();
                                    })
                            .run(
                                    source,
                                    new Rehearse.Ask(
                                            release.to == null ? "" : release.to,
                                            release.toImage == null ? "" : release.toImage,
                                            simulator,
                                            planOnly
                                                    ? "--plan-only"
                                                    : "the simulator (the embedded API server) is"
                                                            + " not in this build of Upshift",
                                            simulationTime,
                                            timeout,
                                            (d, target) -> d,
                                            new Rehearse.Allow(
                                                    allowExplicitUpgrade,
                                                    allowNotRecommended,
                                                    allowUpgradeWithWarnings,
                                                    force)));
            switch (format.kind) {
                case "json" -> out.print(JsonReport.render(r));
                case "html" -> {
                    Files.writeString(format.file, HtmlReport.render(r));
                    out.print(TextReport.render(r));
                    out.println("\nThe timeline is drawn in " + format.file);
                }
                default -> out.print(TextReport.render(r));
            }
            out.flush();
            return r.blocked() ? 1 : 0;
        } finally {
            FileTrees.deleteQuietly(work);
        }
    }

    private record Format(String kind, Path file) {}

    private Format format() {
        String kind = output.get(0);
        if (!List.of("text", "json", "html").contains(kind))
            throw new UsageError(
                    spec, "--output must be text, json or html FILE, not \"" + kind + "\"");
        if (kind.equals("html") && output.size() < 2)
            throw new UsageError(spec, "--output html needs the FILE to write the page to");
        if (!kind.equals("html") && output.size() > 1)
            throw new UsageError(spec, "--output " + kind + " takes no FILE: it goes to stdout");
        return new Format(kind, kind.equals("html") ? Path.of(output.get(1)) : null);
    }

    private Rehearse.Source source() {
        if (snapshot != null) {
            ClusterFacts facts = SnapshotCluster.read(snapshot.toString());
            return new Rehearse.Source(
                    facts,
                    "the snapshot " + snapshot,
                    Snapshot.replayTime(facts.state()).truncatedTo(ChronoUnit.SECONDS).toString());
        }
        try (KubernetesClient client = kube.connectAs("upshift-rehearse")) {
            ClusterFacts facts = new LiveCluster(client).read();
            return new Rehearse.Source(
                    facts,
                    "the API server at " + client.getMasterUrl(),
                    clock.instant().truncatedTo(ChronoUnit.SECONDS).toString());
        }
    }

    private Releases releases(PrintWriter err) throws IOException {
        try {
            return registry.releases(err);
        } catch (ReleaseException e) {
            throw new IllegalArgumentException(e.toString());
        }
    }
}
