package io.upshift.rehearsal.model;

import java.time.Duration;
import java.util.Locale;

/** A time on the timeline as the report shows it: "12.4s", "3m05s", "1h12m". */
public final class Span {
    private Span() {}

    public static String of(Duration d) {
        if (d == null) return "-";
        long ms = d.toMillis();
        if (ms < 60_000) return String.format(Locale.ROOT, "%.1fs", ms / 1000.0);
        long s = Math.round(ms / 1000.0);
        if (s < 3600) return String.format(Locale.ROOT, "%dm%02ds", s / 60, s % 60);
        long m = Math.round(s / 60.0);
        return String.format(Locale.ROOT, "%dh%02dm", m / 60, m % 60);
    }
}
