package io.upshift.base.conditions;

import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * Times as the API writes them (metav1.Time): RFC 3339 in whole seconds, {@code
 * 2026-11-23T12:06:44Z}.
 */
public final class ApiTime {

    private ApiTime() {}

    public static String of(Instant t) {
        return t.truncatedTo(ChronoUnit.SECONDS).toString();
    }
}
