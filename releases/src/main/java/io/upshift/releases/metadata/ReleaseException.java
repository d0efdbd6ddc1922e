package io.upshift.releases.metadata;

/**
 * A release that cannot be trusted, loaded, pulled or extracted; the message names the file, image
 * or key at fault.
 */
public final class ReleaseException extends Exception {

    private final Reason reason;

    public ReleaseException(Reason reason, String message) {
        super(message);
        this.reason = reason;
    }

    public ReleaseException(Reason reason, String message, Throwable cause) {
        super(message, cause);
        this.reason = reason;
    }

    public Reason reason() {
        return reason;
    }

    /** "SignatureUnknownKey: no keyring ..." — one line for logs and the command line. */
    @Override
    @SuppressWarnings("OverrideThrowableToString") // getMessage() stays the bare message
    public String toString() {
        return reason.code() + ": " + getMessage();
    }
}
