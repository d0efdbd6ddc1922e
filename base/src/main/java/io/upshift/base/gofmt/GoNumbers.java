package io.upshift.base.gofmt;

import java.math.BigDecimal;
import java.math.RoundingMode;

/** Go's {@code fmt} number formatting where it differs from Java's. */
public final class GoNumbers {
    private GoNumbers() {}

    /**
     * {@code fmt.Sprintf("%.0f", x)}: the exact binary value rounded half to even, so 12.5 prints
     * "12" (Java's {@code String.format} would print "13").
     */
    public static String percent(double x) {
        if (Double.isNaN(x)) {
            return "NaN";
        }
        if (Double.isInfinite(x)) {
            return x > 0 ? "+Inf" : "-Inf";
        }
        BigDecimal rounded = new BigDecimal(x).setScale(0, RoundingMode.HALF_EVEN);
        String s = rounded.toPlainString();
        // Go keeps the sign of negative values that round to zero.
        return (rounded.signum() == 0 && (x < 0 || (x == 0 && 1 / x < 0))) ? "-" + s : s;
    }
}
