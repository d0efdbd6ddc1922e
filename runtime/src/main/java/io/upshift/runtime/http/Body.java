package io.upshift.runtime.http;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The bytes of a reply, never changed once made, written as often as asked: {@link #prepared} ones
 * are kept off the heap, so that writing one costs no copy (what a graph served thousands of times
 * a second wants); the memory goes with the last reference (the JDK frees it, not Netty's reference
 * counts, so a reply taken just before its graph is replaced is still whole).
 */
public final class Body {
    public static final Body EMPTY = new Body(Unpooled.EMPTY_BUFFER);

    private final ByteBuf bytes;

    private Body(ByteBuf bytes) {
        this.bytes = Unpooled.unreleasableBuffer(bytes);
    }

    /** Bytes for one reply or a few. */
    public static Body of(byte[] bytes) {
        return new Body(Unpooled.wrappedBuffer(bytes));
    }

    public static Body of(String text) {
        return of(text.getBytes(StandardCharsets.UTF_8));
    }

    /** Bytes written many times. */
    public static Body prepared(byte[] bytes) {
        ByteBuffer direct = ByteBuffer.allocateDirect(bytes.length);
        direct.put(bytes).flip();
        return new Body(Unpooled.wrappedBuffer(direct));
    }

    public int length() {
        return bytes.readableBytes();
    }

    /** A copy of the bytes (for tests and logs). */
    public byte[] toArray() {
        byte[] out = new byte[length()];
        bytes.getBytes(bytes.readerIndex(), out);
        return out;
    }

    /** A view of its own for one write: writes never move another's position. */
    ByteBuf buffer() {
        return bytes.duplicate();
    }
}
