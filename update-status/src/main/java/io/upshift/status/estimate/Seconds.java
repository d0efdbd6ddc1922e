package io.upshift.status.estimate;

import java.time.Duration;
import java.util.Locale;

/**
 * Durations as the estimate's bases and the demo's comparison show them: "2.4 s", "95 s", "12.5
 * min".
 */
final class Seconds {
    private Seconds() {}

    static String format(Duration d) {
        double s = d.toMillis() / 1000.0;
        if (s >= 600) {
            return String.format(Locale.ROOT, "%.1f min", s / 60);
        }
        return s >= 100
                ? String.format(Locale.ROOT, "%.0f s", s)
                : String.format(Locale.ROOT, "%.1f s", s);
    }
}
