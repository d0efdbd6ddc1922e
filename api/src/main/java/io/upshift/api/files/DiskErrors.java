package io.upshift.api.files;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;

/**
 * A file-system failure in words that name the path, where the JDK's message may be only the path
 * ({@code NoSuchFileException}) or only the reason ("No space left on device").
 */
public final class DiskErrors {

    private DiskErrors() {}

    /**
     * {@code e} as an exception that names {@code path} when it names no file of its own (a write
     * that failed for a full disk says only "No space left on device").
     */
    public static IOException naming(Path path, IOException e) {
        if (e instanceof FileSystemException f && f.getFile() != null) return e;
        FileSystemException named = new FileSystemException(path.toString(), null, describe(e));
        named.initCause(e);
        return named;
    }

    /** "PATH: REASON" where the exception names a path, else its message. */
    public static String describe(IOException e) {
        if (e instanceof FileSystemException f && f.getFile() != null)
            return f.getFile()
                    + (f.getOtherFile() != null ? " -> " + f.getOtherFile() : "")
                    + ": "
                    + reason(e);
        return reason(e);
    }

    /**
     * What went wrong, without the path: "no such file or directory", "No space left on device".
     */
    public static String reason(IOException e) {
        if (e instanceof FileSystemException f && f.getFile() != null) {
            if (f.getReason() != null) return f.getReason();
            if (e instanceof NoSuchFileException) return "no such file or directory";
            if (e instanceof FileAlreadyExistsException) return "already exists";
            if (e instanceof AccessDeniedException) return "permission denied";
            if (e instanceof DirectoryNotEmptyException) return "directory not empty";
            if (e instanceof NotDirectoryException) return "not a directory";
            return e.getClass().getSimpleName();
        }
        return e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
    }
}
