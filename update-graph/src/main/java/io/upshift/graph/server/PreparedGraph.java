package io.upshift.graph.server;

import io.upshift.runtime.http.Body;
import io.upshift.runtime.http.EntityTags;
import io.upshift.runtime.http.Reply;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.zip.Deflater;
import java.util.zip.GZIPOutputStream;

/**
 * One channel and architecture's graph as served, made once when the graph is built: its JSON as is
 * and gzipped, each with a strong ETag taken from the JSON alone (so every replica given the same
 * inputs tags it alike, whenever and wherever it built it), and the four answers: 200 or 304, each
 * plain or gzip.
 */
final class PreparedGraph {
    static final String JSON = "application/json";

    private final int length;
    private final String etag;
    private final String gzipEtag;
    private final Reply plain;
    private final Reply gzip;
    private final Reply plainNotModified;
    private final Reply gzipNotModified;

    /**
     * @param cacheControl the {@code Cache-Control} every answer carries
     */
    PreparedGraph(byte[] json, String cacheControl) {
        this.length = json.length;
        String digest = HexFormat.of().formatHex(sha256(json), 0, 16);
        this.etag = "\"" + digest + "\"";
        // a strong tag names one sequence of bytes: the gzipped one has its own
        this.gzipEtag = "\"" + digest + "-gzip\"";
        this.plain = headers(Reply.of(200, JSON, Body.prepared(json)), etag, cacheControl);
        this.gzip =
                headers(Reply.of(200, JSON, Body.prepared(gzip(json))), gzipEtag, cacheControl)
                        .with("Content-Encoding", "gzip");
        this.plainNotModified = headers(Reply.empty(304), etag, cacheControl);
        this.gzipNotModified = headers(Reply.empty(304), gzipEtag, cacheControl);
    }

    private static Reply headers(Reply r, String etag, String cacheControl) {
        return r.with("ETag", etag)
                .with("Cache-Control", cacheControl)
                .with("Vary", "Accept-Encoding");
    }

    /**
     * The answer to a client that takes gzip or not and holds the tags {@code ifNoneMatch} names:
     * 304 when one of them is this graph's, whichever coding it came in.
     */
    Reply answer(boolean acceptsGzip, String ifNoneMatch) {
        if (ifNoneMatch != null && EntityTags.matches(ifNoneMatch, etag, gzipEtag))
            return acceptsGzip ? gzipNotModified : plainNotModified;
        return acceptsGzip ? gzip : plain;
    }

    String etag() {
        return etag;
    }

    /** Bytes of the JSON, before compression. */
    int length() {
        return length;
    }

    /** Bytes sent to a client that takes gzip. */
    int gzipLength() {
        return gzip.body().length();
    }

    /** At the best compression: made once, sent many times. */
    static byte[] gzip(byte[] json) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(json.length / 4 + 64);
        try (GZIPOutputStream z =
                new GZIPOutputStream(out, 8192) {
                    {
                        def.setLevel(Deflater.BEST_COMPRESSION);
                    }
                }) {
            z.write(json);
        } catch (IOException e) {
            throw new UncheckedIOException(e); // in memory: does not happen
        }
        return out.toByteArray();
    }

    private static byte[] sha256(byte[] bytes) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
