package io.upshift.rehearsal.render;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import io.upshift.api.json.Mappers;
import io.upshift.rehearsal.model.Rehearsal;
import java.io.IOException;
import java.time.Duration;

/**
 * A rehearsal as JSON, for tools: the report's records as they are, every time and duration in
 * seconds (to the millisecond) counted from the moment the update is asked for.
 */
public final class JsonReport {
    private static final ObjectMapper JSON =
            Mappers.JSON
                    .copy()
                    .registerModule(new SimpleModule().addSerializer(new Seconds()))
                    .enable(SerializationFeature.INDENT_OUTPUT);

    private JsonReport() {}

    public static String render(Rehearsal r) {
        try {
            return JSON.writeValueAsString(r) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("the rehearsal cannot be written as JSON", e);
        }
    }

    private static final class Seconds extends StdSerializer<Duration> {
        Seconds() {
            super(Duration.class);
        }

        @Override
        public void serialize(Duration d, JsonGenerator g, SerializerProvider p)
                throws IOException {
            g.writeNumber(d.toMillis() / 1000.0);
        }
    }
}
