package io.upshift.runtime.http;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.DateFormatter;
import java.nio.charset.StandardCharsets;
import java.util.Date;

/**
 * The end of every answer's head: its {@code Date} (RFC 9110's IMF-fixdate), the {@code Connection}
 * header when one is due, and the blank line; made once a second.
 */
final class HttpDate {
    /** How the connection goes on after an answer. */
    enum Ending {
        /** HTTP/1.1 keeps it open: nothing to say. */
        KEEP,
        /** HTTP/1.0 keeps it open when told so. */
        KEEP_ALIVE,
        CLOSE
    }

    private record Formatted(long second, ByteBuf keep, ByteBuf keepAlive, ByteBuf close) {}

    private static volatile Formatted last = new Formatted(-1, null, null, null);

    private HttpDate() {}

    /** The bytes that end an answer's head sent at {@code millis}, for one write. */
    @SuppressWarnings("JavaUtilDate") // Netty's DateFormatter takes a Date
    static ByteBuf ending(long millis, Ending ending) {
        long second = millis / 1000;
        Formatted f = last;
        if (f.second() != second) {
            String date = "Date: " + DateFormatter.format(new Date(second * 1000)) + "\r\n";
            f =
                    new Formatted(
                            second,
                            bytes(date + "\r\n"),
                            bytes(date + "Connection: keep-alive\r\n\r\n"),
                            bytes(date + "Connection: close\r\n\r\n"));
            last = f;
        }
        ByteBuf bytes =
                switch (ending) {
                    case KEEP -> f.keep();
                    case KEEP_ALIVE -> f.keepAlive();
                    case CLOSE -> f.close();
                };
        return bytes.duplicate();
    }

    private static ByteBuf bytes(String s) {
        return Unpooled.unreleasableBuffer(
                Unpooled.wrappedBuffer(s.getBytes(StandardCharsets.ISO_8859_1)));
    }
}
