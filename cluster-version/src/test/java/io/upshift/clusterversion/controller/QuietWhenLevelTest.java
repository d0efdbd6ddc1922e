package io.upshift.clusterversion.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.upshift.api.update.UpdateStatus;
import io.upshift.status.controller.UpdateStatusController;
import io.upshift.testkit.RequestLog;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A freshly installed cluster says Completed in its last write, and, level, costs the API server
 * nothing but watches: the cluster-version controller and the UpdateStatus controller together,
 * from the first install on (not only after a first update), through several of the cluster-version
 * controller's reconcile passes and of the UpdateStatus controller's periodic evaluations.
 */
@Tag("e2e")
class QuietWhenLevelTest {
    static final String STATUS = "upshift-update-status";

    @TempDir Path dir;

    @Test
    void aFreshlyInstalledLevelClusterGetsNoWriteAndNoRequestButWatches() throws Exception {
        try (ControllerHarness h = new ControllerHarness(dir)) {
            h.server.installCrds(
                    "updatestatuses.update.openshift.io",
                    "clusterversionprogressinsights.update.openshift.io",
                    "clusteroperatorprogressinsights.update.openshift.io",
                    "machineconfigpoolprogressinsights.update.openshift.io",
                    "nodeprogressinsights.update.openshift.io",
                    "healthinsights.update.openshift.io",
                    // what the UpdateStatus controller reads of the pools
                    "machineconfigpools.machineconfiguration.openshift.io",
                    "machineconfigs.machineconfiguration.openshift.io",
                    "machineconfignodes.machineconfiguration.openshift.io");
            String release = h.payloads.release("4.1.0", "4.1.0", true);
            Duration resync = Duration.ofSeconds(2);
            try (KubernetesClient statusClient = h.server.client(STATUS);
                    UpdateStatusController status =
                            new UpdateStatusController(
                                    statusClient,
                                    Clock.systemUTC(),
                                    Duration.ofSeconds(1),
                                    resync,
                                    Optional::empty)) {
                status.start();
                h.mirror = status::mirrorAhead; // as the operator wires them
                h.start(ControllerHarness.options(release, dir.resolve("cache")));
                await("4.1.0 installed")
                        .atMost(Duration.ofSeconds(60))
                        .until(() -> h.completed("4.1.0"));
                await("UpdateStatus written")
                        .atMost(Duration.ofSeconds(60))
                        .until(
                                () ->
                                        h.client
                                                        .resources(UpdateStatus.class)
                                                        .withName(UpdateStatus.NAME)
                                                        .get()
                                                != null);
                LongSupplier writes = () -> h.controller.writes() + status.writes();
                long[] last = {-1};
                // level: neither controller has written for two seconds (with the acquired-at bug
                // they never stop)
                await("level")
                        .atMost(Duration.ofSeconds(60))
                        .pollInterval(Duration.ofSeconds(2))
                        .until(
                                () -> {
                                    long now = writes.getAsLong();
                                    boolean same = now == last[0];
                                    last[0] = now;
                                    return same;
                                });
                // Completed is the install's last write: the insights that copy it came first
                List<RequestLog.Request> writesSoFar =
                        h.server
                                .requests()
                                .matching(
                                        r ->
                                                (r.userAgent().equals(ControllerHarness.CONTROLLER)
                                                                || r.userAgent().equals(STATUS))
                                                        && r.isWrite()
                                                        && !r.isLease());
                assertThat(writesSoFar.get(writesSoFar.size() - 1))
                        .hasToString(
                                "PUT /apis/config.openshift.io/v1/clusterversions/version/status ("
                                        + ControllerHarness.CONTROLLER
                                        + ")");
                assertThat(h.completed("4.1.0")).isTrue();
                int mark = h.server.requests().size();
                long evaluations = status.evaluations(),
                        passes = h.controller.passes(),
                        written = writes.getAsLong();
                // periodic work while level is what is tested: two UpdateStatus evaluations and
                // two reconcile passes, however long this machine takes for them
                await("two periodic evaluations and two reconcile passes")
                        .atMost(Duration.ofMinutes(2))
                        .until(
                                () ->
                                        status.evaluations() - evaluations >= 2
                                                && h.controller.passes() - passes >= 2);
                List<RequestLog.Request> all = h.server.requests().matching(r -> true);
                List<String> controllers =
                        all.subList(mark, all.size()).stream()
                                .filter(
                                        r ->
                                                r.userAgent().equals(ControllerHarness.CONTROLLER)
                                                        || r.userAgent().equals(STATUS))
                                .filter(r -> !r.isWatch() && !r.isLease())
                                .map(RequestLog.Request::toString)
                                .toList();
                assertThat(controllers).as("requests besides watches while level").isEmpty();
                assertThat(writes.getAsLong()).isEqualTo(written);
            }
        }
    }
}
