package io.upshift.clusterversion.model;

import io.fabric8.openshift.api.model.config.v1.UpdateHistory;
import java.util.ArrayList;
import java.util.List;

/**
 * Which history entry goes when history is over its limit: the least informative, as upstream ranks
 * them
 * (https://github.com/openshift/cluster-version-operator/blob/release-4.19/pkg/cvo/status_history.go).
 * Never the newest five, the initial install (the oldest entry) or the most recent Completed one;
 * the first and last Completed entry of each minor are worth keeping, a Partial entry between
 * Completed ones of different minors less so, a Partial entry between Completed ones of different
 * patch releases least; among equals the older goes first.
 */
public final class HistoryPruning {

    /** Entries 0 to this index (the newest) are always kept. */
    private static final int NEWEST_KEPT = 4;

    private static final double KEEP = 1000.0;
    private static final double FIRST_OR_LAST_IN_MINOR = 30.0;
    private static final double PARTIAL_IN_MINOR_TRANSITION = 20.0;
    private static final double PARTIAL_IN_PATCH_TRANSITION = -20.0;

    /** Per position: older entries rank lower, and no two entries tie. */
    private static final double AGE = -1.01;

    private HistoryPruning() {}

    /**
     * {@code history} (newest first) with entries removed, least informative first, until at most
     * {@code max} remain.
     */
    public static List<UpdateHistory> prune(List<UpdateHistory> history, int max) {
        List<UpdateHistory> h = new ArrayList<>(history);
        while (h.size() > max) h.remove(leastInformative(h));
        return h;
    }

    /** The index of the entry to remove. */
    static int leastInformative(List<UpdateHistory> h) {
        int mostRecentCompleted = olderCompleted(h, -1);
        int lowest = 0;
        double lowestRank = Double.MAX_VALUE;
        for (int i = 0; i < h.size(); i++) {
            double rank = 0;
            if (i <= NEWEST_KEPT || i == h.size() - 1 || i == mostRecentCompleted) rank = KEEP;
            else if (firstOrLastCompletedInMinor(h, i)) rank = FIRST_OR_LAST_IN_MINOR;
            else if (partialBetween(h, i, false)) rank = PARTIAL_IN_MINOR_TRANSITION;
            else if (partialBetween(h, i, true)) rank = PARTIAL_IN_PATCH_TRANSITION;
            rank += AGE * i;
            if (rank < lowestRank) {
                lowestRank = rank;
                lowest = i;
            }
        }
        return lowest;
    }

    private static boolean firstOrLastCompletedInMinor(List<UpdateHistory> h, int i) {
        if (History.PARTIAL.equals(h.get(i).getState())) return false;
        if (i == 0 || i == h.size() - 1) return true;
        int older = olderCompleted(h, i), newer = newerCompleted(h, i);
        return older < 0
                || !minor(h.get(i)).equals(minor(h.get(older)))
                || newer < 0
                || !minor(h.get(i)).equals(minor(h.get(newer)));
    }

    /**
     * A Partial entry between two Completed ones of different minors ({@code patch} false), or of
     * different minor and patch ({@code patch} true).
     */
    private static boolean partialBetween(List<UpdateHistory> h, int i, boolean patch) {
        if (History.COMPLETED.equals(h.get(i).getState()) || i == 0 || i == h.size() - 1)
            return false;
        int older = olderCompleted(h, i), newer = newerCompleted(h, i);
        if (older < 0 || newer < 0) return false;
        UpdateHistory a = h.get(older), b = h.get(newer);
        boolean same = minor(a).equals(minor(b)) && (!patch || patch(a).equals(patch(b)));
        return !same;
    }

    /** The index of the first Completed entry older than {@code i}; -1 when none. */
    private static int olderCompleted(List<UpdateHistory> h, int i) {
        for (int j = i + 1; j < h.size(); j++)
            if (History.COMPLETED.equals(h.get(j).getState())) return j;
        return -1;
    }

    /** The index of the first Completed entry newer than {@code i}; -1 when none. */
    private static int newerCompleted(List<UpdateHistory> h, int i) {
        for (int j = i - 1; j >= 0; j--)
            if (History.COMPLETED.equals(h.get(j).getState())) return j;
        return -1;
    }

    /**
     * The second dot-separated field of the version, as upstream compares it (no SemVer parsing);
     * empty when none.
     */
    private static String minor(UpdateHistory e) {
        return field(e.getVersion(), 1);
    }

    private static String patch(UpdateHistory e) {
        return field(e.getVersion(), 2);
    }

    private static String field(String version, int index) {
        String[] parts = (version == null ? "" : version).split("\\.", -1);
        return parts.length > index ? parts[index] : "";
    }
}
