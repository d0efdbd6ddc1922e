package io.upshift.releases.image;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;

/**
 * A file-system failure in words that name the path, where the JDK's message may be only the path
 * ({@code NoSuchFileException}) or only the reason ("No space left on device").
 */
public final class DiskErrors {

    private DiskErrors() {}

    public static String describe(IOException e) {
        if (e instanceof FileSystemException f && f.getFile() != null) {
            String why =
                    f.getReason() != null
                            ? f.getReason()
                            : e instanceof NoSuchFileException
                                    ? "no such file or directory"
                                    : e instanceof FileAlreadyExistsException
                                            ? "already exists"
                                            : e instanceof AccessDeniedException
                                                    ? "permission denied"
                                                    : e instanceof DirectoryNotEmptyException
                                                            ? "directory not empty"
                                                            : e instanceof NotDirectoryException
                                                                    ? "not a directory"
                                                                    : e.getClass().getSimpleName();
            return f.getFile()
                    + (f.getOtherFile() != null ? " -> " + f.getOtherFile() : "")
                    + ": "
                    + why;
        }
        return e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
    }
}
