package io.upshift.runtime.kube;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class ChangesTest {

    @Test
    void signalAllWakesAWaiterOnAnyObjectAndAChangeOfAnotherDoesNot() throws Exception {
        Changes changes = new Changes();
        String mine = Changes.key("apps/v1", "Deployment", "ns", "a");
        long seen = changes.seen(mine);
        CompletableFuture<Boolean> woken =
                CompletableFuture.supplyAsync(
                        () -> {
                            try {
                                return changes.await(mine, seen, Duration.ofMinutes(1));
                            } catch (InterruptedException e) {
                                return false;
                            }
                        });
        changes.signal(Changes.key("apps/v1", "Deployment", "ns", "b"));
        TimeUnit.MILLISECONDS.sleep(200);
        assertThat(woken).as("woken by another object's change").isNotDone();

        changes.signalAll();
        assertThat(woken.get(30, TimeUnit.SECONDS)).isTrue();
    }
}
