package io.upshift.clusterversion.model;

import java.util.List;
import java.util.Optional;

/**
 * What the preconditions that did not pass add up to, as upstream's {@code precondition.Summarize}
 * (pkg/payload/precondition/precondition.go) says it: each one {@code Precondition "NAME" failed
 * because of "REASON": MESSAGE}, warnings included; one alone as itself, several as {@code Multiple
 * precondition checks failed:} and a {@code * } line each. Any blocking one blocks the update,
 * unless it is forced: then the summary begins {@code Forced through blocking failures: } and is a
 * warning, as a summary of warnings alone is. A warning is recorded in the history entry's
 * acceptedRisks.
 *
 * @param blocks the update stops (ReleaseAccepted=False, reason PreconditionChecks)
 */
public record PreconditionSummary(boolean blocks, String message) {

    /** The summary of {@code failed}; empty when every precondition passed. */
    public static Optional<PreconditionSummary> of(List<Precondition> failed, boolean force) {
        if (failed.isEmpty()) return Optional.empty();
        List<String> lines =
                failed.stream()
                        .map(
                                p ->
                                        "Precondition \""
                                                + p.name()
                                                + "\" failed because of \""
                                                + p.reason()
                                                + "\": "
                                                + p.message())
                        .toList();
        String message =
                lines.size() == 1
                        ? lines.get(0)
                        : "Multiple precondition checks failed:\n* " + String.join("\n* ", lines);
        boolean blocking = failed.stream().anyMatch(Precondition::blocking);
        if (blocking && force)
            return Optional.of(
                    new PreconditionSummary(false, "Forced through blocking failures: " + message));
        return Optional.of(new PreconditionSummary(blocking, message));
    }
}
