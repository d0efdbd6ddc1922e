package io.upshift.runtime.cli;

/**
 * A check that ran and found something wrong (exit code 1), as opposed to bad input or an error
 * (exit code 2).
 */
public final class CheckFailedException extends RuntimeException {
    public CheckFailedException(String message) {
        super(message);
    }
}
