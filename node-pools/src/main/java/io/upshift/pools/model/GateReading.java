package io.upshift.pools.model;

import io.upshift.graph.risk.PromQLSample;
import java.time.Instant;
import java.util.List;

/**
 * What Prometheus answered to one health gate's query, and when it was asked: the pool controller
 * asks before it decides (only for pools with a rollout due) and hands the answers to the decision,
 * which stays a function of them.
 */
public sealed interface GateReading {
    Instant at();

    /** The query's samples. */
    record Samples(List<PromQLSample> samples, Instant at) implements GateReading {
        public Samples {
            samples = List.copyOf(samples);
        }
    }

    /** Prometheus could not be asked, or answered an error; the message says which. */
    record Failed(String message, Instant at) implements GateReading {}
}
