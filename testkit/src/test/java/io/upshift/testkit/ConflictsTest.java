package io.upshift.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** A test's edit is done again on a conflict, and only on a conflict. */
@Tag("e2e")
class ConflictsTest {
    final EmbeddedApiServer server = new EmbeddedApiServer();
    final KubernetesClient tester = server.client("tester");

    @AfterEach
    void stop() {
        tester.close();
        server.close();
    }

    @Test
    void anEditAnsweredConflictIsDoneAgainAndTakesEffect() {
        tester.configMaps()
                .inNamespace("a")
                .resource(
                        new ConfigMapBuilder()
                                .withNewMetadata()
                                .withName("settings")
                                .endMetadata()
                                .withData(Map.of("k", "old"))
                                .build())
                .create();
        Faults faults = Faults.conflictOnFirstWrite("tester");
        server.dispatcher().faults(faults);

        ConfigMap edited = Conflicts.retry(() -> edit("settings", "new"));

        assertThat(faults.failed).hasValue(1); // the first write was refused
        assertThat(edited.getData()).containsEntry("k", "new");
        assertThat(tester.configMaps().inNamespace("a").withName("settings").get().getData())
                .containsEntry("k", "new");
    }

    @Test
    void anyOtherErrorIsThrownAtOnce() {
        assertThatThrownBy(() -> Conflicts.retry(() -> edit("missing", "new")))
                .isInstanceOfSatisfying(
                        KubernetesClientException.class,
                        e -> assertThat(e.getCode()).isEqualTo(404));
    }

    private ConfigMap edit(String name, String value) {
        return tester.configMaps()
                .inNamespace("a")
                .withName(name)
                .edit(
                        c -> {
                            c.getData().put("k", value);
                            return c;
                        });
    }
}
