package io.upshift.clusterversion.model;

import io.fabric8.openshift.api.model.config.v1.UpdateHistory;
import io.fabric8.openshift.api.model.config.v1.UpdateHistoryBuilder;
import io.upshift.base.conditions.ApiTime;
import io.upshift.releases.taskgraph.Mode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * ClusterVersion {@code status.history}, newest first: one Partial entry per target when its update
 * starts, Completed when the whole payload is applied. Starting a target that history[0] already
 * names is a resume, not a new entry. At most {@link #MAX} (upstream's MaxHistory) entries are
 * kept.
 */
public final class History {

    public static final int MAX = 100;
    public static final String PARTIAL = "Partial";
    public static final String COMPLETED = "Completed";

    private History() {}

    /**
     * History with a Partial entry for {@code image} on top; unchanged when history[0] already is
     * that image.
     */
    public static List<UpdateHistory> begin(
            List<UpdateHistory> history,
            String version,
            String image,
            boolean verified,
            String acceptedRisks,
            Instant now) {
        List<UpdateHistory> h = new ArrayList<>(history);
        if (!h.isEmpty() && image.equals(h.get(0).getImage())) return h;
        if (!h.isEmpty()
                && PARTIAL.equals(h.get(0).getState())
                && h.get(0).getCompletionTime() == null) {
            setCompletion(h.get(0), now); // superseded: it stays Partial
        }
        UpdateHistory entry = new UpdateHistory();
        entry.setState(PARTIAL);
        entry.setStartedTime(ApiTime.of(now));
        entry.setVersion(version);
        entry.setImage(image);
        entry.setVerified(verified);
        if (acceptedRisks != null && !acceptedRisks.isEmpty())
            entry.setAcceptedRisks(acceptedRisks);
        h.add(0, entry);
        return prune(h);
    }

    /** Marks history[0] Completed when it is {@code image} and not yet Completed. */
    public static List<UpdateHistory> complete(
            List<UpdateHistory> history, String image, Instant now) {
        List<UpdateHistory> h = new ArrayList<>(history);
        if (!h.isEmpty()
                && image.equals(h.get(0).getImage())
                && !COMPLETED.equals(h.get(0).getState())) {
            UpdateHistory done = new UpdateHistoryBuilder(h.get(0)).build(); // the input stays
            done.setState(COMPLETED);
            setCompletion(done, now);
            h.set(0, done);
        }
        return h;
    }

    /** Whether {@code after} marks history[0] Completed where {@code before} did not. */
    public static boolean completes(List<UpdateHistory> before, List<UpdateHistory> after) {
        return after != null
                && !after.isEmpty()
                && COMPLETED.equals(after.get(0).getState())
                && (before == null
                        || before.isEmpty()
                        || !COMPLETED.equals(before.get(0).getState())
                        || !after.get(0).getImage().equals(before.get(0).getImage()));
    }

    private static void setCompletion(UpdateHistory entry, Instant now) {
        entry.setCompletionTime(ApiTime.of(now));
    }

    /** At most {@link #MAX} entries, as upstream prunes them ({@link HistoryPruning}). */
    public static List<UpdateHistory> prune(List<UpdateHistory> history) {
        return HistoryPruning.prune(history, MAX);
    }

    public static Optional<UpdateHistory> lastCompleted(List<UpdateHistory> history) {
        return history.stream().filter(e -> COMPLETED.equals(e.getState())).findFirst();
    }

    /**
     * How to apply {@code desiredImage}: Initializing until something was Completed, Reconciling
     * when the newest entry is the desired image and Completed, Updating otherwise.
     */
    public static Mode mode(List<UpdateHistory> history, String desiredImage) {
        if (lastCompleted(history).isEmpty()) return Mode.INITIALIZING;
        UpdateHistory top = history.get(0);
        if (COMPLETED.equals(top.getState()) && desiredImage.equals(top.getImage()))
            return Mode.RECONCILING;
        return Mode.UPDATING;
    }
}
