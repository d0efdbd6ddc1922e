package io.upshift.runtime.http;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ContentCodingsTest {
    @ParameterizedTest(name = "[{0}] -> {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "gzip|true",
                "gzip, deflate, br|true",
                "br;q=1.0, gzip;q=0.8, *;q=0.1|true",
                "GZIP|true",
                "x-gzip|true",
                "*|true",
                "gzip;q=0|false",
                "gzip; q=0.000|false",
                "*, gzip;q=0|false",
                "*;q=0|false",
                "identity|false",
                "deflate, br|false",
                "gzip;q=oops|false",
                "''|false",
            })
    void gzipWhenNamedOrAnyWithAWeight(String header, boolean gzip) {
        assertThat(ContentCodings.acceptsGzip(header)).isEqualTo(gzip);
    }
}
