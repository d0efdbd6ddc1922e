package io.upshift.cli;

/**
 * A check that ran and found something wrong (exit code 1), as opposed to bad input or an error
 * (exit code 2).
 */
final class CheckFailedException extends RuntimeException {
    CheckFailedException(String message) {
        super(message);
    }
}
