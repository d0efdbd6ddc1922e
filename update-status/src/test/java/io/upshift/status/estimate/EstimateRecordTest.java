package io.upshift.status.estimate;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class EstimateRecordTest {
    static final Instant START = Instant.parse("2026-11-20T10:00:00Z");

    @Test
    void eachShareOfTheWayShowsTheLastEstimateMadeByThenAgainstTheActualDuration() {
        EstimateRecord record = new EstimateRecord(START);
        record.add(START.plusSeconds(1), Optional.empty()); // nothing to estimate from yet
        record.add(START.plusSeconds(2), Optional.of(START.plusSeconds(31)));
        record.add(START.plusSeconds(14), Optional.of(START.plusMillis(29_800)));
        record.add(START.plusSeconds(16), Optional.of(START.plusSeconds(40)));
        record.add(START.plusSeconds(27), Optional.of(START.plusMillis(30_400)));
        Instant end = START.plusMillis(30_100);
        assertThat(record.saidAt(0.5, end)).contains(Duration.ofMillis(29_800)); // at 15.05 s
        assertThat(record.line(end))
                .isEqualTo(
                        "estimate: at 10% said 31.0 s, at 50% 29.8 s, at 90% 30.4 s; took 30.1 s");
        assertThat(new EstimateRecord(START).line(end))
                .isEqualTo(
                        "estimate: at 10% said none yet, at 50% none yet, at 90% none yet; took"
                                + " 30.1 s");
    }
}
