package io.upshift.releases.command;

import io.upshift.releases.image.ImageStore;
import java.io.PrintWriter;

/** Reports a transfer on stderr every tenth of the way, for transfers over a megabyte. */
public final class ProgressLine implements ImageStore.Progress {

    private final PrintWriter err;
    private final String verb;
    private int lastTenth = -1;

    public ProgressLine(PrintWriter err, String verb) {
        this.err = err;
        this.verb = verb;
    }

    @Override
    public void bytes(long done, long total) {
        if (total < (1 << 20)) return;
        int tenth = (int) Math.min(10, done * 10 / total);
        if (tenth == lastTenth) return;
        lastTenth = tenth;
        err.printf("%s %.1f of %.1f MB (%d%%)%n", verb, done / 1e6, total / 1e6, tenth * 10);
        err.flush();
    }
}
