package io.upshift.status.estimate;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * When the control plane's update ends, from the cluster-version controller's run-level times:
 * run-levels go one after another, a run-level in progress ends its predicted duration after it
 * started, and each one left takes its predicted duration. A run-level's duration is predicted from
 * what it took in the previous timed update (scaled by how this update's finished run-levels
 * compare with theirs), else from the mean of this update's finished run-levels of its kind (with
 * ClusterOperators or without); before any of its kind finished, at least as long as the one of its
 * kind running has taken so far; and before any run-level finished in an update with nothing timed
 * before (its first seconds), as long as the one running has taken so far, a guess that grows until
 * one is done. A run-level a controller took over while it ran is left out of the means: it holds
 * the time no controller worked, which an update spends once (the previous update's times keep it,
 * as the next update replaces its controller too). The machine-config run-level also waits for the
 * control-plane pool: its nodes start as the run-level does (its MachineConfigs are applied then,
 * and the pool controller running renders them at once), and the run-level ends when the later of
 * its operator's rollout (as long as another operator run-level) and the pool's rollout does.
 * Worker pools start then too ({@link Result#rolloutStart}).
 */
public final class ControlPlaneEstimate {
    /** The ClusterOperator whose run-level rolls the nodes out. */
    public static final String MACHINE_CONFIG = "machine-config";

    /**
     * @param completedAt the control plane's predicted end, or null (then {@code basis} says why)
     * @param rolloutStart when the pools' rollouts are predicted to start (the machine-config
     *     run-level starts), or null when that is not known or no machine-config run-level is left
     */
    public record Result(Instant completedAt, Instant rolloutStart, String basis) {}

    private final RunLevelTimes times;
    private final Map<String, Double> previous;
    private final String previousVersion;

    /**
     * Run-levels of this update done without a controller taking over: their durations are typical.
     */
    private final List<RunLevelTimes.Level> done = new ArrayList<>();

    private final List<RunLevelTimes.Level> interrupted = new ArrayList<>();
    private final RunLevelTimes.Level running;
    private final Instant now;
    private final double scale;
    private boolean fromRunning;

    /** Nothing of any kind was done or timed: the run-levels left were guessed from the running. */
    private boolean guessed;

    private ControlPlaneEstimate(
            RunLevelTimes times,
            Map<String, Double> previous,
            String previousVersion,
            Instant now) {
        this.times = times;
        this.previous = previous;
        this.previousVersion = previousVersion;
        this.now = now;
        times.levels().stream()
                .filter(l -> l.duration() != null)
                .forEach(l -> (l.isInterrupted() ? interrupted : done).add(l));
        this.running =
                times.levels().stream()
                        .filter(l -> l.started() != null && !l.isDone())
                        .findFirst()
                        .orElse(null);
        this.scale = scale();
    }

    /**
     * @param times the ClusterVersion's run-level times (null when it has none)
     * @param desiredImage the release the cluster is updating to
     * @param masters the control-plane pool's rollout, or null when the cluster has no such pool
     */
    public static Result of(
            RunLevelTimes times, String desiredImage, Instant now, PoolRollout masters) {
        if (times == null) {
            return new Result(
                    null,
                    null,
                    "no run-level times on the ClusterVersion (annotation "
                            + RunLevelTimes.ANNOTATION
                            + ")");
        }
        if (!times.image().equals(desiredImage)) {
            if (!times.complete()) {
                return new Result(
                        null,
                        null,
                        "the cluster-version controller has not started timing this update");
            }
            // not started yet: the same run-levels again, each as long as the last update's
            RunLevelTimes fresh =
                    RunLevelTimes.plan(
                            desiredImage,
                            "",
                            times.levels().stream()
                                    .map(
                                            l ->
                                                    new RunLevelTimes.Level(
                                                            l.runLevel(),
                                                            l.tasks(),
                                                            l.operators(),
                                                            null,
                                                            null))
                                    .toList(),
                            times);
            return new ControlPlaneEstimate(fresh, times.seconds(), times.version(), now)
                    .estimate(masters);
        }
        Map<String, Double> prev = times.previous() == null ? Map.of() : times.previous().seconds();
        return new ControlPlaneEstimate(
                        times,
                        prev,
                        times.previous() == null ? null : times.previous().version(),
                        now)
                .estimate(masters);
    }

    private Result estimate(PoolRollout masters) {
        Instant cursor = null;
        Instant rolloutStart = null;
        String poolBasis = null;
        int left = 0;
        for (RunLevelTimes.Level level : times.levels()) {
            if (level.isDone()) {
                if (level.done() != null) {
                    cursor = later(cursor, level.done());
                }
                continue;
            }
            left++;
            Duration d = predict(level);
            if (d == null) {
                return new Result(
                        null,
                        null,
                        "no run-level of this update finished yet, and none was timed before");
            }
            Instant start =
                    level.started() != null
                            ? level.started()
                            : cursor == null
                                    ? now
                                    : Overrun.notBefore(cursor, now, Overrun.step(d));
            Instant end = level.started() != null ? Overrun.end(start, d, now) : start.plus(d);
            if (level.operators().contains(MACHINE_CONFIG) && masters != null) {
                Duration operator = operatorRollout(d);
                Instant operatorEnd =
                        level.started() != null
                                ? Overrun.end(start, operator, now)
                                : start.plus(operator);
                rolloutStart = start;
                PoolRollout.Plan plan = masters.plan(start);
                if (!masters.finished()) {
                    if (plan.end() == null) {
                        return new Result(null, null, "control-plane nodes: " + plan.basis());
                    }
                    end = later(operatorEnd, plan.end());
                    poolBasis = plan.basis();
                }
            } else if (level.operators().contains(MACHINE_CONFIG)) {
                rolloutStart = start;
            }
            cursor = end;
        }
        if (left == 0) {
            return new Result(cursor == null ? now : cursor, null, "every run-level done");
        }
        StringBuilder basis = new StringBuilder();
        basis.append(left)
                .append(" of ")
                .append(times.levels().size())
                .append(" run-levels left, ")
                .append(source());
        if (poolBasis != null) {
            basis.append("; control-plane nodes: ").append(poolBasis);
        }
        return new Result(cursor == null ? now : cursor, rolloutStart, basis.toString());
    }

    /** A run-level's predicted duration, or null when nothing was timed yet. */
    private Duration predict(RunLevelTimes.Level level) {
        Double before = previous.get(level.runLevel());
        if (before != null) {
            return seconds(before * scale);
        }
        Duration sameKind = mean(ofKind(done, level));
        if (sameKind != null) {
            return sameKind;
        }
        // none of its kind done yet: as long as the others, and at least as long as the one of its
        // kind running so far
        Duration others = mean(done);
        Duration soFar =
                running != null && sameKind(running, level)
                        ? Duration.between(running.started(), now)
                        : null;
        if (soFar != null && (others == null || soFar.compareTo(others) > 0)) {
            fromRunning = true;
            return soFar;
        }
        if (others != null) {
            return others;
        }
        Duration taken = mean(ofKind(interrupted, level));
        if (taken == null) taken = mean(interrupted);
        if (taken != null || running == null) return taken;
        // nothing done or timed at all (an update's first seconds): as long as the one running has
        // taken so far, in whole seconds, so that the estimate moves once a second at most
        guessed = true;
        return Duration.ofSeconds(
                Math.max(1, Duration.between(running.started(), now).toSeconds()));
    }

    private static List<RunLevelTimes.Level> ofKind(
            List<RunLevelTimes.Level> levels, RunLevelTimes.Level like) {
        return levels.stream().filter(l -> sameKind(l, like)).toList();
    }

    private static boolean sameKind(RunLevelTimes.Level a, RunLevelTimes.Level b) {
        return a.operators().isEmpty() == b.operators().isEmpty();
    }

    /**
     * How long the machine-config operator itself takes to roll out: as an operator run-level of
     * this update does.
     */
    private Duration operatorRollout(Duration level) {
        Duration operators = mean(done.stream().filter(l -> !l.operators().isEmpty()).toList());
        return operators != null ? operators : level;
    }

    /** This update against the previous one, over the run-levels both timed; clamped to 1/4..4. */
    private double scale() {
        double now = 0, then = 0;
        for (RunLevelTimes.Level l : done) {
            Double before = previous.get(l.runLevel());
            if (before != null && before > 0) {
                now += l.duration().toMillis() / 1000.0;
                then += before;
            }
        }
        return then == 0 ? 1 : Math.max(0.25, Math.min(4, now / then));
    }

    private String source() {
        if (!previous.isEmpty()) {
            return String.format(
                    Locale.ROOT, "timed by the update to %s (x%.2f)", previousVersion, scale);
        }
        List<String> kinds = new ArrayList<>();
        for (boolean withOperators : new boolean[] {true, false}) {
            List<RunLevelTimes.Level> kind =
                    done.stream().filter(l -> l.operators().isEmpty() != withOperators).toList();
            if (!kind.isEmpty()) {
                kinds.add(
                        Seconds.format(mean(kind))
                                + (withOperators ? " with ClusterOperators (" : " without (")
                                + kind.size()
                                + ")");
            }
        }
        if (guessed) {
            return "no run-level of this update done yet, and none was timed before: each one"
                    + " left guessed as long as the one running has taken so far ("
                    + Seconds.format(Duration.between(running.started(), now))
                    + ")";
        }
        String text =
                kinds.isEmpty()
                        ? "no run-level of this update done uninterrupted yet"
                        : "at the mean of this update's done run-levels: "
                                + String.join(", ", kinds);
        if (fromRunning) {
            text +=
                    "; "
                            + (running.operators().isEmpty()
                                    ? "those without"
                                    : "those with ClusterOperators")
                            + " at least as long as the one running ("
                            + Seconds.format(Duration.between(running.started(), now))
                            + ")";
        }
        if (!interrupted.isEmpty()) {
            text +=
                    "; "
                            + (interrupted.size() == 1
                                    ? "1 run-level"
                                    : interrupted.size() + " run-levels")
                            + " a controller took over left out";
        }
        return text;
    }

    private static Duration mean(List<RunLevelTimes.Level> levels) {
        if (levels.isEmpty()) {
            return null;
        }
        long ms = 0;
        for (RunLevelTimes.Level l : levels) {
            ms += l.duration().toMillis();
        }
        return Duration.ofMillis(ms / levels.size());
    }

    private static Duration seconds(double s) {
        return Duration.ofMillis(Math.round(s * 1000));
    }

    private static Instant later(Instant a, Instant b) {
        return a == null || b.isAfter(a) ? b : a;
    }
}
