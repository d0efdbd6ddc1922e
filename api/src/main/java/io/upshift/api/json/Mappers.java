package io.upshift.api.json;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import org.yaml.snakeyaml.LoaderOptions;

/**
 * The one JSON and YAML mapper configuration of every module. Unknown properties are kept or
 * ignored, never fatal: resources from newer releases carry fields this code does not know. YAML
 * documents may be large (snapshots of big clusters run to tens of megabytes; SnakeYAML's default
 * limit is 3 MB).
 */
public final class Mappers {
    public static final ObjectMapper JSON =
            JsonMapper.builder().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).build();
    public static final ObjectMapper YAML =
            YAMLMapper.builder(YAMLFactory.builder().loaderOptions(largeDocuments()).build())
                    .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                    .build();

    private Mappers() {}

    private static LoaderOptions largeDocuments() {
        LoaderOptions options = new LoaderOptions();
        options.setCodePointLimit(Integer.MAX_VALUE);
        return options;
    }
}
