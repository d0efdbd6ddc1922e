package io.upshift.runtime.metrics;

import java.nio.file.Path;

/**
 * How the operator serves {@code /metrics}.
 *
 * @param port the port (0: not served)
 * @param auth who may scrape
 * @param tlsCert the serving certificate (PEM, leaf first); null with {@code tlsKey} for plain HTTP
 * @param tlsKey its private key (PEM)
 */
public record MetricsOptions(int port, Auth auth, Path tlsCert, Path tlsKey) {

    /** Who may scrape. */
    public enum Auth {
        /** Anyone who reaches the port. */
        NONE,
        /**
         * A bearer token whose user may {@code get} the non-resource URL {@code /metrics} ({@link
         * TokenAccess}).
         */
        TOKEN
    }

    public MetricsOptions {
        if ((tlsCert == null) != (tlsKey == null))
            throw new IllegalArgumentException("a TLS certificate and its key are given together");
    }

    public boolean tls() {
        return tlsCert != null;
    }
}
