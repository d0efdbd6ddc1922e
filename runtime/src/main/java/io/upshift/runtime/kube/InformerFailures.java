package io.upshift.runtime.kube;

import io.fabric8.kubernetes.client.informers.ExceptionHandler;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What one informer does after a failed list or watch: it tries again (with the client's backoff,
 * at most 32 s apart), as client-go's reflector does; only a closed client ends it. Each failure is
 * one log line naming the resource and what happens next, the stack trace at debug level; the same
 * failure again within {@link #QUIET} is logged at debug level only, so that an informer refused
 * for an hour says so once, not at every retry. The last failure is kept for the message of a start
 * that did not complete.
 */
public final class InformerFailures implements ExceptionHandler {
    private static final Logger LOG = LoggerFactory.getLogger(Informers.class);
    static final Duration QUIET = Duration.ofMinutes(10);

    private final String resource;
    private volatile String last;
    private int lastCode = -1;
    private long lastLogged;

    /**
     * @param resource the informer's resource as {@link ApiErrors#resource} names it
     */
    public InformerFailures(String resource) {
        this.resource = resource;
    }

    String resource() {
        return resource;
    }

    /** The last failure, in one line; null when there was none. */
    String last() {
        return last;
    }

    @Override
    public boolean retryAfterException(boolean started, Throwable t) {
        if (Informers.closedClient(t)) return false;
        String what = ApiErrors.describe(t);
        last = what;
        int code = ApiErrors.code(t);
        boolean fresh;
        synchronized (this) {
            long now = System.nanoTime();
            fresh = code != lastCode || now - lastLogged > QUIET.toNanos();
            lastCode = code;
            if (fresh) lastLogged = now;
        }
        String line =
                started
                        ? "{}: watch failed: {}; listing again with backoff (until then the cache"
                                + " may be stale)"
                        : "{}: cannot list: {}; trying again with backoff";
        if (fresh) LOG.warn(line, resource, what);
        else LOG.debug(line, resource, what);
        LOG.debug("{}: informer failure", resource, t);
        return true;
    }

    /** A wait as a log line says it: {@code 800 ms}, {@code 30 s}. */
    public static String human(Duration d) {
        return d.toMillis() < 1000 ? d.toMillis() + " ms" : d.toSeconds() + " s";
    }
}
