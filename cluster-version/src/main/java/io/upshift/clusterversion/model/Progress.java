package io.upshift.clusterversion.model;

import io.fabric8.openshift.api.model.config.v1.ClusterOperatorStatusCondition;
import io.fabric8.openshift.api.model.config.v1.ClusterVersionStatus;
import io.fabric8.openshift.api.model.config.v1.UpdateHistory;
import io.upshift.base.conditions.Conditions;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How far an update is, for the Progressing condition, in upstream's words (pkg/cvo/status.go):
 * "Working towards 4.15.2: 57 of 118 done (48% complete), waiting on kube-apiserver, etcd"; with
 * nothing done yet "Working towards 4.15.2" or "Working towards 4.15.2: waiting on etcd".
 *
 * @param tail what is waited on ("waiting on etcd", "waiting up to 40 minutes on dns", "waiting on
 *     etcd over 30 minutes which is longer than expected"); empty when nothing is
 */
public record Progress(String target, int done, int total, String tail) {
    private static final Pattern COUNTED =
            Pattern.compile(
                    "Working towards (.+?): (\\d+) of (\\d+) done \\(\\d+% complete\\)(.*)");

    private static final Pattern WAITING =
            Pattern.compile(", waiting on ([\\w.-]+(?:, [\\w.-]+)*)");

    /**
     * What status reports of an update in progress: tasks done, and the objects it waits on (when
     * it says so in the plain form "waiting on a, b").
     */
    public record Reported(int done, List<String> waitingOn) {
        public Reported {
            waitingOn = List.copyOf(waitingOn);
        }
    }

    /**
     * What the cluster's status already reports of the update to {@code image} ({@code version},
     * {@code total} tasks): the count of a Progressing message of ours, and what it waits on, while
     * that update is the one in progress (status.desired, history[0] Partial). A controller taking
     * over an update, or loading its payload again, goes on from it instead of counting up from 0
     * (and saying nothing is waited on until its pass gets there); empty when status reports no
     * count of that update.
     */
    public static Optional<Reported> reported(
            ClusterVersionStatus s, String image, String version, int total) {
        if (s == null || s.getDesired() == null || !image.equals(s.getDesired().getImage()))
            return Optional.empty();
        List<UpdateHistory> history = s.getHistory();
        if (history == null
                || history.isEmpty()
                || !image.equals(history.get(0).getImage())
                || !History.PARTIAL.equals(history.get(0).getState())) return Optional.empty();
        ClusterOperatorStatusCondition c =
                Conditions.CLUSTER.find(s.getConditions(), "Progressing");
        if (c == null || !"True".equals(c.getStatus()) || c.getMessage() == null)
            return Optional.empty();
        Matcher m = COUNTED.matcher(c.getMessage());
        if (!m.matches() || !m.group(1).equals(version) || Integer.parseInt(m.group(3)) != total)
            return Optional.empty();
        Matcher waiting = WAITING.matcher(m.group(4));
        return Optional.of(
                new Reported(
                        Integer.parseInt(m.group(2)),
                        waiting.matches() ? List.of(waiting.group(1).split(", ")) : List.of()));
    }

    /**
     * The share done, truncated, computed in single precision as upstream's {@code
     * float32(Done)/float32(Total)} is, so that the same counts give the same percentage.
     */
    public int percent() {
        return total == 0 ? 100 : (int) ((float) done / (float) total * 100f);
    }

    public String message() {
        String head = "Working towards " + target;
        if (done > 0 && total > 0) {
            return head
                    + ": "
                    + done
                    + " of "
                    + total
                    + " done ("
                    + percent()
                    + "% complete)"
                    + (tail.isEmpty() ? "" : ", " + tail);
        }
        return tail.isEmpty() ? head : head + ": " + tail;
    }
}
