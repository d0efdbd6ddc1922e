package io.upshift.runtime.metrics;

/** Who may read {@code /metrics}: asked once per request with its Authorization header. */
public interface ScrapeAccess {

    /** Anyone may: the endpoint is open (a demo, a process on a workstation). */
    ScrapeAccess ANYONE = (authorization, verb, path) -> Verdict.ALLOWED;

    /**
     * @param authorization the request's Authorization header; null when it has none
     * @param verb the request's verb as Kubernetes authorization names it ({@code get})
     * @param path the path asked for ({@code /metrics})
     */
    Verdict check(String authorization, String verb, String path);

    /** The answer: 200 to go on, else the status and a one-line reason to send. */
    record Verdict(int status, String message) {
        public static final Verdict ALLOWED = new Verdict(200, "");

        public boolean allowed() {
            return status == 200;
        }
    }
}
