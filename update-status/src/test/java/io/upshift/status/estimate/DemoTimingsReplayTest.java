package io.upshift.status.estimate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.upshift.api.json.Mappers;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * A quality check of the estimator, not of speed: the times a run of the default demo recorded
 * ({@code estimate/demo-timings.json}, written by the demo module's DemoTimingsRecorder) are
 * replayed as they stood at each moment from halfway through the update on, and the estimate made
 * then of the update's end (control plane and every pool) must be within 20% of the update's actual
 * duration.
 */
class DemoTimingsReplayTest {
    private static final double TOLERANCE = 0.2;

    @Test
    void fromHalfwayOnTheEstimateIsWithinAFifthOfTheActualDuration() throws IOException {
        JsonNode record = read();
        Instant start = Instant.parse(record.path("requestedAt").asText());
        Instant end = Instant.parse(record.path("endedAt").asText());
        Duration actual = Duration.between(start, end);
        List<String> seen = new ArrayList<>();
        for (int percent = 10; percent <= 95; percent += 5) {
            Instant at = start.plusMillis(actual.toMillis() * percent / 100);
            Duration said = Duration.between(start, estimatedEnd(record, at));
            seen.add(String.format(Locale.ROOT, "%d%%: %.1f s", percent, said.toMillis() / 1000.0));
            if (percent < 50) {
                continue; // shown, not held to the bound: early on, few run-levels have been timed
            }
            assertThat(Math.abs(said.toMillis() - actual.toMillis()))
                    .as(
                            "at %d%% the estimate said %s, the update took %s (%s)",
                            percent, said, actual, seen)
                    .isLessThanOrEqualTo((long) (actual.toMillis() * TOLERANCE));
        }
        System.out.printf(
                "demo timings replayed: took %.1f s; estimated %s%n",
                actual.toMillis() / 1000.0, String.join(", ", seen));
    }

    private static JsonNode read() throws IOException {
        try (InputStream in =
                DemoTimingsReplayTest.class.getResourceAsStream("/estimate/demo-timings.json")) {
            return Mappers.JSON.readTree(in);
        }
    }

    /** The end the estimator predicts from what had been recorded by {@code at}. */
    static Instant estimatedEnd(JsonNode record, Instant at) {
        RunLevelTimes all =
                Mappers.JSON.convertValue(record.path("runLevels"), RunLevelTimes.class);
        // a run-level's interruption is taken as known once it is done (the controller that took
        // over marks it sooner)
        RunLevelTimes soFar =
                new RunLevelTimes(
                        all.image(),
                        all.version(),
                        all.levels().stream()
                                .map(
                                        l ->
                                                new RunLevelTimes.Level(
                                                        l.runLevel(),
                                                        l.tasks(),
                                                        l.operators(),
                                                        by(l.startedAt(), at),
                                                        by(l.doneAt(), at),
                                                        by(l.doneAt(), at) == null
                                                                ? null
                                                                : l.interrupted()))
                                .toList(),
                        all.previous());
        PoolRollout masters = null;
        List<PoolRollout> workers = new ArrayList<>();
        for (JsonNode pool : record.path("pools")) {
            PoolRollout rollout = rollout(pool, at);
            if (pool.path("name").asText().equals("master")) {
                masters = rollout;
            } else {
                workers.add(rollout);
            }
        }
        Instant end = null;
        Instant rolloutStart = null;
        if (!soFar.complete()) {
            ControlPlaneEstimate.Result cp =
                    ControlPlaneEstimate.of(soFar, all.image(), at, masters);
            end = cp.completedAt();
            rolloutStart = cp.rolloutStart();
        }
        for (PoolRollout w : workers) {
            if (!w.finished()) {
                Instant e = w.plan(rolloutStart).end();
                end = end == null || e.isAfter(end) ? e : end;
            }
        }
        return end == null ? at : end;
    }

    /**
     * A pool's nodes as they stood at {@code at}: done, updating, or waiting in the pool
     * controller's order.
     */
    private static PoolRollout rollout(JsonNode pool, Instant at) {
        List<PoolRollout.Node> nodes = new ArrayList<>();
        List<JsonNode> waiting = new ArrayList<>();
        List<Duration> thisRollout = new ArrayList<>(), earlier = new ArrayList<>();
        for (JsonNode n : pool.path("nodes")) {
            earlier.add(
                    Duration.between(
                            Instant.parse(n.path("installStartedAt").asText()),
                            Instant.parse(n.path("installDoneAt").asText())));
            Instant started = Instant.parse(n.path("startedAt").asText()),
                    done = Instant.parse(n.path("doneAt").asText());
            if (!done.isAfter(at)) {
                nodes.add(
                        new PoolRollout.Node(
                                n.path("name").asText(), PoolRollout.State.DONE, null, done));
                thisRollout.add(Duration.between(started, done));
            } else if (!started.isAfter(at)) {
                nodes.add(
                        new PoolRollout.Node(
                                n.path("name").asText(), PoolRollout.State.RUNNING, started, null));
            } else {
                waiting.add(n);
            }
        }
        waiting.sort(
                Comparator.comparing((JsonNode n) -> n.path("zone").asText())
                        .thenComparing(n -> n.path("created").asText())
                        .thenComparing(n -> n.path("name").asText()));
        waiting.forEach(
                n ->
                        nodes.add(
                                new PoolRollout.Node(
                                        n.path("name").asText(),
                                        PoolRollout.State.PENDING,
                                        null,
                                        null)));
        return new PoolRollout(
                nodes, pool.path("maxUnavailable").asInt(1), NodeTime.of(thisRollout, earlier), at);
    }

    private static String by(String time, Instant at) {
        return time != null && !Instant.parse(time).isAfter(at) ? time : null;
    }
}
