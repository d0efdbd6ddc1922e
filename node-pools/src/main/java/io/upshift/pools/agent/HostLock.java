package io.upshift.pools.agent;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.function.Consumer;

/**
 * One agent acts on a host at a time. Two can run there at once: a DaemonSet's rolling update makes
 * the new pod as soon as the old one is terminating, and the old one is still at work (or, after a
 * reboot, starting again) while the new one starts. Each decides from the node and the marker on
 * the host, which the other changes under it: an agent that read the node before the other finished
 * an update, and the marker after, would take the finished update for one still to do and reboot
 * the host a second time. So an agent holds a lock on a file in the host's {@code /run} for as long
 * as it runs (a record lock, which the kernel drops when the process ends however it ends) and
 * waits for it before it does anything; the one before it stops within its pod's grace period.
 */
public final class HostLock implements AutoCloseable {
    /** The lock's file on the host ({@code /run}: every boot starts without it). */
    public static final String PATH = "/run/upshift/agent.lock";

    private final FileChannel channel;
    private final FileLock lock;

    private HostLock(FileChannel channel, FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    /**
     * Waits until no other agent holds the host's lock, looking every {@code every}, and takes it;
     * {@code waiting} is told once, when another agent holds it.
     *
     * @throws IOException when the lock's file cannot be made or locked
     */
    public static HostLock acquire(Path hostRoot, Duration every, Consumer<String> waiting)
            throws IOException, InterruptedException {
        Path file = new HostFiles(hostRoot).resolve(PATH);
        Files.createDirectories(file.getParent());
        FileChannel channel =
                FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        boolean told = false;
        try {
            while (true) {
                FileLock lock = tryLock(channel);
                if (lock != null) {
                    String holder = ProcessHandle.current().pid() + "\n";
                    channel.truncate(0);
                    channel.write(ByteBuffer.wrap(holder.getBytes(StandardCharsets.UTF_8)), 0);
                    return new HostLock(channel, lock);
                }
                if (!told) {
                    waiting.accept(holder(file));
                    told = true;
                }
                Thread.sleep(every.toMillis());
            }
        } catch (IOException | InterruptedException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    /** The lock, or null when another holds it (another process, or another agent of this one). */
    private static FileLock tryLock(FileChannel channel) throws IOException {
        try {
            return channel.tryLock();
        } catch (OverlappingFileLockException e) {
            return null;
        }
    }

    /** Who holds it, as the holder wrote it: its process id. */
    private static String holder(Path file) {
        try {
            String pid = Files.readString(file).strip();
            return pid.isEmpty() ? "another agent" : "the agent of process " + pid;
        } catch (IOException e) {
            return "another agent";
        }
    }

    @Override
    public void close() throws IOException {
        try {
            lock.release();
        } finally {
            channel.close();
        }
    }
}
