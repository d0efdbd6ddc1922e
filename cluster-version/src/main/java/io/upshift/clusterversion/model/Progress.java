package io.upshift.clusterversion.model;

import java.util.List;

/**
 * How far an update is, for the Progressing condition: "Working towards 4.15.2: 57 of 118 done (48%
 * complete), waiting on kube-apiserver, etcd" or, after a restart, "Resuming update to 4.15.2:
 * ...".
 */
public record Progress(
        String target, int done, int total, List<String> waitingOn, boolean resuming) {

    public Progress {
        waitingOn = List.copyOf(waitingOn);
    }

    public int percent() {
        return total == 0 ? 100 : (int) ((long) done * 100 / total);
    }

    public String message() {
        String head = resuming ? "Resuming update to " + target : "Working towards " + target;
        return head
                + ": "
                + done
                + " of "
                + total
                + " done ("
                + percent()
                + "% complete)"
                + (waitingOn.isEmpty() ? "" : ", waiting on " + String.join(", ", waitingOn));
    }
}
