package io.upshift.runtime.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class RequestRateTest {
    static final long SECOND = TimeUnit.SECONDS.toNanos(1);

    @Test
    void aBurstAsLargeAsTheRateThenOneRequestPerShareOfASecond() {
        RequestRate rate = new RequestRate(4, 0);
        for (int i = 0; i < 4; i++) assertThat(rate.take(0)).as("request %d", i).isTrue();
        assertThat(rate.take(0)).isFalse();
        assertThat(rate.take(SECOND / 8)).isFalse(); // half a request earned
        assertThat(rate.take(SECOND / 4)).isTrue();
        assertThat(rate.take(SECOND / 4)).isFalse();
        // an idle connection earns no more than one burst
        long later = 10 * SECOND;
        for (int i = 0; i < 4; i++) assertThat(rate.take(later)).isTrue();
        assertThat(rate.take(later)).isFalse();
    }

    @Test
    void zeroIsNoLimit() {
        RequestRate rate = new RequestRate(0, 0);
        for (int i = 0; i < 100_000; i++) assertThat(rate.take(0)).isTrue();
    }

    @Test
    void aClockGoingBackEarnsNothing() {
        RequestRate rate = new RequestRate(1, SECOND);
        assertThat(rate.take(SECOND)).isTrue();
        assertThat(rate.take(0)).isFalse();
        assertThat(rate.take(SECOND)).isFalse();
        assertThat(rate.take(2 * SECOND)).isTrue();
    }
}
