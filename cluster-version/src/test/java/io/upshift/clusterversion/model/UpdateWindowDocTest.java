package io.upshift.clusterversion.model;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.openshift.api.model.config.v1.ClusterVersion;
import io.upshift.pools.model.MaintenanceWindow;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * docs/node-pools.md's window for the whole update, as written: the windows its examples set parse,
 * and the holds it quotes are the code's words.
 */
class UpdateWindowDocTest {
    static final Path DOC = Path.of("../docs/node-pools.md");

    static String section() throws Exception {
        String doc = Files.readString(DOC);
        int from = doc.indexOf("\n### A window for the whole update\n");
        return doc.substring(from, doc.indexOf("\n### ", from + 1));
    }

    private static ClusterVersion withWindow(String window) {
        ClusterVersion cv = DesiredUpdatesTest.cv("4.18.2", null);
        cv.getMetadata()
                .setAnnotations(new HashMap<>(Map.of(MaintenanceWindow.ANNOTATION, window)));
        return cv;
    }

    @Test
    void theExamplesParseAndTheQuotedHoldsAreTheCodes() throws Exception {
        String section = section();
        Matcher m =
                Pattern.compile(
                                "kubectl annotate clusterversion version"
                                        + " upshift.io/maintenance-window='([^']*)'")
                        .matcher(section);
        int examples = 0;
        for (; m.find(); examples++) MaintenanceWindow.parse(m.group(1));
        assertThat(examples).isPositive();

        String text = section.replaceAll("\\s+", " ");
        Instant friday = Instant.parse("2026-11-20T10:00:00Z");
        UpdateWindow.Hold closed =
                UpdateWindow.hold(
                        withWindow("Sat 02:00-06:00"),
                        new DesiredUpdates.Target("1.2.0", "img-1.2.0", false, List.of()),
                        null,
                        friday);
        assertThat(text).contains("Cluster version is 1.1.0; " + closed.message());
        UpdateWindow.Hold invalid =
                UpdateWindow.hold(
                        withWindow("Saturday night"),
                        new DesiredUpdates.Target("4.18.2", "img-4.18.2", false, List.of()),
                        null,
                        friday);
        assertThat(text).contains("\"Cluster version is 4.18.1; " + invalid.message() + "\"");
    }
}
