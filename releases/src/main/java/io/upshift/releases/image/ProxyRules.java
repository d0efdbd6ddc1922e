package io.upshift.releases.image;

import io.upshift.base.proxy.ClusterProxy;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Proxy;
import java.net.ProxySelector;
import java.net.SocketAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The cluster's proxy (Proxy {@code cluster}: status.httpProxy, httpsProxy, noProxy) as a selector
 * for HTTP clients, with the rules of Go's {@code golang.org/x/net/http/httpproxy}, which
 * upstream's cluster-version operator applies: an https URL goes through httpsProxy, an http one
 * through httpProxy (a proxy written without a scheme is http); {@code localhost} and loopback
 * addresses never go through one; a noProxy entry is {@code *} (nothing is proxied), an IP address
 * or CIDR (matching addresses written in the URL), or a domain ({@code example.com} matching itself
 * and its subdomains, {@code .example.com} and {@code *.example.com} its subdomains only), each
 * with an optional port that must then be the URL's (80 or 443 when the URL gives none).
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
                                .map(s -> s.trim().toLowerCase(Locale.ROOT))
                                .filter(s -> !s.isEmpty())
                                .toList());
    }

    /** The rules of the cluster's Proxy {@code cluster}. */
    public static ProxyRules of(ClusterProxy proxy) {
        return of(proxy.httpProxy(), proxy.httpsProxy(), proxy.noProxy());
    }

    /** The proxy for {@code uri}, or null to go direct. */
    public URI proxyFor(URI uri) {
        URI proxy =
                "https".equals(uri.getScheme())
                        ? httpsProxy
                        : "http".equals(uri.getScheme()) ? httpProxy : null;
        if (proxy == null) return null;
        String host =
                uri.getHost() == null
                        ? ""
                        : uri.getHost().toLowerCase(Locale.ROOT).replaceAll("^\\[|]$", "");
        String port =
                String.valueOf(
                        uri.getPort() > 0
                                ? uri.getPort()
                                : "https".equals(uri.getScheme()) ? 443 : 80);
        return useProxy(host, port) ? proxy : null;
    }

    private boolean useProxy(String host, String port) {
        if (host.isEmpty()) return true;
        if (host.equals("localhost")) return false;
        InetAddress ip = literal(host);
        if (ip != null && ip.isLoopbackAddress()) return false;
        for (String rule : noProxy) {
            if (rule.equals("*")) return false;
            if (rule.contains("/")) {
                if (ip != null && inCidr(ip, rule)) return false;
                continue;
            }
            String[] hp = hostPort(rule);
            if (hp == null) continue;
            String ruleHost = hp[0], rulePort = hp[1];
            boolean portOk = rulePort.isEmpty() || rulePort.equals(port);
            InetAddress ruleIp = literal(ruleHost);
            if (ruleIp != null) {
                if (ip != null && ruleIp.equals(ip) && portOk) return false;
                continue;
            }
            if (ruleHost.startsWith("*.")) ruleHost = ruleHost.substring(1);
            boolean matchHost = !ruleHost.startsWith(".");
            String suffix = matchHost ? "." + ruleHost : ruleHost;
            if ((host.endsWith(suffix) || (matchHost && host.equals(ruleHost))) && portOk)
                return false;
        }
        return true;
    }

    /** A noProxy entry's host and port (empty when none); null for an entry without a host. */
    private static String[] hostPort(String rule) {
        String host = rule, port = "";
        if (rule.startsWith("[")) {
            int close = rule.indexOf(']');
            if (close < 0) return null;
            host = rule.substring(1, close);
            if (rule.length() > close + 1) {
                if (rule.charAt(close + 1) != ':') return null;
                port = rule.substring(close + 2);
            }
        } else if (rule.indexOf(':') >= 0 && rule.indexOf(':') == rule.lastIndexOf(':')) {
            host = rule.substring(0, rule.indexOf(':'));
            port = rule.substring(rule.indexOf(':') + 1);
        }
        return host.isEmpty() ? null : new String[] {host, port};
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

    private static boolean inCidr(InetAddress ip, String cidr) {
        String[] parts = cidr.split("/", 2);
        InetAddress net = literal(parts[0]);
        if (net == null || !parts[1].matches("\\d{1,3}")) return false;
        byte[] a = net.getAddress(), b = ip.getAddress();
        int bits = Integer.parseInt(parts[1]);
        if (a.length != b.length || bits > a.length * 8) return false;
        for (int i = 0; i < bits; i++) {
            int mask = 0x80 >> (i % 8);
            if ((a[i / 8] & mask) != (b[i / 8] & mask)) return false;
        }
        return true;
    }

    /** The address {@code s} writes, or null for a name (nothing is resolved). */
    private static InetAddress literal(String s) {
        boolean v4 = s.matches("\\d{1,3}(\\.\\d{1,3}){3}");
        boolean v6 = s.contains(":") && s.matches("[0-9a-fA-F:.]+");
        if (v4) {
            for (String octet : s.split("\\.")) if (Integer.parseInt(octet) > 255) return null;
        }
        if (!v4 && !v6) return null;
        try {
            return InetAddress.getByName(s);
        } catch (UnknownHostException e) {
            return null;
        }
    }

    private static URI uri(String s) {
        if (s == null || s.isBlank()) return null;
        return URI.create(s.contains("://") ? s.trim() : "http://" + s.trim());
    }
}
