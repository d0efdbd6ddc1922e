package io.upshift.pools.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class MaintenanceWindowTest {

    @Test
    void opensOnTheListedDaysInItsTimeZone() {
        MaintenanceWindow w = MaintenanceWindow.parse("Sat,Sun 02:00-06:00 Europe/Berlin");
        // 2026-11-21 is a Saturday; Berlin is UTC+1 in November.
        assertThat(w.isOpen(Instant.parse("2026-11-21T01:00:00Z"))).isTrue();
        assertThat(w.isOpen(Instant.parse("2026-11-21T00:59:59Z"))).isFalse();
        assertThat(w.isOpen(Instant.parse("2026-11-21T05:00:00Z"))).isFalse();
        assertThat(w.isOpen(Instant.parse("2026-11-23T01:30:00Z"))).isFalse(); // Monday
        assertThat(w.nextOpening(Instant.parse("2026-11-23T01:30:00Z")))
                .isEqualTo(Instant.parse("2026-11-28T01:00:00Z"));
    }

    @Test
    void aWindowPastMidnightBelongsToTheDayItStarts() {
        MaintenanceWindow w = MaintenanceWindow.parse("Mon-Fri 22:00-04:00");
        assertThat(w.isOpen(Instant.parse("2026-11-23T23:00:00Z"))).isTrue(); // Monday night
        assertThat(w.isOpen(Instant.parse("2026-11-24T03:59:00Z")))
                .isTrue(); // Tuesday early, Monday's window
        assertThat(w.isOpen(Instant.parse("2026-11-23T03:00:00Z")))
                .isFalse(); // Monday early: Sunday has no window
        assertThat(w.isOpen(Instant.parse("2026-11-28T03:00:00Z")))
                .isTrue(); // Saturday early, Friday's window
        assertThat(w.isOpen(Instant.parse("2026-11-28T23:00:00Z"))).isFalse(); // Saturday night
    }

    @Test
    void badWindowsAreNamed() {
        assertThatThrownBy(() -> MaintenanceWindow.parse("Someday 02:00-06:00"))
                .hasMessage(
                        "annotation upshift.io/maintenance-window \"Someday 02:00-06:00\": unknown"
                                + " day \"Someday\" (Mon, Tue, Wed, Thu, Fri, Sat, Sun)");
        assertThatThrownBy(() -> MaintenanceWindow.parse("Sat 25:00-06:00"))
                .hasMessageContaining("bad time \"25:00\"");
        assertThatThrownBy(() -> MaintenanceWindow.parse("Sat 02:00-06:00 Mars/Olympus"))
                .hasMessageContaining("unknown time zone \"Mars/Olympus\"");
        assertThatThrownBy(() -> MaintenanceWindow.parse("Sat"))
                .hasMessageContaining("expected \"<days> <HH:MM>-<HH:MM> [time zone]\"");
    }

    @Test
    void saysWhenTheOpenWindowCloses() {
        MaintenanceWindow w = MaintenanceWindow.parse("Mon-Fri 22:00-04:00");
        assertThat(w.closes(Instant.parse("2026-11-23T23:00:00Z")))
                .isEqualTo(Instant.parse("2026-11-24T04:00:00Z"));
        assertThat(w.closes(Instant.parse("2026-11-23T12:00:00Z"))).isNull();
        // every day all day: one window that never closes within the week looked at
        MaintenanceWindow always = MaintenanceWindow.parse("Mon-Sun 00:00-00:00");
        assertThat(always.closes(Instant.parse("2026-11-23T12:00:00Z")))
                .isAfter(Instant.parse("2026-11-30T00:00:00Z"));
    }

    @Test
    void aStartThatCouldNotFinishBeforeTheCloseWaitsForTheNextOpening() {
        MaintenanceWindow w = MaintenanceWindow.parse("Mon-Fri 22:00-04:00");
        Duration tenMinutes = Duration.ofMinutes(10);
        Instant monday2300 = Instant.parse("2026-11-23T23:00:00Z");
        assertThat(w.nextStart(monday2300, tenMinutes)).isEqualTo(monday2300);
        // 03:55 on Tuesday: ten minutes would end past 04:00, so Tuesday 22:00
        assertThat(w.nextStart(Instant.parse("2026-11-24T03:55:00Z"), tenMinutes))
                .isEqualTo(Instant.parse("2026-11-24T22:00:00Z"));
        // just fits: ends at the close
        assertThat(w.nextStart(Instant.parse("2026-11-24T03:50:00Z"), tenMinutes))
                .isEqualTo(Instant.parse("2026-11-24T03:50:00Z"));
        // closed (Saturday noon): the next opening, Monday 22:00
        assertThat(w.nextStart(Instant.parse("2026-11-28T12:00:00Z"), tenMinutes))
                .isEqualTo(Instant.parse("2026-11-30T22:00:00Z"));
        // longer than the window itself: waiting never helps, so any open time will do
        assertThat(w.nextStart(Instant.parse("2026-11-24T03:55:00Z"), Duration.ofHours(7)))
                .isEqualTo(Instant.parse("2026-11-24T03:55:00Z"));
    }
}
