package io.upshift.status.model;

/**
 * The cluster state cannot be assessed; the message says what is missing, in the words {@code oc}
 * uses.
 */
public class AssessmentException extends RuntimeException {
    public AssessmentException(String message) {
        super(message);
    }
}
