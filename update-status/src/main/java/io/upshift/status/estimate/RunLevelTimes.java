package io.upshift.status.estimate;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.upshift.api.json.Mappers;
import io.upshift.releases.manifest.Manifest;
import io.upshift.releases.taskgraph.RunLevelName;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * When each run-level of an update started and was done, as the cluster-version controller saw it,
 * with the run-level durations of the last update that completed before it. The controller keeps
 * this in the ClusterVersion's annotation {@value #ANNOTATION} (JSON), not in its status:
 * upstream's ClusterVersion schema has no such field, and a status field the installed CRD does not
 * declare would be pruned. It is what Upshift's control-plane estimate rests on. Times are RFC 3339
 * to the millisecond; an update is known by its release image.
 *
 * @param levels the payload's run-levels in the order an Updating pass applies them
 * @param previous the last completed update's run-level durations, or null when none was timed
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record RunLevelTimes(String image, String version, List<Level> levels, Previous previous) {
    public static final String ANNOTATION = "upshift.io/run-level-times";

    public RunLevelTimes {
        levels = levels == null ? List.of() : List.copyOf(levels);
    }

    /**
     * One run-level: how many manifests (tasks) it holds, the ClusterOperators among them, when its
     * first task started and when all its tasks were first done in one pass, and whether a
     * controller took over while it ran (true, else absent): its duration then includes the time no
     * controller worked, which does not come again in this update.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Level(
            String runLevel,
            int tasks,
            List<String> operators,
            String startedAt,
            String doneAt,
            Boolean interrupted) {
        public Level {
            operators = operators == null ? List.of() : List.copyOf(operators);
            interrupted = Boolean.TRUE.equals(interrupted) ? Boolean.TRUE : null;
        }

        public Level(
                String runLevel,
                int tasks,
                List<String> operators,
                String startedAt,
                String doneAt) {
            this(runLevel, tasks, operators, startedAt, doneAt, null);
        }

        @JsonIgnore
        boolean isInterrupted() {
            return interrupted != null;
        }

        Instant started() {
            return parse(startedAt);
        }

        Instant done() {
            return parse(doneAt);
        }

        @JsonIgnore
        boolean isDone() {
            return doneAt != null;
        }

        /** How long it took, once done. */
        Duration duration() {
            Instant s = started(), d = done();
            return s == null || d == null || d.isBefore(s) ? null : Duration.between(s, d);
        }
    }

    /**
     * The run-level durations (seconds) of the update to {@code version}, the last one timed to its
     * end.
     */
    public record Previous(String version, Map<String, Double> seconds) {
        public Previous {
            seconds =
                    seconds == null
                            ? Map.of()
                            : Collections.unmodifiableMap(new LinkedHashMap<>(seconds));
        }
    }

    /**
     * The run-levels of a payload, in payload order (the order of its task graph in an Updating
     * pass).
     */
    public static List<Level> levelsOf(List<Manifest> manifests) {
        Map<String, int[]> tasks = new LinkedHashMap<>();
        Map<String, List<String>> operators = new LinkedHashMap<>();
        for (Manifest m : manifests) {
            String level = RunLevelName.of(m.file());
            tasks.computeIfAbsent(level, k -> new int[1])[0]++;
            List<String> ops = operators.computeIfAbsent(level, k -> new ArrayList<>());
            if ("ClusterOperator".equals(m.kind()) && !ops.contains(m.name())) {
                ops.add(m.name());
            }
        }
        List<Level> out = new ArrayList<>(tasks.size());
        tasks.forEach(
                (level, n) -> out.add(new Level(level, n[0], operators.get(level), null, null)));
        return out;
    }

    /**
     * The times of the update to {@code image}: a new plan, keeping what {@code before} (the times
     * the cluster or this controller holds, or null) recorded of the same update; when {@code
     * before} is of another update and complete, its durations become the previous ones.
     */
    public static RunLevelTimes plan(
            String image, String version, List<Level> levels, RunLevelTimes before) {
        if (before == null) {
            return new RunLevelTimes(image, version, levels, null);
        }
        if (!image.equals(before.image)) {
            Previous previous =
                    before.complete()
                            ? new Previous(before.version, before.seconds())
                            : before.previous;
            return new RunLevelTimes(image, version, levels, previous);
        }
        Map<String, Level> kept = new LinkedHashMap<>();
        before.levels.forEach(l -> kept.put(l.runLevel(), l));
        List<Level> merged = new ArrayList<>(levels.size());
        for (Level l : levels) {
            Level k = kept.get(l.runLevel());
            merged.add(
                    k == null
                            ? l
                            : new Level(
                                    l.runLevel(),
                                    l.tasks(),
                                    l.operators(),
                                    k.startedAt(),
                                    k.doneAt(),
                                    k.interrupted()));
        }
        return new RunLevelTimes(image, version, merged, before.previous);
    }

    /** The same times with {@code runLevel} started at {@code at}, unless it started before. */
    public RunLevelTimes started(String runLevel, Instant at) {
        return with(
                runLevel,
                l ->
                        l.startedAt() != null
                                ? l
                                : new Level(
                                        l.runLevel(),
                                        l.tasks(),
                                        l.operators(),
                                        format(at),
                                        l.doneAt(),
                                        l.interrupted()));
    }

    /** The same times with {@code runLevel} done at {@code at}, unless it was done before. */
    public RunLevelTimes done(String runLevel, Instant at) {
        return with(
                runLevel,
                l ->
                        l.doneAt() != null
                                ? l
                                : new Level(
                                        l.runLevel(),
                                        l.tasks(),
                                        l.operators(),
                                        l.startedAt() == null ? format(at) : l.startedAt(),
                                        format(at),
                                        l.interrupted()));
    }

    /**
     * The same times with every run-level started and not done marked interrupted: a controller
     * takes over.
     */
    public RunLevelTimes takenOver() {
        List<Level> out = new ArrayList<>(levels.size());
        for (Level l : levels) {
            out.add(
                    l.startedAt() != null && l.doneAt() == null
                            ? new Level(
                                    l.runLevel(),
                                    l.tasks(),
                                    l.operators(),
                                    l.startedAt(),
                                    null,
                                    true)
                            : l);
        }
        return out.equals(levels) ? this : new RunLevelTimes(image, version, out, previous);
    }

    @SuppressWarnings(
            "ReferenceEquality") // change returns its argument itself when nothing changed
    private RunLevelTimes with(String runLevel, UnaryOperator<Level> change) {
        List<Level> out = new ArrayList<>(levels.size());
        boolean changed = false;
        for (Level l : levels) {
            Level n = l.runLevel().equals(runLevel) ? change.apply(l) : l;
            changed |= n != l;
            out.add(n);
        }
        return changed ? new RunLevelTimes(image, version, out, previous) : this;
    }

    /** The latest start or end of a run-level: the update's last progress; null before any. */
    public Instant lastEvent() {
        Instant last = null;
        for (Level l : levels) {
            for (Instant t : new Instant[] {l.started(), l.done()})
                if (t != null && (last == null || t.isAfter(last))) last = t;
        }
        return last;
    }

    /** Every run-level was done. */
    @JsonIgnore
    public boolean complete() {
        return !levels.isEmpty() && levels.stream().allMatch(Level::isDone);
    }

    /**
     * The run-level durations of the last update timed to its end: this one's when it is complete,
     * else the previous one's; null when none was. What a rehearsal of the next update learns from.
     */
    public Previous lastTimed() {
        return complete() ? new Previous(version, seconds()) : previous;
    }

    /** Seconds each done run-level took, in order. */
    Map<String, Double> seconds() {
        Map<String, Double> out = new LinkedHashMap<>();
        for (Level l : levels) {
            Duration d = l.duration();
            if (d != null) {
                out.put(l.runLevel(), d.toMillis() / 1000.0);
            }
        }
        return out;
    }

    /** The annotation's value: compact JSON. */
    public String toAnnotation() {
        try {
            return Mappers.JSON.writeValueAsString(this);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("run-level times cannot be written as JSON", e);
        }
    }

    /**
     * The times an annotation value holds; null when absent or unreadable (an estimate then says it
     * has none).
     */
    public static RunLevelTimes fromAnnotation(String value) {
        if (value == null || value.isBlank()) {
            return null;
        }
        try {
            RunLevelTimes t = Mappers.JSON.readValue(value, RunLevelTimes.class);
            return t.image == null ? null : t;
        } catch (JsonProcessingException | RuntimeException e) {
            return null;
        }
    }

    /** The times kept on {@code object} (the ClusterVersion), or null. */
    public static RunLevelTimes of(HasMetadata object) {
        Map<String, String> a =
                object == null || object.getMetadata() == null
                        ? null
                        : object.getMetadata().getAnnotations();
        return a == null ? null : fromAnnotation(a.get(ANNOTATION));
    }

    /** As the annotation writes times: RFC 3339 in milliseconds. */
    public static String format(Instant t) {
        return Objects.requireNonNull(t).truncatedTo(ChronoUnit.MILLIS).toString();
    }

    static Instant parse(String s) {
        if (s == null || s.isEmpty()) {
            return null;
        }
        try {
            return Instant.parse(s);
        } catch (DateTimeException e) {
            return null;
        }
    }
}
