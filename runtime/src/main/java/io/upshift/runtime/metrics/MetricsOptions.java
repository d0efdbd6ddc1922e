package io.upshift.runtime.metrics;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * How the operator serves {@code /metrics}.
 *
 * @param address where (host and port); null: not served
 * @param auth who may scrape
 * @param transport HTTPS with which certificate, or plain HTTP
 */
public record MetricsOptions(InetSocketAddress address, Auth auth, Transport transport) {

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

    /** How scrapes travel. */
    public sealed interface Transport {
        /** HTTPS with a certificate made at start, signed by its own key: the default. */
        record SelfSigned() implements Transport {}

        /**
         * HTTPS with the PEM pair in these files, read again when they change.
         *
         * @param optional the files may not be there yet (an optional Secret volume): a self-signed
         *     certificate is served until both are
         */
        record Files(Path cert, Path key, boolean optional) implements Transport {
            public Files {
                Objects.requireNonNull(cert);
                Objects.requireNonNull(key);
            }
        }

        /** Plain HTTP, only when asked for by name. */
        record PlainHttp() implements Transport {}
    }

    public MetricsOptions {
        Objects.requireNonNull(auth);
        Objects.requireNonNull(transport);
    }

    public boolean served() {
        return address != null;
    }

    public boolean tls() {
        return !(transport instanceof Transport.PlainHttp);
    }

    /**
     * The serving certificate, read or made now; null for plain HTTP.
     *
     * @param names what a self-signed certificate is for (DNS names, IP addresses)
     */
    public ServingCertificate certificate(List<String> names, Instant now)
            throws IOException, GeneralSecurityException {
        if (transport instanceof Transport.Files f) {
            return f.optional()
                    ? ServingCertificate.untilMounted(f.cert(), f.key(), names, now)
                    : ServingCertificate.load(f.cert(), f.key());
        }
        if (transport instanceof Transport.SelfSigned)
            return ServingCertificate.selfSigned(names, now);
        return null;
    }
}
