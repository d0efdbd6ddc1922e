package io.upshift.clusterversion.upgrade;

import io.fabric8.openshift.api.model.config.v1.ClusterVersion;
import java.util.List;
import java.util.function.Function;

/**
 * What an update command decided on the ClusterVersion it read, as oc decides it: refuse (oc's
 * error text), leave the cluster as it is (an info line for stdout), or write a JSON merge patch.
 * The warnings go to stderr first, each ending in its own newline(s).
 */
public sealed interface Decision {
    List<String> warnings();

    /** Nothing is written; {@code message} is oc's error text, without its "error: " prefix. */
    record Refused(List<String> warnings, String message) implements Decision {
        public Refused {
            warnings = List.copyOf(warnings);
        }
    }

    /** Nothing needs writing; {@code message} is stdout text. */
    record Unchanged(List<String> warnings, String message) implements Decision {
        public Unchanged {
            warnings = List.copyOf(warnings);
        }
    }

    /**
     * Merge-patch the ClusterVersion with {@code body} (JSON); if the API refuses, the error is
     * {@code failure + ": " + the API's reason}; once written, {@code done} says what happened on
     * stdout, from the object the API returned.
     */
    record Patch(
            List<String> warnings,
            String body,
            String failure,
            Function<ClusterVersion, String> done)
            implements Decision {
        public Patch {
            warnings = List.copyOf(warnings);
        }
    }
}
