package io.upshift.graph.updates;

/**
 * Updates could not be retrieved; {@code reason} is the RetrievedUpdates condition reason
 * (NoChannel, VersionNotFound, ResponseInvalid, RemoteFailed ...).
 */
public final class UpdatesException extends Exception {

    private final String reason;

    public UpdatesException(String reason, String message) {
        super(message);
        this.reason = reason;
    }

    public UpdatesException(String reason, String message, Throwable cause) {
        super(message, cause);
        this.reason = reason;
    }

    public String reason() {
        return reason;
    }
}
