package io.upshift.runtime.health;

import io.upshift.runtime.memory.OldGeneration;
import java.lang.management.ManagementFactory;
import java.time.Instant;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A process's start, one log line per milestone (the command running, the Lease taken, the caches
 * filled, ready, the first sync), each with the seconds since the JVM started and the classes
 * loaded by then: where the time to readiness goes, read from the pod's log on any cluster and by
 * {@code bench/run OperatorFootprint}. Each milestone is logged once per process (a replica that
 * loses the Lease and takes it again does not start again).
 */
public final class Startup {
    private static final Logger LOG = LoggerFactory.getLogger(Startup.class);
    private static final Set<String> SEEN = ConcurrentHashMap.newKeySet();
    private static final AtomicBoolean FIRST = new AtomicBoolean(true);

    private Startup() {}

    /**
     * Logs the first sync, then collects the start's garbage once (parsed lists, class loading, the
     * first pass's work): the serial collector promotes much of it to the old generation, which
     * only a full collection empties and gives back, and an idle controller would otherwise keep it
     * for good. From then on the old generation is kept near its live data ({@link OldGeneration}).
     */
    public static void firstSync() {
        if (!mark("first sync")) return;
        System.gc();
        mark("start's garbage collected");
        OldGeneration.keepNearLive();
    }

    /** Logs {@code milestone}, the first time only; whether this was the first time. */
    public static boolean mark(String milestone) {
        if (!SEEN.add(milestone)) return false;
        long started = ManagementFactory.getRuntimeMXBean().getStartTime();
        int classes = ManagementFactory.getClassLoadingMXBean().getLoadedClassCount();
        if (FIRST.getAndSet(false))
            LOG.info("startup: the JVM started at {}", Instant.ofEpochMilli(started));
        LOG.info(
                String.format(
                        Locale.ROOT,
                        "startup: %s %.3f s after the JVM started (%d classes loaded)",
                        milestone,
                        (System.currentTimeMillis() - started) / 1000.0,
                        classes));
        return true;
    }
}
