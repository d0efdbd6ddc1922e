package io.upshift.releases.image;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Proxy;
import java.net.ProxySelector;
import java.net.SocketAddress;
import java.net.URI;
import java.util.Arrays;
import java.util.List;

/**
 * The cluster's proxy (Proxy {@code cluster}: status.httpProxy, httpsProxy, noProxy) as a selector
 * for HTTP clients, with the no-proxy rules Go's http.ProxyFromEnvironment applies: {@code *} for
 * everything; a host or domain matches itself and its subdomains (a leading dot changes nothing);
 * an IPv4 CIDR matches its addresses; loopback is never proxied.
 */
public record ProxyRules(URI httpProxy, URI httpsProxy, List<String> noProxy) {

    public ProxyRules {
        noProxy = List.copyOf(noProxy);
    }

    public static ProxyRules none() {
        return new ProxyRules(null, null, List.of());
    }

    /** From the Proxy's status strings; empty or absent means no proxy. */
    public static ProxyRules of(String httpProxy, String httpsProxy, String noProxy) {
        return new ProxyRules(
                uri(httpProxy),
                uri(httpsProxy),
                noProxy == null || noProxy.isBlank()
                        ? List.of()
                        : Arrays.stream(noProxy.split(","))
                                .map(String::trim)
                                .filter(s -> !s.isEmpty())
                                .toList());
    }

    /** The proxy for {@code uri}, or null to go direct. */
    public URI proxyFor(URI uri) {
        URI proxy = "https".equals(uri.getScheme()) ? httpsProxy : httpProxy;
        String host =
                uri.getHost() == null ? "" : uri.getHost().toLowerCase().replaceAll("^\\[|]$", "");
        if (proxy == null || host.isEmpty() || isLoopback(host)) return null;
        for (String rule : noProxy) {
            String r = rule.toLowerCase().replaceFirst(":\\d+$", "");
            if (r.equals("*") || r.contains("/") && inCidr(host, r)) return null;
            String domain = r.startsWith(".") ? r.substring(1) : r;
            if (!domain.isEmpty() && (host.equals(domain) || host.endsWith("." + domain)))
                return null;
        }
        return proxy;
    }

    public ProxySelector selector() {
        return new ProxySelector() {
            @Override
            public List<Proxy> select(URI uri) {
                URI p = proxyFor(uri);
                if (p == null) return List.of(Proxy.NO_PROXY);
                int port = p.getPort() > 0 ? p.getPort() : "https".equals(p.getScheme()) ? 443 : 80;
                return List.of(
                        new Proxy(
                                Proxy.Type.HTTP,
                                InetSocketAddress.createUnresolved(p.getHost(), port)));
            }

            @Override
            public void connectFailed(URI uri, SocketAddress sa, IOException ioe) {
                // the request fails and says so; no other proxy to fall back on
            }
        };
    }

    private static boolean isLoopback(String host) {
        return host.equals("localhost") || host.startsWith("127.") || host.equals("::1");
    }

    private static boolean inCidr(String host, String cidr) {
        String[] parts = cidr.split("/");
        long[] net = ipv4(parts[0]), ip = ipv4(host);
        if (net == null || ip == null || !parts[1].matches("\\d{1,2}")) return false;
        int bits = Integer.parseInt(parts[1]);
        long mask = bits == 0 ? 0 : 0xffffffffL << (32 - bits) & 0xffffffffL;
        return (net[0] & mask) == (ip[0] & mask);
    }

    private static long[] ipv4(String s) {
        if (!s.matches("\\d{1,3}(\\.\\d{1,3}){3}")) return null;
        long v = 0;
        for (String o : s.split("\\.")) v = v << 8 | Integer.parseInt(o);
        return new long[] {v};
    }

    private static URI uri(String s) {
        if (s == null || s.isBlank()) return null;
        return URI.create(s.contains("://") ? s.trim() : "http://" + s.trim());
    }
}
