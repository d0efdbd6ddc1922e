package io.upshift.testkit;

import io.fabric8.mockwebserver.http.RecordedRequest;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Predicate;

/** Every request an API server answered, with who sent it (its User-Agent), oldest first. */
public final class RequestLog {

    /**
     * One request: method, path with query, the client's User-Agent, and the user it authenticated
     * as ("" when none).
     */
    public record Request(String method, String path, String userAgent, String user) {
        public boolean isWatch() {
            return path.contains("watch=true");
        }

        public boolean isWrite() {
            return !method.equals("GET");
        }

        /** A request about a coordination.k8s.io Lease (leader election). */
        public boolean isLease() {
            return path.startsWith("/apis/coordination.k8s.io/");
        }

        @Override
        public String toString() {
            return method + " " + path + " (" + userAgent + ")";
        }
    }

    private final ConcurrentLinkedQueue<Request> requests = new ConcurrentLinkedQueue<>();

    /**
     * Brings the log up to date before it is read: a real API server's requests are read from its
     * audit log ({@link AuditLog}); the embedded server records each as it answers it.
     */
    private final Runnable catchUp;

    RequestLog() {
        this(() -> {});
    }

    RequestLog(Runnable catchUp) {
        this.catchUp = catchUp;
    }

    void add(Request r) {
        requests.add(r);
    }

    Request record(RecordedRequest request, String user) {
        String agent = request.getHeader("User-Agent");
        Request r =
                new Request(
                        request.getMethod(), request.getPath(), agent == null ? "" : agent, user);
        requests.add(r);
        return r;
    }

    /** The requests so far that match. */
    public List<Request> matching(Predicate<Request> which) {
        catchUp.run();
        return requests.stream().filter(which).toList();
    }

    public int size() {
        catchUp.run();
        return requests.size();
    }

    /** Forgets what was recorded so far. */
    public void clear() {
        catchUp.run();
        requests.clear();
    }
}
