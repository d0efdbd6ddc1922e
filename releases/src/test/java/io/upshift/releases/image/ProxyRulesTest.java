package io.upshift.releases.image;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.Proxy;
import java.net.URI;
import org.junit.jupiter.api.Test;

class ProxyRulesTest {

    private final ProxyRules rules =
            ProxyRules.of(
                    "http://proxy.corp:3128",
                    "http://secure-proxy.corp:3129",
                    ".cluster.local, internal.corp,10.0.0.0/16");

    @Test
    void eachSchemeGoesThroughItsProxyUnlessNoProxyOrLoopbackSaysOtherwise() {
        assertThat(rules.proxyFor(URI.create("https://quay.io/v2/")))
                .isEqualTo(URI.create("http://secure-proxy.corp:3129"));
        assertThat(rules.proxyFor(URI.create("http://mirror.openshift.com/sigs")))
                .isEqualTo(URI.create("http://proxy.corp:3128"));
        assertThat(rules.proxyFor(URI.create("https://registry.internal.corp/v2/"))).isNull();
        assertThat(rules.proxyFor(URI.create("https://internal.corp/v2/"))).isNull();
        assertThat(rules.proxyFor(URI.create("https://svc.ns.cluster.local/"))).isNull();
        assertThat(rules.proxyFor(URI.create("https://10.0.3.4:5000/v2/"))).isNull();
        assertThat(rules.proxyFor(URI.create("https://10.1.3.4:5000/v2/"))).isNotNull();
        assertThat(rules.proxyFor(URI.create("http://127.0.0.1:5000/v2/"))).isNull();
        assertThat(rules.proxyFor(URI.create("https://notinternal.corp/"))).isNotNull();
        assertThat(rules.selector().select(URI.create("https://quay.io/")).get(0).type())
                .isEqualTo(Proxy.Type.HTTP);
        assertThat(ProxyRules.none().selector().select(URI.create("https://quay.io/")))
                .containsExactly(Proxy.NO_PROXY);
    }

    /** Cases of golang.org/x/net/http/httpproxy's rules, written for Upshift. */
    @Test
    void noProxyFollowsGosHttpproxyRules() {
        ProxyRules r =
                ProxyRules.of(
                        "proxy.corp:3128",
                        "https://secure.corp",
                        ".sub.example, *.star.example, plain.example, ported.example:8443,"
                                + " 192.168.1.5:80, 10.1.0.0/16, fd00::/8, [2001:db8::1]:443,"
                                + " ::2");
        URI http = URI.create("http://proxy.corp:3128"), https = URI.create("https://secure.corp");
        // a proxy without a scheme is http; an https URL goes through httpsProxy alone
        assertThat(r.proxyFor(URI.create("http://a.example/"))).isEqualTo(http);
        assertThat(r.proxyFor(URI.create("https://a.example/"))).isEqualTo(https);
        // a leading dot or *. matches subdomains only
        assertThat(r.proxyFor(URI.create("https://x.sub.example/"))).isNull();
        assertThat(r.proxyFor(URI.create("https://sub.example/"))).isEqualTo(https);
        assertThat(r.proxyFor(URI.create("https://x.star.example/"))).isNull();
        assertThat(r.proxyFor(URI.create("https://star.example/"))).isEqualTo(https);
        // a plain domain matches itself and its subdomains, not names that merely end like it
        assertThat(r.proxyFor(URI.create("https://plain.example/"))).isNull();
        assertThat(r.proxyFor(URI.create("https://a.b.plain.example/"))).isNull();
        assertThat(r.proxyFor(URI.create("https://notplain.example/"))).isEqualTo(https);
        // a port in an entry must be the URL's, the scheme's default when the URL gives none
        assertThat(r.proxyFor(URI.create("https://ported.example:8443/"))).isNull();
        assertThat(r.proxyFor(URI.create("https://ported.example/"))).isEqualTo(https);
        assertThat(r.proxyFor(URI.create("http://192.168.1.5/"))).isNull();
        assertThat(r.proxyFor(URI.create("https://192.168.1.5/"))).isEqualTo(https);
        // CIDRs and addresses, IPv4 and IPv6, match addresses written in the URL, not names
        assertThat(r.proxyFor(URI.create("https://10.1.200.3/"))).isNull();
        assertThat(r.proxyFor(URI.create("https://10.2.0.3/"))).isEqualTo(https);
        assertThat(r.proxyFor(URI.create("https://[fd12::5]/"))).isNull();
        assertThat(r.proxyFor(URI.create("https://[2001:db8::1]/"))).isNull();
        assertThat(r.proxyFor(URI.create("https://[::2]:9/"))).isNull();
        assertThat(r.proxyFor(URI.create("https://[2001:db8::2]/"))).isEqualTo(https);
        // localhost and loopback addresses never go through a proxy; other names do
        assertThat(r.proxyFor(URI.create("http://localhost:8080/"))).isNull();
        assertThat(r.proxyFor(URI.create("http://127.5.0.1/"))).isNull();
        assertThat(r.proxyFor(URI.create("http://[::1]/"))).isNull();
        assertThat(r.proxyFor(URI.create("http://vm.local/"))).isEqualTo(http);
        // * proxies nothing
        assertThat(ProxyRules.of("p:1", "p:1", "example.com,*").proxyFor(URI.create("http://a/")))
                .isNull();
    }
}
