package io.upshift.runtime.kube;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Event;
import io.upshift.testkit.ApiServer;
import io.upshift.testkit.ApiServers;
import io.upshift.testkit.ServiceAccount;
import io.upshift.testkit.SettableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Events aggregate as Kubernetes' recorder does: repeats within the window count on one Event. */
@Tag("e2e")
class EventsTest {

    /**
     * The Events about the ClusterVersion: a real server's namespace default holds its own too
     * (OpenShift's kube-apiserver records one when it is ready).
     */
    static List<Event> events(ApiServer server) {
        return server.client().v1().events().inNamespace("default").list().getItems().stream()
                .filter(
                        e ->
                                e.getInvolvedObject().getKind().equals("ClusterVersion")
                                        && e.getInvolvedObject().getName().equals("version"))
                .toList();
    }

    @Test
    void repeatsWithinTheWindowCountOnOneEventAndLaterOnesStartANewOne() {
        SettableClock clock = new SettableClock(Instant.parse("2026-11-22T10:00:00Z"));
        // recorded as the node agent records them, with only the rights deploy/ gives it (create,
        // patch)
        try (ApiServer server = ApiServers.start().installRbac();
                var agent = server.client("test", ServiceAccount.MACHINE_CONFIG_DAEMON)) {
            Events events =
                    new Events(
                            agent,
                            clock,
                            "config.openshift.io/v1",
                            "ClusterVersion",
                            "version",
                            "test");
            for (int i = 0; i < 30; i++) {
                events.warning("RetrievePayloadFailed", "refused, try " + i);
                clock.advance(Duration.ofSeconds(10));
            }
            events.normal("PayloadLoaded", "loaded");
            List<Event> all = events(server);
            assertThat(all).hasSize(2);
            Event refused =
                    all.stream()
                            .filter(e -> e.getReason().equals("RetrievePayloadFailed"))
                            .findFirst()
                            .orElseThrow();
            assertThat(refused.getCount()).isEqualTo(30);
            assertThat(refused.getMessage()).isEqualTo("refused, try 29");
            assertThat(refused.getFirstTimestamp()).isEqualTo("2026-11-22T10:00:00Z");
            assertThat(refused.getLastTimestamp()).isEqualTo("2026-11-22T10:04:50Z");

            clock.advance(Events.WINDOW);
            events.warning("RetrievePayloadFailed", "refused again");
            assertThat(events(server)).hasSize(3);
            assertThat(server.requests().matching(r -> r.isWrite() && r.path().contains("/events")))
                    .hasSize(32);
        }
    }
}
