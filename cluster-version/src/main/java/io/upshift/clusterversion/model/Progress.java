package io.upshift.clusterversion.model;

/**
 * How far an update is, for the Progressing condition, in upstream's words (pkg/cvo/status.go):
 * "Working towards 4.15.2: 57 of 118 done (48% complete), waiting on kube-apiserver, etcd"; with
 * nothing done yet "Working towards 4.15.2" or "Working towards 4.15.2: waiting on etcd".
 *
 * @param tail what is waited on ("waiting on etcd", "waiting up to 40 minutes on dns", "waiting on
 *     etcd over 30 minutes which is longer than expected"); empty when nothing is
 */
public record Progress(String target, int done, int total, String tail) {

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
