package io.upshift.rehearsal.run;

import io.upshift.clusterversion.upgrade.UpgradeFlags;
import io.upshift.rehearsal.model.Blocker;
import io.upshift.rehearsal.model.ClusterFacts;
import io.upshift.rehearsal.model.Durations;
import io.upshift.rehearsal.model.Holds;
import io.upshift.rehearsal.model.Refusals;
import io.upshift.rehearsal.model.Rehearsal;
import io.upshift.rehearsal.model.Stalls;
import io.upshift.rehearsal.model.Target;
import io.upshift.rehearsal.model.TargetChoice;
import io.upshift.rehearsal.model.Timeline;
import io.upshift.rehearsal.model.TimelinePlan;
import io.upshift.rehearsal.model.TimelineWaits;
import io.upshift.rehearsal.release.ReleaseReader;
import io.upshift.rehearsal.simulation.Simulator;
import io.upshift.releases.image.Releases;
import io.upshift.releases.signatures.SignatureStores;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.Consumer;

/**
 * A rehearsal as a chain of named steps, read top to bottom in {@link #run}: choose the target the
 * flags name, read it as the controller would (signature, payload, version), find what would refuse
 * the update and what would stall it, take the durations the cluster taught (or defaults), plan the
 * timeline, then simulate it when a simulator is at hand and the payload was read. Nothing here
 * writes to the cluster: it was read before, into {@link ClusterFacts}.
 */
public final class Rehearse {

    /**
     * What to rehearse and how.
     *
     * @param to the version asked for, or ""
     * @param toImage the release image asked for, or ""
     * @param simulator the simulator to run, or empty to plan only (then {@code noSimulation} says
     *     why)
     * @param simulationTime about how long the simulation may take: the speed-up is chosen so that
     *     the planned update fits in it (never slower than real time)
     * @param timeout give the simulation up after this long
     * @param durations adjusts the durations learned (a demo gives its simulated world's)
     * @param allow what the update would be asked with beyond its target, as {@code upshift
     *     upgrade}'s flags of the same names
     */
    public record Ask(
            String to,
            String toImage,
            Optional<Simulator> simulator,
            String noSimulation,
            Duration simulationTime,
            Duration timeout,
            BiFunction<Durations, Target, Durations> durations,
            Allow allow) {

        /** Asked with none of the flags that allow more. */
        public Ask(
                String to,
                String toImage,
                Optional<Simulator> simulator,
                String noSimulation,
                Duration simulationTime,
                Duration timeout,
                BiFunction<Durations, Target, Durations> durations) {
            this(
                    to,
                    toImage,
                    simulator,
                    noSimulation,
                    simulationTime,
                    timeout,
                    durations,
                    Allow.NONE);
        }
    }

    /**
     * The flags of {@code upshift upgrade} that let it (and the controller) go further, which
     * {@code upshift rehearse} takes under the same names, so that what a refusal tells to use can
     * be rehearsed: {@code --allow-explicit-upgrade}, {@code --allow-not-recommended}, {@code
     * --allow-upgrade-with-warnings}, {@code --force}.
     */
    public record Allow(
            boolean explicitUpgrade,
            boolean notRecommended,
            boolean upgradeWithWarnings,
            boolean force) {
        public static final Allow NONE = new Allow(false, false, false, false);
    }

    /** Where the cluster was read: a phrase for the report, and when it was as read (RFC 3339). */
    public record Source(ClusterFacts facts, String where, String at) {}

    private final Releases releases;
    private final SignatureStores stores;
    private final Path work;
    private final Consumer<String> progress;

    /**
     * @param work a directory for payloads and the simulation's files; the caller deletes it
     * @param progress told each step, one line each (for stderr)
     */
    public Rehearse(
            Releases releases, SignatureStores stores, Path work, Consumer<String> progress) {
        this.releases = releases;
        this.stores = stores;
        this.work = work;
        this.progress = progress;
    }

    /**
     * @throws IllegalArgumentException in one line, when the flags name no update the cluster knows
     *     or an image that is no image reference
     */
    public Rehearsal run(Source source, Ask ask) {
        ClusterFacts facts = source.facts();
        TargetChoice choice = TargetChoice.of(facts.clusterVersion(), ask.to(), ask.toImage());
        ReleaseReader.Read read =
                new ReleaseReader(releases, stores, work, progress).read(facts, choice);
        Target target = read.target();

        List<Blocker> blockers = new ArrayList<>(Refusals.of(facts, target, flags(ask)));
        blockers.addAll(read.refusals());
        List<Blocker> stalls = Stalls.of(facts, target);
        blockers.addAll(stalls);
        Instant asked = asked(source);
        blockers.addAll(Holds.of(facts, target, asked));

        Durations durations =
                ask.durations().apply(Durations.learn(facts, target.levels()), target);
        Timeline plan = TimelinePlan.of(facts, target, durations, stalls);
        List<String> lacking = new ArrayList<>(facts.lacking());
        lacking.addAll(read.lacking());

        Timeline timeline = plan;
        Rehearsal.Simulation simulation;
        if (ask.simulator().isEmpty()) {
            simulation = Rehearsal.Simulation.notRun(ask.noSimulation());
        } else if (read.payload().isEmpty() || target.levels().isEmpty()) {
            simulation =
                    Rehearsal.Simulation.notRun(
                            "the target's payload could not be read; the timeline is planned from"
                                    + " the durations alone");
        } else {
            double speedup =
                    Math.max(
                            1.0,
                            plan.horizon().toMillis()
                                    / (double) Math.max(1, ask.simulationTime().toMillis()));
            progress.accept(
                    String.format(
                            Locale.ROOT,
                            "simulating the update on an embedded copy of the cluster, %.0f×"
                                    + " faster",
                            speedup));
            try {
                Simulator.Simulated s =
                        ask.simulator()
                                .get()
                                .simulate(
                                        new Simulator.Request(
                                                facts,
                                                target,
                                                read.payload().get(),
                                                durations,
                                                speedup,
                                                ask.timeout(),
                                                work.resolve("simulation"),
                                                progress));
                timeline = s.timeline();
                for (Blocker seen : s.seen())
                    if (blockers.stream()
                            .noneMatch(
                                    b ->
                                            b.reason().equals(seen.reason())
                                                    && b.place().equals(seen.place())))
                        blockers.add(seen);
                simulation =
                        new Rehearsal.Simulation(true, s.how(), speedup, s.wall(), s.apiRequests());
            } catch (Exception e) {
                simulation =
                        Rehearsal.Simulation.notRun(
                                "the simulation failed ("
                                        + (e.getMessage() == null
                                                ? e.getClass().getSimpleName()
                                                : e.getMessage())
                                        + "); the timeline is planned from the durations alone");
            }
        }
        return new Rehearsal(
                source.where(),
                source.at(),
                facts.currentVersion(),
                target,
                blockers,
                durations,
                TimelineWaits.apply(timeline, facts, target, asked),
                simulation,
                lacking);
    }

    /**
     * When the update would be asked for: when the cluster was as read (the windows are checked
     * against it), else now.
     */
    private static Instant asked(Source source) {
        try {
            return Instant.parse(source.at());
        } catch (RuntimeException e) {
            return Instant.now();
        }
    }

    /** The rehearsal's ask as {@code upshift upgrade}'s flags. */
    private static UpgradeFlags flags(Ask ask) {
        Allow a = ask.allow();
        return new UpgradeFlags(
                ask.to(),
                ask.toImage(),
                false,
                false,
                false,
                a.force(),
                a.explicitUpgrade(),
                a.upgradeWithWarnings(),
                a.notRecommended());
    }
}
