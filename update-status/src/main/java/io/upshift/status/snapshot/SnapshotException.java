package io.upshift.status.snapshot;

/**
 * A snapshot file cannot be used; the message names the file and, where known, the resource and
 * field.
 */
public class SnapshotException extends RuntimeException {
    public SnapshotException(String message) {
        super(message);
    }

    public SnapshotException(String message, Throwable cause) {
        super(message, cause);
    }
}
