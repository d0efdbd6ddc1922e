package io.upshift.runtime.memory;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryNotificationInfo;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.management.NotificationEmitter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the serial collector's old generation near what it holds alive. That collector empties the
 * old generation only in a full collection, which it runs only when the heap's maximum is reached:
 * until then it grows by whatever the young collections promote, dead or not, and the memory it
 * takes stays in the process. An update's pass promotes tens of MiB that die within seconds (a
 * payload parsed, lists read), so the heap would grow to the live data plus all of them. Instead,
 * once the old generation holds {@link #headroom} more than it held after the last full collection,
 * it is collected, and the heap given back down to its free ratio.
 */
public final class OldGeneration {
    private static final Logger LOG = LoggerFactory.getLogger(OldGeneration.class);

    /** The serial collector's old generation, as its memory pool is named. */
    static final String POOL = "Tenured Gen";

    static final long MIN_HEADROOM = 24L << 20;

    private static final AtomicBoolean ARMED = new AtomicBoolean();

    private OldGeneration() {}

    /**
     * From now on, collects the old generation whenever it grows past its live data by {@link
     * #headroom}; once per process, after a full collection (the start's garbage collected), and
     * only under the serial collector.
     */
    public static void keepNearLive() {
        Optional<MemoryPoolMXBean> pool =
                ManagementFactory.getMemoryPoolMXBeans().stream()
                        .filter(p -> p.getType() == MemoryType.HEAP && POOL.equals(p.getName()))
                        .filter(MemoryPoolMXBean::isUsageThresholdSupported)
                        .findFirst();
        if (pool.isEmpty() || !ARMED.compareAndSet(false, true)) return;
        MemoryPoolMXBean old = pool.get();
        ((NotificationEmitter) ManagementFactory.getMemoryMXBean())
                .addNotificationListener(
                        (notification, handback) -> {
                            if (!MemoryNotificationInfo.MEMORY_THRESHOLD_EXCEEDED.equals(
                                    notification.getType())) return;
                            long before = old.getUsage().getUsed();
                            System.gc();
                            long live = old.getUsage().getUsed();
                            old.setUsageThreshold(threshold(live, old.getUsage().getMax()));
                            LOG.debug(
                                    "old generation collected at {} MiB: {} MiB live",
                                    before >> 20,
                                    live >> 20);
                        },
                        null,
                        null);
        old.setUsageThreshold(threshold(old.getUsage().getUsed(), old.getUsage().getMax()));
    }

    /** How far the old generation may grow past {@code live}: a quarter of it, at least 24 MiB. */
    static long headroom(long live) {
        return Math.max(MIN_HEADROOM, live / 4);
    }

    /** The usage at which to collect, for {@code live}; at most {@code max} when one is known. */
    static long threshold(long live, long max) {
        long t = live + headroom(live);
        return max > 0 ? Math.min(t, max) : t;
    }
}
