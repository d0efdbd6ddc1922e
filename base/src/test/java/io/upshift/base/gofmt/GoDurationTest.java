package io.upshift.base.gofmt;

import static io.upshift.base.gofmt.GoDuration.HOUR;
import static io.upshift.base.gofmt.GoDuration.MINUTE;
import static io.upshift.base.gofmt.GoDuration.SECOND;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class GoDurationTest {
    @Test
    void formatsLikeGo() {
        assertThat(GoDuration.format(0)).isEqualTo("0s");
        assertThat(GoDuration.format(1)).isEqualTo("1ns");
        assertThat(GoDuration.format(368_975)).isEqualTo("368.975µs");
        assertThat(GoDuration.format(1_500_000)).isEqualTo("1.5ms");
        assertThat(GoDuration.format(SECOND + SECOND / 2)).isEqualTo("1.5s");
        assertThat(GoDuration.format(HOUR + 2 * MINUTE + 3 * SECOND)).isEqualTo("1h2m3s");
        assertThat(GoDuration.format(72 * HOUR + 3 * MINUTE + SECOND / 2)).isEqualTo("72h3m0.5s");
        assertThat(GoDuration.format(-5 * MINUTE)).isEqualTo("-5m0s");
        assertThat(GoDuration.format(Long.MIN_VALUE)).isEqualTo("-2562047h47m16.854775808s");
    }

    @Test
    void roundsHalvesAwayFromZeroAndTruncatesTowardsZero() {
        assertThat(GoDuration.round(90 * SECOND, MINUTE)).isEqualTo(2 * MINUTE);
        assertThat(GoDuration.round(89 * SECOND, MINUTE)).isEqualTo(MINUTE);
        assertThat(GoDuration.round(-90 * SECOND, MINUTE)).isEqualTo(-2 * MINUTE);
        assertThat(GoDuration.round(-89 * SECOND, MINUTE)).isEqualTo(-MINUTE);
        assertThat(GoDuration.truncate(119 * SECOND, MINUTE)).isEqualTo(MINUTE);
        assertThat(GoDuration.truncate(-119 * SECOND, MINUTE)).isEqualTo(-MINUTE);
    }

    @Test
    void shortFormDropsZeroUnitsAndFractions() {
        assertThat(GoDuration.shortFormat(0)).isEqualTo("now");
        assertThat(GoDuration.shortFormat(2 * HOUR)).isEqualTo("2h");
        assertThat(GoDuration.shortFormat(5 * MINUTE)).isEqualTo("5m");
        assertThat(GoDuration.shortFormat(2 * HOUR + 3 * MINUTE)).isEqualTo("2h3m");
        assertThat(GoDuration.shortFormat(64 * MINUTE + 41 * SECOND + 368_975))
                .isEqualTo("1h4m41s");
        // Go reads "368.975µs" cut at the dot as "368s": oc shows 6m8s for a third of a
        // millisecond.
        assertThat(GoDuration.shortFormat(368_975)).isEqualTo("6m8s");
    }

    @Test
    void parsesGoDurations() {
        assertThat(GoDuration.parse("10m0s")).isEqualTo(10 * MINUTE);
        assertThat(GoDuration.parse("1h2m3.5s"))
                .isEqualTo(HOUR + 2 * MINUTE + 3 * SECOND + SECOND / 2);
        assertThat(GoDuration.parse("0")).isZero();
        assertThat(GoDuration.parse("-4ms")).isEqualTo(-4_000_000);
        assertThatThrownBy(() -> GoDuration.parse("ten minutes"))
                .hasMessageContaining("ten minutes");
        assertThatThrownBy(() -> GoDuration.parse("5")).hasMessageContaining("\"5\"");
    }
}
