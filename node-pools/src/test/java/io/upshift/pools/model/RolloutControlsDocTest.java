package io.upshift.pools.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigPool;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigPoolBuilder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * docs/node-pools.md's rollout controls, run as written: every {@code kubectl annotate
 * machineconfigpool} of the section's examples gives values the controller accepts, and the
 * messages the section quotes for bad values are the ones the code gives.
 */
class RolloutControlsDocTest {
    static final Path DOC = Path.of("../docs/node-pools.md");

    static String section() throws Exception {
        String doc = Files.readString(DOC);
        int from = doc.indexOf("\n## Rollout controls\n");
        return doc.substring(from, doc.indexOf("\n## ", from + 1));
    }

    @Test
    void everyAnnotateExampleIsAccepted() throws Exception {
        List<Map<String, String>> examples = new ArrayList<>();
        String[] blocks = section().split("```");
        for (int i = 1; i < blocks.length; i += 2) {
            String block = blocks[i].replace("\\\n", " ");
            for (String line : block.split("\n")) {
                List<String> words = words(line.replaceAll("\\s+#.*$", ""));
                if (words.size() < 4
                        || !words.subList(0, 3)
                                .equals(List.of("kubectl", "annotate", "machineconfigpool")))
                    continue;
                Map<String, String> set = new HashMap<>();
                for (String w : words.subList(4, words.size())) {
                    int eq = w.indexOf('=');
                    if (w.startsWith("-") || eq < 0) continue;
                    set.put(w.substring(0, eq), w.substring(eq + 1));
                }
                examples.add(set);
            }
        }
        assertThat(examples).hasSizeGreaterThanOrEqualTo(5);
        for (Map<String, String> annotations : examples) {
            MachineConfigPool pool = pool(annotations);
            // each reader the decision runs on every pass; none may refuse a documented example
            SoakTime.of(pool);
            HealthGates.of(pool);
            Canaries.of(pool);
            Canaries.rollback(pool);
            DrainRules.of(pool);
        }
        // the Prometheus gates' and the canaries' examples are among them
        assertThat(examples)
                .extracting(
                        a -> {
                            HealthGates g = HealthGates.of(pool(a));
                            return g == null ? 0 : g.promql().size();
                        })
                .contains(3);
        assertThat(examples).extracting(a -> Canaries.of(pool(a))).contains(new Canaries(1));
    }

    @Test
    void theQuotedErrorsAreTheCodes() throws Exception {
        String text = section().replaceAll("\\s+", " ");
        assertThatThrownBy(() -> HealthGates.of(pool(Map.of(HealthGates.ALERTS, "Backup{x=1}"))))
                .satisfies(
                        e ->
                                assertThat(text)
                                        .contains(
                                                "`"
                                                        + e.getMessage().replaceAll("\\s+", " ")
                                                        + "`"));
        assertThatThrownBy(() -> SoakTime.of(pool(Map.of(SoakTime.ANNOTATION, "half-an-hour"))))
                .satisfies(e -> assertThat(text).contains(e.getMessage().replace("`", "")));
    }

    static MachineConfigPool pool(Map<String, String> annotations) {
        return new MachineConfigPoolBuilder()
                .withNewMetadata()
                .withName("worker")
                .addToAnnotations(annotations)
                .endMetadata()
                .build();
    }

    /** A shell line's words: single and double quotes kept together, quotes removed. */
    static List<String> words(String line) {
        List<String> out = new ArrayList<>();
        StringBuilder w = new StringBuilder();
        boolean in = false;
        char quote = 0;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quote != 0) {
                if (c == quote) quote = 0;
                else w.append(c);
            } else if (c == '\'' || c == '"') {
                quote = c;
                in = true;
            } else if (Character.isWhitespace(c)) {
                if (in) out.add(w.toString());
                w.setLength(0);
                in = false;
            } else {
                w.append(c);
                in = true;
            }
        }
        if (in) out.add(w.toString());
        return out;
    }
}
