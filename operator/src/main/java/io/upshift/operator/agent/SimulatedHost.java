package io.upshift.operator.agent;

import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A host for tests and the demo: a reboot takes {@code rebootTime} and gives a new boot id; the staged OS image is
 * remembered. One instance is one machine: it outlives the agents killed and started on it.
 */
public final class SimulatedHost implements HostOs {
    private final Duration rebootTime;
    private final AtomicInteger reboots = new AtomicInteger();
    private volatile String bootId = UUID.randomUUID().toString();
    private volatile String osImage = "";

    public SimulatedHost(Duration rebootTime) {
        this.rebootTime = rebootTime;
    }

    @Override
    public String bootId() {
        return bootId;
    }

    @Override
    public void stageOsImage(String osImageUrl) {
        osImage = osImageUrl;
    }

    @Override
    public void reboot() {
        try {
            Thread.sleep(rebootTime.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while rebooting", e);
        }
        bootId = UUID.randomUUID().toString();
        reboots.incrementAndGet();
    }

    public int reboots() {
        return reboots.get();
    }

    public String osImage() {
        return osImage;
    }
}
