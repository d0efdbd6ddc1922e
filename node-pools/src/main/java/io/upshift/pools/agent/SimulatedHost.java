package io.upshift.pools.agent;

import io.upshift.pools.model.HostBoot;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A host for tests and the demo: a reboot takes {@code rebootTime} and gives a new boot id; the
 * staged OS is remembered, and so is every systemd operation asked of it. One instance is one
 * machine: it outlives the agents killed and started on it.
 */
public final class SimulatedHost implements HostOs {
    private final Duration rebootTime;
    private final AtomicInteger reboots = new AtomicInteger();
    private final List<String> systemctl = new CopyOnWriteArrayList<>();
    private volatile HostBoot boot = newBoot();
    private volatile OsTarget os = OsTarget.image("");
    private volatile String booted = "";
    private final Set<String> unbootable = ConcurrentHashMap.newKeySet();

    /**
     * How the host last fell back from an image, as a host's node-image check words it; or null.
     */
    private volatile String failed;

    public SimulatedHost(Duration rebootTime) {
        this.rebootTime = rebootTime;
    }

    /** A boot id of its own and an empty /run, which the agent's marker then fills. */
    private static HostBoot newBoot() {
        return new HostBoot(UUID.randomUUID().toString(), UUID.randomUUID().toString());
    }

    @Override
    public HostBoot boot() {
        return boot;
    }

    @Override
    public void stageOs(OsTarget target) {
        if (failedOn(target.osImageUrl())) throw new IllegalStateException(failed);
        os = target;
    }

    @Override
    public Optional<String> bootFailure() {
        return failedOn(os.osImageUrl()) ? Optional.of(failed) : Optional.empty();
    }

    private boolean failedOn(String image) {
        return HostOs.fellBackFrom(failed, image);
    }

    /**
     * The host cannot boot {@code image} (its kubelet exits at once): a reboot into it falls back
     * to the image booted before, as a host's node-image check does.
     */
    public void unbootable(String image) {
        unbootable.add(image);
    }

    @Override
    public void reboot() throws InterruptedException {
        Thread.sleep(rebootTime.toMillis());
        String image = os.osImageUrl();
        if (unbootable.contains(image)) {
            failed =
                    "node image "
                            + image
                            + " failed: the kubelet exited at once; back on "
                            + (booted.isEmpty() ? "the host's own files" : booted);
            reboots.incrementAndGet(); // the fallback's own
        } else {
            booted = image;
        }
        boot = newBoot();
        reboots.incrementAndGet();
    }

    @Override
    public void reloadUnit(String unit) {
        systemctl.add("reload " + unit);
    }

    @Override
    public void restartUnit(String unit) {
        systemctl.add("restart " + unit);
    }

    @Override
    public void daemonReload() {
        systemctl.add("daemon-reload");
    }

    public int reboots() {
        return reboots.get();
    }

    public String osImage() {
        return os.osImageUrl();
    }

    /** The OS staged last (what the host boots after its next reboot). */
    public OsTarget os() {
        return os;
    }

    /**
     * The systemd operations asked so far, oldest first: {@code reload crio.service}, {@code
     * daemon-reload}.
     */
    public List<String> systemctl() {
        return List.copyOf(systemctl);
    }
}
