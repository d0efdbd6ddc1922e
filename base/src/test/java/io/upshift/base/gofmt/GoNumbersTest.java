package io.upshift.base.gofmt;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class GoNumbersTest {
    @Test
    void roundsTheExactBinaryValueHalfToEven() {
        assertThat(GoNumbers.percent(12.5)).isEqualTo("12");
        assertThat(GoNumbers.percent(13.5)).isEqualTo("14");
        assertThat(GoNumbers.percent(0.5)).isEqualTo("0");
        assertThat(GoNumbers.percent(22.0 / 59 * 100)).isEqualTo("37");
        assertThat(GoNumbers.percent(32.0 / 33 * 100)).isEqualTo("97");
        // 1/8 of 100 is exactly 12.5 in binary; 0.145*100 is 14.499999999999998, just below the
        // half.
        assertThat(GoNumbers.percent(1.0 / 8 * 100)).isEqualTo("12");
        assertThat(GoNumbers.percent(0.145 * 100)).isEqualTo("14");
        assertThat(GoNumbers.percent(2.5)).isEqualTo("2");
        assertThat(GoNumbers.percent(Double.NaN)).isEqualTo("NaN");
    }
}
