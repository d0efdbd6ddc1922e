package io.upshift.runtime.http;

import io.netty.handler.codec.DateFormatter;
import io.netty.util.AsciiString;
import java.util.Date;

/** The {@code Date} header's value (RFC 9110's IMF-fixdate), formatted once a second. */
final class HttpDate {
    private record Formatted(long second, AsciiString value) {}

    private static volatile Formatted last = new Formatted(-1, AsciiString.EMPTY_STRING);

    private HttpDate() {}

    static AsciiString at(long millis) {
        long second = millis / 1000;
        Formatted f = last;
        if (f.second() == second) return f.value();
        f = new Formatted(second, AsciiString.of(DateFormatter.format(new Date(second * 1000))));
        last = f;
        return f.value();
    }
}
