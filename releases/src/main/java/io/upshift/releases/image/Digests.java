package io.upshift.releases.image;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** SHA-256 content digests in the {@code sha256:<hex>} form images use. */
final class Digests {

    private Digests() {}

    static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    static String of(byte[] content) {
        return "sha256:" + HexFormat.of().formatHex(sha256().digest(content));
    }

    static String of(MessageDigest d) {
        return "sha256:" + HexFormat.of().formatHex(d.digest());
    }

    static String of(Path file) throws IOException {
        MessageDigest d = sha256();
        try (InputStream in = Files.newInputStream(file)) {
            byte[] buf = new byte[1 << 16];
            for (int n; (n = in.read(buf)) > 0; ) d.update(buf, 0, n);
        }
        return of(d);
    }

    /** An output stream that digests and counts what passes through it. */
    static final class Counting extends OutputStream {
        final MessageDigest digest = sha256();
        final OutputStream out;
        long count;

        Counting(OutputStream out) {
            this.out = out;
        }

        @Override
        public void write(int b) throws IOException {
            out.write(b);
            digest.update((byte) b);
            count++;
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            out.write(b, off, len);
            digest.update(b, off, len);
            count += len;
        }

        @Override
        public void flush() throws IOException {
            out.flush();
        }

        @Override
        public void close() throws IOException {
            out.close();
        }
    }
}
