package io.upshift.api.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.yaml.snakeyaml.LoaderOptions;

/**
 * {@link Mappers#YAML} reads as Jackson's own YAML mapper reads, values, positions and errors,
 * through its windowed reader.
 */
class WindowedYamlTest {

    private static final ObjectMapper PLAIN = plain();

    private static ObjectMapper plain() {
        LoaderOptions options = new LoaderOptions();
        options.setCodePointLimit(Integer.MAX_VALUE);
        return new YAMLMapper(YAMLFactory.builder().loaderOptions(options).build());
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "a: 1\nb: [x, y]\n---\nc: {d: 'e'}\n",
                "kind: A\r\nmetadata:\r\n  name: \"x\\ty\"\r\n",
                "text: |\n  line one\n  line two\nfolded: >\n  a\n  b\n",
                "unicode: \"\u00e9t\u00e9 \u4e2d\u6587 \ud83d\ude00\"\n"
                        + "plain: \ud83d\ude00\ud83d\ude01\n",
                "anchors: &a {x: 1}\nref: *a\n",
                "# only a comment\n",
                "\ufeffbom: true\n"
            })
    void readsWhatJacksonsOwnMapperReads(String yaml) throws IOException {
        assertThat(all(Mappers.YAML, yaml)).isEqualTo(all(PLAIN, yaml));
    }

    @Test
    void aLongScalarAcrossManyWindowsReadsWhole() throws IOException {
        String value = "ab\u00e9\ud83d\ude00".repeat(100_000);
        JsonNode node = Mappers.YAML.readTree("k: " + value + "\nnext: \"" + value + "\"\n");
        assertThat(node.path("k").asText()).isEqualTo(value);
        assertThat(node.path("next").asText()).isEqualTo(value);
    }

    @ParameterizedTest
    @ValueSource(strings = {"a: [1, 2\nb: 3\n", "a: 1\n b: 2\n", "a: \"x\u0001y\"\n", "a: b: c\n"})
    void errorsNameTheSamePlace(String yaml) {
        String expected = failure(PLAIN, yaml);
        assertThat(failure(Mappers.YAML, yaml)).isEqualTo(expected).isNotEmpty();
    }

    @Test
    void thePositionsOfDocumentsAreTheSame() throws IOException {
        String yaml = "a: 1\n---\nb:\n  c: \u00e9\n---\n\nd: 2\n";
        for (ObjectMapper m : List.of(Mappers.YAML, PLAIN)) {
            try (var p = m.getFactory().createParser(yaml)) {
                StringBuilder at = new StringBuilder();
                while (p.nextToken() != null)
                    at.append(p.currentTokenLocation().getLineNr())
                            .append(':')
                            .append(p.currentTokenLocation().getColumnNr())
                            .append('@')
                            .append(p.currentTokenLocation().getCharOffset())
                            .append(' ');
                if (m == PLAIN) assertThat(at.toString()).isEqualTo(positions);
                else positions = at.toString();
            }
        }
    }

    private String positions;

    @Test
    void everyFileOfTheOpenShiftPayloadReadsTheSame() throws IOException {
        Path payload = Path.of("../../shared/fixtures/openshift-payload-4.19");
        Assumptions.assumeTrue(
                Files.isDirectory(payload), "no shared fixtures next to the repository");
        try (Stream<Path> files = Files.walk(payload)) {
            for (Path f : files.filter(f -> f.toString().endsWith(".yaml")).toList()) {
                String yaml = Files.readString(f);
                assertThat(all(Mappers.YAML, yaml)).as(f.toString()).isEqualTo(all(PLAIN, yaml));
            }
        }
    }

    @Test
    void aDocumentOverItsCodePointLimitIsRefusedAndTheCountStartsAgainAtEachDocument()
            throws IOException {
        LoaderOptions options = new LoaderOptions();
        options.setCodePointLimit(1000);
        ObjectMapper limited =
                new YAMLMapper(
                        new WindowedYamlFactory(YAMLFactory.builder().loaderOptions(options)));
        String half = "a: " + "x".repeat(600) + "\n";
        assertThat(all(limited, half + "---\n" + half)).hasSize(2);
        assertThatThrownBy(() -> all(limited, "a: " + "x".repeat(1200) + "\nb: 1\n"))
                .hasMessageContaining("exceeds the limit: 1000");
    }

    private static List<JsonNode> all(ObjectMapper mapper, String yaml) throws IOException {
        try (MappingIterator<JsonNode> it = mapper.readerFor(JsonNode.class).readValues(yaml)) {
            return it.readAll();
        }
    }

    private static String failure(ObjectMapper mapper, String yaml) {
        try {
            all(mapper, yaml);
            return "";
        } catch (IOException e) {
            return e.getMessage().replaceAll("\\[Source: [^\\]]*\\]", "");
        }
    }
}
