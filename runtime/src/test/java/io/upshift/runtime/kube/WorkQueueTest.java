package io.upshift.runtime.kube;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The controllers' work queue: a key waits once, is not handed out twice at a time, and backs off
 * per failure.
 */
class WorkQueueTest {

    @Test
    void aKeyAddedManyTimesWaitsOnceAndAKeyAddedWhileProcessedComesBackAfter() throws Exception {
        try (WorkQueue<String> q = new WorkQueue<>("test", Backoff.controller())) {
            q.add("a");
            q.add("a");
            q.add("b");
            assertThat(q.take()).isEqualTo("a");
            q.add("a"); // while processed: comes back once done
            assertThat(q.take()).isEqualTo("b");
            q.done("b");
            q.done("a");
            assertThat(q.take()).isEqualTo("a");
        }
    }

    @Test
    void failuresBackOffExponentiallyUntilForgotten() {
        Backoff b = new Backoff(Duration.ofMillis(10), 2, Duration.ofSeconds(1), 0);
        SplittableRandom r = new SplittableRandom(1);
        assertThat(b.delay(0, r)).isEqualTo(Duration.ofMillis(10));
        assertThat(b.delay(3, r)).isEqualTo(Duration.ofMillis(80));
        assertThat(b.delay(20, r)).isEqualTo(Duration.ofSeconds(1));
        Backoff jittered = new Backoff(Duration.ofMillis(100), 2, Duration.ofSeconds(1), 0.5);
        for (int i = 0; i < 50; i++)
            assertThat(jittered.delay(0, r))
                    .isBetween(Duration.ofMillis(100), Duration.ofMillis(150));
    }

    @Test
    void aRateLimitedKeyComesBackAfterItsBackoff() throws Exception {
        try (WorkQueue<String> q =
                new WorkQueue<>(
                        "test",
                        new Backoff(Duration.ofMillis(200), 2, Duration.ofSeconds(10), 0))) {
            q.add("k");
            q.done(q.take());
            long start = System.nanoTime();
            assertThat(q.addRateLimited("k")).isEqualTo(Duration.ofMillis(200));
            assertThat(q.take()).isEqualTo("k");
            assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start))
                    .isGreaterThanOrEqualTo(190);
            q.done("k");
            assertThat(q.addRateLimited("k")).isEqualTo(Duration.ofMillis(400));
            q.forget("k");
            assertThat(q.addRateLimited("k")).isEqualTo(Duration.ofMillis(200));
        }
    }
}
