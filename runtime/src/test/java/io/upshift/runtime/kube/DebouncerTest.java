package io.upshift.runtime.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The controllers' rate limit: changes after a quiet spell run at once, up to the burst; past it a
 * change waits for the interval. The interval here is an hour, so a run that should wait cannot
 * happen during the test.
 */
class DebouncerTest {
    private static final Duration HOUR = Duration.ofHours(1);

    @Test
    void changesUpToTheBurstRunAtOnceAndTheNextWaitsForTheInterval() throws Exception {
        AtomicInteger runs = new AtomicInteger();
        try (Debouncer d = new Debouncer("test", HOUR, 3, runs::incrementAndGet)) {
            for (int i = 1; i <= 3; i++) {
                d.trigger();
                int expected = i;
                await().atMost(Duration.ofSeconds(10)).until(() -> runs.get() == expected);
            }
            d.trigger();
            Thread.sleep(300);
            assertThat(runs.get()).isEqualTo(3);
        }
    }

    @Test
    void withABurstOfOneASecondChangeWaits() throws Exception {
        AtomicInteger runs = new AtomicInteger();
        try (Debouncer d = new Debouncer("test", HOUR, runs::incrementAndGet)) {
            d.trigger();
            await().atMost(Duration.ofSeconds(10)).until(() -> runs.get() == 1);
            d.trigger();
            Thread.sleep(300);
            assertThat(runs.get()).isEqualTo(1);
        }
    }
}
