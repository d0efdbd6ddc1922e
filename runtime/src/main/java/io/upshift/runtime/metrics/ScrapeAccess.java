package io.upshift.runtime.metrics;

import java.net.InetAddress;

/** Who may read {@code /metrics}: asked once per request with its Authorization header. */
public interface ScrapeAccess {

    /** Anyone may: the endpoint is open (a demo, a process on a workstation). */
    ScrapeAccess ANYONE = (authorization, verb, path, source) -> Verdict.ALLOWED;

    /**
     * @param authorization the request's Authorization header; null when it has none
     * @param verb the request's verb as Kubernetes authorization names it ({@code get})
     * @param path the path asked for ({@code /metrics})
     * @param source the client's address; null when unknown
     */
    Verdict check(String authorization, String verb, String path, InetAddress source);

    /**
     * The answer: 200 to go on, else the status and a one-line reason to send.
     *
     * @param retryAfter seconds to send in {@code Retry-After} (a 429); 0: none
     */
    record Verdict(int status, String message, long retryAfter) {
        public static final Verdict ALLOWED = new Verdict(200, "");

        public Verdict(int status, String message) {
            this(status, message, 0);
        }

        public boolean allowed() {
            return status == 200;
        }
    }
}
