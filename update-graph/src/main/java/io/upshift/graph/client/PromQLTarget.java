package io.upshift.graph.client;

import java.net.URI;
import java.nio.file.Path;

/**
 * Where PromQL risk rules are evaluated and with what credentials, as upstream's {@code
 * clusterconditions.PromQLTarget}: the query service's URL; unless {@code useDns}, the Service
 * whose cluster IP is dialled in place of the URL's host (looked up at each evaluation, so a
 * re-created Service is followed; the TLS server name stays the URL's host); the CA bundle that
 * signs its serving certificate and the file holding the bearer token sent to it, each read at
 * every evaluation (the service CA and a projected ServiceAccount token both rotate).
 *
 * @param caBundleFile null: the system's authorities
 * @param tokenFile null: no Authorization header
 */
public record PromQLTarget(
        URI url,
        boolean useDns,
        String serviceNamespace,
        String serviceName,
        Path caBundleFile,
        Path tokenFile) {

    /**
     * Upstream's default: OpenShift's thanos-querier (its Service in openshift-monitoring, port
     * 9091), the service CA the Deployment mounts, and the pod's ServiceAccount token.
     */
    public static PromQLTarget openShiftMonitoring() {
        return new PromQLTarget(
                URI.create("https://thanos-querier.openshift-monitoring.svc.cluster.local:9091"),
                false,
                "openshift-monitoring",
                "thanos-querier",
                Path.of("/etc/tls/service-ca/service-ca.crt"),
                Path.of("/var/run/secrets/kubernetes.io/serviceaccount/token"));
    }

    /** The URL's port, or the scheme's. */
    public int port() {
        if (url.getPort() > 0) return url.getPort();
        return "https".equals(url.getScheme()) ? 443 : 80;
    }
}
