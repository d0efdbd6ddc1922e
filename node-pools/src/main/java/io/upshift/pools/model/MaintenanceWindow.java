package io.upshift.pools.model;

import java.time.DateTimeException;
import java.time.DayOfWeek;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.EnumSet;
import java.util.Set;

/**
 * When a pool's nodes may start updating, from the pool's {@code upshift.io/maintenance-window}
 * annotation: {@code <days> <start>-<end> [<time zone>]}, e.g. {@code Sat,Sun 02:00-06:00
 * Europe/Berlin} or {@code Mon-Fri 22:00-04:00} (UTC). A window whose end is not after its start
 * runs past midnight into the next day. Nodes already updating finish outside it; only new nodes
 * wait.
 */
public record MaintenanceWindow(
        Set<DayOfWeek> days, LocalTime start, LocalTime end, ZoneId zone, String text) {

    public static final String ANNOTATION = "upshift.io/maintenance-window";

    /**
     * The reason of a condition saying that a window which does not parse holds something (the
     * ClusterVersion's Progressing: an update asked for does not start).
     */
    public static final String INVALID = "InvalidMaintenanceWindow";

    private static final String FORMAT =
            "expected \"<days> <HH:MM>-<HH:MM> [time zone]\", e.g. \"Sat,Sun 02:00-06:00"
                    + " Europe/Berlin\"";

    /**
     * @throws IllegalArgumentException naming the annotation and the part that is wrong
     */
    public static MaintenanceWindow parse(String text) {
        String[] parts = text.strip().split("\\s+");
        if (parts.length < 2 || parts.length > 3) throw invalid(text, FORMAT);
        Set<DayOfWeek> days = EnumSet.noneOf(DayOfWeek.class);
        for (String item : parts[0].split(",")) {
            String[] range = item.split("-");
            if (range.length > 2) throw invalid(text, "bad day range \"" + item + "\"");
            DayOfWeek from = day(text, range[0]),
                    to = range.length == 2 ? day(text, range[1]) : from;
            for (DayOfWeek d = from; ; d = d.plus(1)) {
                days.add(d);
                if (d == to) break;
            }
        }
        String[] hours = parts[1].split("-");
        if (hours.length != 2) throw invalid(text, FORMAT);
        LocalTime start = time(text, hours[0]), end = time(text, hours[1]);
        ZoneId zone;
        try {
            zone = parts.length == 3 ? ZoneId.of(parts[2]) : ZoneId.of("UTC");
        } catch (DateTimeException e) {
            throw invalid(text, "unknown time zone \"" + parts[2] + "\"");
        }
        return new MaintenanceWindow(days, start, end, zone, text.strip());
    }

    public boolean isOpen(Instant now) {
        // Today's window, or yesterday's when it runs past midnight.
        return openedAt(now) != null;
    }

    /** The next time the window opens at or after {@code now} (now itself when it is open). */
    public Instant nextOpening(Instant now) {
        if (isOpen(now)) return now;
        ZonedDateTime local = now.atZone(zone);
        for (int ahead = 0; ahead <= 7; ahead++) {
            ZonedDateTime opens = local.plusDays(ahead).with(start).truncatedTo(ChronoUnit.MINUTES);
            if (days.contains(opens.getDayOfWeek()) && opens.isAfter(local))
                return opens.toInstant();
        }
        throw new IllegalStateException("a window with days opens within a week");
    }

    /**
     * When the window open at {@code now} closes (a window that reopens the moment it closes, e.g.
     * {@code Mon-Sun 00:00-00:00}, runs on), or null when it is closed at {@code now}.
     */
    public Instant closes(Instant now) {
        ZonedDateTime opened = openedAt(now);
        if (opened == null) return null;
        Instant end = opened.plus(length()).toInstant();
        for (int i = 0; i < 8; i++) {
            ZonedDateTime again = openedAt(end);
            if (again == null || !again.toInstant().equals(end)) break;
            end = again.plus(length()).toInstant();
        }
        return end;
    }

    /**
     * The earliest time at or after {@code from} at which something that takes {@code need} can
     * start inside the window and finish before it closes: {@code from} itself when the window is
     * open then for long enough, else the next opening of a window long enough. When {@code need}
     * is longer than any window, any time the window is open will do ({@link #nextOpening}):
     * waiting would never help.
     */
    public Instant nextStart(Instant from, Duration need) {
        Instant closes = closes(from);
        if (closes != null && !from.plus(need).isAfter(closes)) return from;
        Instant candidate = nextOpening(closes == null ? from : closes);
        for (int i = 0; i < 8; i++) {
            Instant end = closes(candidate);
            if (!candidate.plus(need).isAfter(end)) return candidate;
            candidate = nextOpening(end);
        }
        return nextOpening(from);
    }

    /** When the window open at {@code now} opened, or null when it is closed. */
    private ZonedDateTime openedAt(Instant now) {
        ZonedDateTime local = now.atZone(zone);
        for (int back = 0; back <= 1; back++) {
            ZonedDateTime opens = local.minusDays(back).with(start).truncatedTo(ChronoUnit.MINUTES);
            if (!days.contains(opens.getDayOfWeek())) continue;
            if (!local.isBefore(opens) && local.isBefore(opens.plus(length()))) return opens;
        }
        return null;
    }

    private Duration length() {
        Duration d = Duration.between(start, end);
        return d.isNegative() || d.isZero() ? d.plusDays(1) : d;
    }

    private static DayOfWeek day(String text, String name) {
        for (DayOfWeek d : DayOfWeek.values()) {
            if (d.name().substring(0, 3).equalsIgnoreCase(name) || d.name().equalsIgnoreCase(name))
                return d;
        }
        throw invalid(text, "unknown day \"" + name + "\" (Mon, Tue, Wed, Thu, Fri, Sat, Sun)");
    }

    private static LocalTime time(String text, String hhmm) {
        try {
            return LocalTime.parse(hhmm.length() == 4 ? "0" + hhmm : hhmm);
        } catch (DateTimeParseException e) {
            throw invalid(text, "bad time \"" + hhmm + "\" (HH:MM)");
        }
    }

    private static IllegalArgumentException invalid(String text, String why) {
        return new IllegalArgumentException(
                "annotation " + ANNOTATION + " \"" + text + "\": " + why);
    }
}
