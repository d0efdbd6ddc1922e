package io.upshift.testkit;

import io.fabric8.mockwebserver.http.RecordedRequest;
import java.time.Duration;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A faulty network between one client (by its User-Agent) and the embedded API server, for the
 * requests other than watches: a share of them answered 500, 409, or answered only after the client
 * gave up (the request took effect, the answer was lost); writes to some paths refused as invalid
 * (422); or the first attempt of every write answered 409. Watches fail apart ({@link #watches}):
 * refused, dead (accepted, then silent), or expired at once (410 Gone).
 */
public final class Faults {

    /** What happens to one request. */
    public enum Fault {
        NONE,
        SERVER_ERROR,
        CONFLICT,
        LOST_ANSWER,
        INVALID,
        DEAD_WATCH,
        EXPIRED_WATCH
    }

    /** What becomes of the client's watches. */
    public enum Watches {
        /** They work. */
        WORK,
        /** Each is refused (500): the client cannot open one. */
        REFUSED,
        /**
         * Each is accepted and then never sends an event, as a connection a proxy dropped without a
         * word.
         */
        DEAD,
        /**
         * Each is accepted and at once ended with 410 Gone (its resourceVersion expired), as an API
         * server ends old watches.
         */
        EXPIRED
    }

    /** How late a lost answer comes: later than any client here waits. */
    public static final Duration LOST = Duration.ofSeconds(3);

    private final String userAgent;
    private final Random random;
    private final double share;
    private final boolean conflictOnFirstWrite;
    private final Set<String> written = ConcurrentHashMap.newKeySet();
    private volatile String rejectWritesTo;
    private volatile String rejection;
    private volatile Watches watches = Watches.WORK;
    public final AtomicInteger requests = new AtomicInteger();
    public final AtomicInteger failed = new AtomicInteger();

    private Faults(String userAgent, double share, long seed, boolean conflictOnFirstWrite) {
        this.userAgent = userAgent;
        this.random = new Random(seed);
        this.share = share;
        this.conflictOnFirstWrite = conflictOnFirstWrite;
    }

    /**
     * {@code share} of the client's requests fail: a third each with 500, 409, and a lost answer.
     */
    public static Faults share(String userAgent, double share, long seed) {
        return new Faults(userAgent, share, seed, false);
    }

    /**
     * The first attempt of each of the client's writes (by method and path) is answered 409 and has
     * no effect.
     */
    public static Faults conflictOnFirstWrite(String userAgent) {
        return new Faults(userAgent, 0, 0, true);
    }

    /**
     * From now on, the client's writes to paths containing {@code fragment} are refused as invalid
     * (422) with {@code message}.
     */
    public Faults rejectWritesTo(String fragment, String message) {
        this.rejection = message;
        this.rejectWritesTo = fragment;
        return this;
    }

    /**
     * From now on, the client's watches fare as {@code w} says (the watches already open stay as
     * they are).
     */
    public Faults watches(Watches w) {
        this.watches = w;
        return this;
    }

    String rejection() {
        return rejection;
    }

    Fault decide(RecordedRequest request) {
        String agent = request.getHeader("User-Agent");
        if (agent == null || !agent.equals(userAgent)) return Fault.NONE;
        if (request.getPath().contains("watch=true")) {
            return switch (watches) {
                case WORK -> Fault.NONE;
                case REFUSED -> Fault.SERVER_ERROR;
                case DEAD -> Fault.DEAD_WATCH;
                case EXPIRED -> Fault.EXPIRED_WATCH;
            };
        }
        requests.incrementAndGet();
        boolean write = !"GET".equals(request.getMethod());
        String reject = rejectWritesTo;
        if (write && reject != null && request.getPath().contains(reject)) return Fault.INVALID;
        Fault f = Fault.NONE;
        if (conflictOnFirstWrite
                && write
                && written.add(request.getMethod() + " " + request.getPath())) {
            f = Fault.CONFLICT;
        } else if (share > 0) {
            double roll;
            synchronized (random) {
                roll = random.nextDouble();
            }
            if (roll < share / 3) f = Fault.SERVER_ERROR;
            else if (roll < 2 * share / 3) f = Fault.CONFLICT;
            else if (roll < share) f = Fault.LOST_ANSWER;
        }
        if (f != Fault.NONE) failed.incrementAndGet();
        return f;
    }
}
