package io.upshift.pools.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One agent on a host at a time: the next waits, says whom for, and goes on once it is gone. */
class HostLockTest {

    @TempDir Path root;

    @Test
    void theNextAgentWaitsForTheOneBeforeItToStop() throws Exception {
        List<String> told = new CopyOnWriteArrayList<>();
        HostLock first = HostLock.acquire(root, Duration.ofMillis(20), told::add);
        assertThat(told).isEmpty();
        String pid = String.valueOf(ProcessHandle.current().pid());
        assertThat(Files.readString(root.resolve("run/upshift/agent.lock")).strip()).isEqualTo(pid);

        CompletableFuture<HostLock> next =
                CompletableFuture.supplyAsync(
                        () -> {
                            try {
                                return HostLock.acquire(root, Duration.ofMillis(20), told::add);
                            } catch (Exception e) {
                                throw new IllegalStateException(e);
                            }
                        });
        Awaitility.await().until(() -> !told.isEmpty());
        assertThat(next).isNotDone();
        assertThat(told).containsExactly("the agent of process " + pid);

        first.close();
        try (HostLock second = next.get(5, TimeUnit.SECONDS)) {
            assertThat(second).isNotNull();
            assertThat(told).as("told once, however long it waited").hasSize(1);
        }
    }
}
