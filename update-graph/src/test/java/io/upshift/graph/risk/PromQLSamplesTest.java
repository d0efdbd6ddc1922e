package io.upshift.graph.risk;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** An answer of any number of series read as samples, for the node pools' health gates. */
class PromQLSamplesTest {
    @Test
    void everySeriesOfAVectorWithItsLabelsAndAScalarAsOneSample() throws Exception {
        String vector =
                "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":["
                    + "{\"metric\":{\"alertname\":\"Backup\",\"node\":\"w0\"},\"value\":[1,\"1\"]},"
                    + "{\"metric\":{},\"value\":[1,\"0\"]}]}}";
        var samples = PromQLResult.samples(200, vector.getBytes(UTF_8));
        assertThat(samples)
                .containsExactly(
                        new PromQLSample(Map.of("alertname", "Backup", "node", "w0"), "1"),
                        new PromQLSample(Map.of(), "0"));
        assertThat(samples.get(0).isNonZero()).isTrue();
        assertThat(samples.get(1).isNonZero()).isFalse();
        assertThat(new PromQLSample(Map.of(), "NaN").isNonZero()).isFalse();
        assertThat(new PromQLSample(Map.of(), "-0.5").isNonZero()).isTrue();

        String empty =
                "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":[]}}";
        assertThat(PromQLResult.samples(200, empty.getBytes(UTF_8))).isEmpty();
        String scalar =
                "{\"status\":\"success\",\"data\":{\"resultType\":\"scalar\",\"result\":[1,\"2\"]}}";
        assertThat(PromQLResult.samples(200, scalar.getBytes(UTF_8)))
                .containsExactly(new PromQLSample(Map.of(), "2"));
    }

    @Test
    void errorsInTheRisksWordsAndAMatrixRefused() {
        String bad = "{\"status\":\"error\",\"errorType\":\"bad_data\",\"error\":\"parse error\"}";
        assertThatThrownBy(() -> PromQLResult.samples(400, bad.getBytes(UTF_8)))
                .hasMessage("executing PromQL query: bad_data: parse error");
        assertThatThrownBy(() -> PromQLResult.samples(401, "no".getBytes(UTF_8)))
                .hasMessage("executing PromQL query: client_error: client error: 401");
        String matrix =
                "{\"status\":\"success\",\"data\":{\"resultType\":\"matrix\",\"result\":[]}}";
        assertThatThrownBy(() -> PromQLResult.samples(200, matrix.getBytes(UTF_8)))
                .hasMessage("invalid PromQL result type is matrix, not vector or scalar");
    }
}
