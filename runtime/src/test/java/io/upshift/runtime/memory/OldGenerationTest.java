package io.upshift.runtime.memory;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Under the serial collector, an old generation that promoted garbage is collected near its live
 * data rather than left to grow to the heap's maximum; under any other collector nothing changes.
 */
class OldGenerationTest {
    private static final long MIB = 1L << 20;

    /**
     * The child JVM, under the serial or the parallel collector: keeps a window of 16 one-MiB
     * arrays alive while it allocates 400 (each lands in the old generation, then dies there), with
     * or without {@link OldGeneration#keepNearLive}; prints the old generation's peak use in MiB.
     */
    public static void main(String[] args) throws InterruptedException {
        if (args[0].equals("kept")) OldGeneration.keepNearLive();
        ArrayDeque<byte[]> window = new ArrayDeque<>();
        long sum = 0;
        for (int i = 0; i < 400; i++) {
            byte[] chunk = new byte[(int) MIB];
            chunk[i % chunk.length] = (byte) i;
            window.add(chunk);
            if (window.size() > 16) sum += window.remove()[0];
            Thread.sleep(2); // a pass's pace: the collection runs as the notification arrives
        }
        MemoryPoolMXBean old =
                ManagementFactory.getMemoryPoolMXBeans().stream()
                        .filter(
                                p ->
                                        p.getName().equals(OldGeneration.POOL)
                                                || p.getName().equals("PS Old Gen"))
                        .findFirst()
                        .orElseThrow();
        System.out.println((old.getPeakUsage().getUsed() / MIB) + " " + sum);
    }

    @Test
    void theSerialCollectorsOldGenerationIsCollectedNearItsLiveData() throws Exception {
        long kept = peakOldGenerationMiB("kept", "-XX:+UseSerialGC");
        long left = peakOldGenerationMiB("left", "-XX:+UseSerialGC");

        // live: 17 MiB; collected 24 MiB past that (about 55 MiB at its peak, the notification
        // arriving after the young collection that crossed the threshold), never near the 400 MiB
        // allocated
        assertThat(kept).isLessThan(100);
        // the collector alone lets it grow towards its maximum (about 370 MiB)
        assertThat(left).isGreaterThan(300);
    }

    @Test
    void theThresholdIsTheLiveDataAndAQuarterOfItAtLeast24MiBAboveIt() {
        assertThat(OldGeneration.threshold(10 * MIB, 0)).isEqualTo(34 * MIB);
        assertThat(OldGeneration.threshold(200 * MIB, 0)).isEqualTo(250 * MIB);
        assertThat(OldGeneration.threshold(200 * MIB, 220 * MIB)).isEqualTo(220 * MIB);
    }

    @Test
    void otherCollectorsAreLeftAlone() throws Exception {
        assertThat(peakOldGenerationMiB("kept", "-XX:+UseParallelGC")).isGreaterThan(300);
    }

    private static long peakOldGenerationMiB(String mode, String collector) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command =
                new ArrayList<>(
                        List.of(
                                java,
                                collector,
                                "-Xmx512m",
                                "-Xmn8m",
                                "-cp",
                                System.getProperty("java.class.path"),
                                OldGenerationTest.class.getName(),
                                mode));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.exitValue()).as(out).isZero();
        // the child's one line of numbers, wherever a logger's lines fall
        String line = out.lines().filter(l -> l.matches("\\d+ -?\\d+")).findFirst().orElseThrow();
        return Long.parseLong(line.split(" ")[0]);
    }
}
