package io.upshift.pools.templates;

import io.upshift.base.proxy.ClusterProxy;
import java.math.BigInteger;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * What templates are rendered with: a small part of upstream's ControllerConfig spec, which its
 * operator gathers from the release and the cluster ({@code pkg/operator/sync.go}, {@code
 * render.go} {@code createDiscoveredControllerConfigSpec}). Values the cluster does not have (no
 * Proxy, no Infrastructure ...) are empty.
 *
 * @param releaseVersion the pool controller's release
 * @param osImageURL the release's OS image: {@code baseOSContainerImage} of the ConfigMap {@code
 *     machine-config-osimageurl}, which the payload ships with the release's {@code rhel-coreos}
 *     image
 * @param osExtensionsImageURL its {@code baseOSExtensionsContainerImage}
 * @param platformType Infrastructure {@code cluster}'s {@code status.platformStatus.type} ({@code
 *     AWS}, {@code None} ...)
 * @param clusterDNSIP the tenth address of the first service network (Network {@code cluster}), as
 *     upstream
 * @param baseDomain DNS {@code cluster}'s {@code spec.baseDomain}
 * @param proxy Proxy {@code cluster}'s status
 */
public record ControllerConfig(
        String releaseVersion,
        String osImageURL,
        String osExtensionsImageURL,
        String platformType,
        String clusterDNSIP,
        String baseDomain,
        String apiServerURL,
        String apiServerInternalURL,
        ClusterProxy proxy) {

    /** Only the release's values; nothing from the cluster. */
    public static ControllerConfig of(String releaseVersion, String osImageURL) {
        return new ControllerConfig(
                releaseVersion, osImageURL, "", "", "", "", "", "", ClusterProxy.NONE);
    }

    /**
     * The substitutions a template may use, by the names upstream's templates use for the same
     * values ({@code RenderConfig} embeds the ControllerConfig spec), plus {@code .ReleaseVersion}.
     */
    public Map<String, String> fields() {
        Map<String, String> f = new LinkedHashMap<>();
        f.put(".ReleaseVersion", releaseVersion);
        f.put(".OSImageURL", osImageURL);
        f.put(".BaseOSContainerImage", osImageURL);
        f.put(".BaseOSExtensionsContainerImage", osExtensionsImageURL);
        f.put(".ClusterDNSIP", clusterDNSIP);
        f.put(".DNS.Spec.BaseDomain", baseDomain);
        f.put(".Infra.Status.APIServerURL", apiServerURL);
        f.put(".Infra.Status.APIServerInternalURL", apiServerInternalURL);
        f.put(".Infra.Status.PlatformStatus.Type", platformType);
        f.put(".Proxy.HTTPProxy", proxy.httpProxy());
        f.put(".Proxy.HTTPSProxy", proxy.httpsProxy());
        f.put(".Proxy.NoProxy", proxy.noProxy());
        return f;
    }

    /**
     * The platform directory whose templates are laid over {@code _base}'s; "" when the platform is
     * not known.
     */
    public String platformDirectory() {
        return platformType.toLowerCase(Locale.ROOT);
    }

    /**
     * The cluster DNS service's address: the tenth host of the service network {@code cidr}, as
     * upstream's {@code clusterDNSIP} ("172.30.0.0/16" gives "172.30.0.10").
     */
    public static String clusterDNSIP(String cidr) {
        int slash = cidr.indexOf('/');
        try {
            if (slash < 0) throw new UnknownHostException("no prefix length");
            // a literal only: InetAddress would look a name up in DNS
            if (!cidr.substring(0, slash).matches("[0-9a-fA-F:.]+"))
                throw new UnknownHostException("not an IP address");
            byte[] address = InetAddress.getByName(cidr.substring(0, slash)).getAddress();
            int prefix = Integer.parseInt(cidr.substring(slash + 1));
            int bits = address.length * 8;
            if (prefix < 0 || prefix > bits - 4)
                throw new UnknownHostException("prefix length " + prefix + " leaves no tenth host");
            BigInteger network =
                    new BigInteger(1, address).shiftRight(bits - prefix).shiftLeft(bits - prefix);
            byte[] host = network.add(BigInteger.TEN).toByteArray();
            byte[] out = new byte[address.length];
            System.arraycopy(
                    host,
                    Math.max(0, host.length - out.length),
                    out,
                    Math.max(0, out.length - host.length),
                    Math.min(host.length, out.length));
            return out.length == 4 ? InetAddress.getByAddress(out).getHostAddress() : ipv6(out);
        } catch (UnknownHostException | NumberFormatException e) {
            throw new IllegalArgumentException(
                    "service network \"" + cidr + "\" is not a CIDR: " + e.getMessage(), e);
        }
    }

    /**
     * An IPv6 address as Go prints it: the longest run of two or more zero groups as "::"
     * ("fd02::a").
     */
    private static String ipv6(byte[] a) {
        int[] g = new int[8];
        for (int i = 0; i < 8; i++) g[i] = ((a[2 * i] & 0xff) << 8) | (a[2 * i + 1] & 0xff);
        int bestStart = -1, bestLength = 1;
        for (int i = 0; i < 8; ) {
            int j = i;
            while (j < 8 && g[j] == 0) j++;
            if (j - i > bestLength) {
                bestStart = i;
                bestLength = j - i;
            }
            i = j == i ? i + 1 : j;
        }
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < 8; i++) {
            if (i == bestStart) {
                out.append("::");
                i += bestLength - 1;
                continue;
            }
            if (out.length() > 0 && out.charAt(out.length() - 1) != ':') out.append(':');
            out.append(Integer.toHexString(g[i]));
        }
        return out.toString();
    }
}
