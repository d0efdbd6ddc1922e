package io.upshift.api.json;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.util.stream.Collectors;
import org.yaml.snakeyaml.LoaderOptions;

/**
 * The one JSON and YAML mapper configuration of every module. Unknown properties are kept or
 * ignored, never fatal: resources from newer releases carry fields this code does not know. YAML is
 * read in time linear in its length ({@link WindowedStreamReader}); a document may hold up to
 * {@link #YAML_DOCUMENT_LIMIT} code points (snapshots of big clusters run to tens of megabytes;
 * SnakeYAML's default limit is 3 MB), and callers that read files check their size against a limit
 * of their own first, naming the file.
 */
public final class Mappers {

    /** The most code points one YAML document may hold: 256 Mi. */
    public static final int YAML_DOCUMENT_LIMIT = 256 << 20;

    public static final ObjectMapper JSON =
            JsonMapper.builder().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).build();
    public static final ObjectMapper YAML =
            YAMLMapper.builder(
                            new WindowedYamlFactory(
                                    YAMLFactory.builder().loaderOptions(documentLimit())))
                    .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                    .build();

    private Mappers() {}

    /**
     * A parser's explanation on one line, without its source excerpts and positions: "while parsing
     * a flow sequence: expected ',' or ']', but got <stream end>" (the position is the exception's
     * location).
     */
    public static String problem(JsonProcessingException e) {
        String joined =
                e.getOriginalMessage()
                        .lines()
                        .filter(
                                l ->
                                        !l.isBlank()
                                                && !l.startsWith(" ")
                                                && !l.contains(" in 'reader'")
                                                && !l.contains("[Source:"))
                        .map(String::strip)
                        .collect(Collectors.joining(": "));
        return joined.isEmpty() ? "unreadable" : joined;
    }

    private static LoaderOptions documentLimit() {
        LoaderOptions options = new LoaderOptions();
        options.setCodePointLimit(YAML_DOCUMENT_LIMIT);
        return options;
    }
}
