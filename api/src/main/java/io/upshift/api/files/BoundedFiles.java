package io.upshift.api.files;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * Reading a file that a user, an image or a cluster dump supplied within a size limit: its size is
 * checked before a byte is read, so a file too large is refused at once, named with its size and
 * the limit.
 */
public final class BoundedFiles {

    /** A file refused before it was read; the message names the file, what it is, and the limit. */
    public static final class Refused extends IOException {
        private final boolean tooLarge;

        Refused(String message, boolean tooLarge) {
            super(message);
            this.tooLarge = tooLarge;
        }

        /** True when the file was refused for its size, false when for being a link or special. */
        public boolean tooLarge() {
            return tooLarge;
        }
    }

    private BoundedFiles() {}

    /**
     * The bytes of {@code file}, named {@code name} in errors, a regular file (or a link to one) of
     * at most {@code limit} bytes; {@code what} says what the file is ("a snapshot file").
     */
    public static byte[] read(Path file, String name, long limit, String what) throws IOException {
        return read(file, name, limit, what, new LinkOption[0]);
    }

    /** As {@link #read}, refusing a link: for files that came out of an image. */
    public static byte[] readNoLink(Path file, String name, long limit, String what)
            throws IOException {
        return read(file, name, limit, what, LinkOption.NOFOLLOW_LINKS);
    }

    private static byte[] read(Path file, String name, long limit, String what, LinkOption... links)
            throws IOException {
        BasicFileAttributes attributes =
                Files.readAttributes(file, BasicFileAttributes.class, links);
        if (attributes.isSymbolicLink())
            throw new Refused(
                    name + " is a symbolic link; " + what + " must be a regular file", false);
        if (!attributes.isRegularFile())
            throw new Refused(name + " is not a regular file; " + what + " must be one", false);
        if (attributes.size() > limit) throw tooLarge(name, attributes.size(), limit, what);
        try (InputStream in = Files.newInputStream(file, links)) {
            byte[] bytes = in.readNBytes((int) Math.min(limit + 1, Integer.MAX_VALUE - 8));
            if (bytes.length > limit) throw tooLarge(name, bytes.length, limit, what); // it grew
            return bytes;
        }
    }

    private static Refused tooLarge(String name, long size, long limit, String what) {
        return new Refused(
                name
                        + " is "
                        + size
                        + " bytes, over the limit of "
                        + limit
                        + " bytes ("
                        + (limit >> 20)
                        + " MiB) for "
                        + what,
                true);
    }
}
