package io.upshift.releases.payload;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class PayloadCacheTest {

    private static final String RUNNING = "registry.example/release@sha256:" + "a".repeat(64);
    private static final String DESIRED = "registry.example/release@sha256:" + "b".repeat(64);
    private static final String EARLIER = "registry.example/release@sha256:" + "c".repeat(64);

    @Test
    void aReleasesDirectoryIsTenHexDigitsOfItsPullspecsHash() {
        assertThat(PayloadCache.hash(RUNNING))
                .matches("[0-9a-f]{10}")
                .isEqualTo(PayloadCache.hash(RUNNING))
                .isNotEqualTo(PayloadCache.hash(DESIRED));
        assertThat(PayloadCache.partial("0123456789", "x7k2p"))
                .isEqualTo("0123456789.partial-x7k2p");
    }

    @Test
    void everyPartialCopyAndEveryReleaseNotInUseIsStaleAndNothingElse() {
        String running = PayloadCache.hash(RUNNING),
                desired = PayloadCache.hash(DESIRED),
                earlier = PayloadCache.hash(EARLIER);
        List<String> entries =
                List.of(
                        desired,
                        running,
                        earlier,
                        desired + ".partial-12345",
                        earlier + ".partial-ab9cd",
                        // not the cache's own: left alone whatever they are
                        "lost+found",
                        "README",
                        "0123456789abc",
                        "0123456789.partial-",
                        ".0123456789",
                        "0123456789-old");
        assertThat(PayloadCache.stale(entries, List.of(RUNNING, DESIRED)))
                .isSorted()
                .containsExactlyInAnyOrder(
                        earlier, earlier + ".partial-ab9cd", desired + ".partial-12345");
        // nothing in use (an empty history): every release's directory goes
        assertThat(PayloadCache.stale(List.of(running, desired), Arrays.asList(null, "")))
                .containsExactlyInAnyOrder(running, desired);
    }
}
