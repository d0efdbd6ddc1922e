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
}
