package io.upshift.rehearsal.model;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.upshift.status.estimate.RunLevelTimes;
import java.util.List;

/**
 * The release a rehearsal updates to, as far as it could be read.
 *
 * @param version its version ("" when only an image was given and its payload could not be read)
 * @param image its pullspec
 * @param found how the cluster knows it: among its available updates, a conditional update, or
 *     given by image alone
 * @param levels its run-levels in the order an update applies them, with their ClusterOperators
 * @param levelsFrom where {@code levels} come from: its payload, or the last update's run-levels
 *     when the payload could not be read
 * @param verification whether its signature verifies with the trust of the release the cluster runs
 */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record Target(
        String version,
        String image,
        String found,
        List<RunLevelTimes.Level> levels,
        String levelsFrom,
        Verification verification) {
    public Target {
        levels = List.copyOf(levels);
    }

    /** The run-level whose ClusterOperators include {@code operator}; "" when none does. */
    public String runLevelOf(String operator) {
        return levels.stream()
                .filter(l -> l.operators().contains(operator))
                .map(RunLevelTimes.Level::runLevel)
                .findFirst()
                .orElse("");
    }

    /** What became of the signature check. */
    public record Verification(Outcome outcome, String detail) {
        public enum Outcome {
            VERIFIED,
            FAILED,
            NOT_CHECKED
        }

        public static Verification verified(String detail) {
            return new Verification(Outcome.VERIFIED, detail);
        }

        /**
         * @param failure the verifier's error, as the controller puts it after "failure=The update
         *     cannot be verified: "
         */
        public static Verification failed(String failure) {
            return new Verification(Outcome.FAILED, failure);
        }

        public static Verification notChecked(String why) {
            return new Verification(Outcome.NOT_CHECKED, why);
        }
    }
}
