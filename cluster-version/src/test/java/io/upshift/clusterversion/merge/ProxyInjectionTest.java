package io.upshift.clusterversion.merge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.upshift.api.json.Mappers;
import io.upshift.base.proxy.ClusterProxy;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.junit.jupiter.api.Test;

/**
 * The cluster proxy set into the containers a workload names, as upstream's resourcebuilder does.
 */
class ProxyInjectionTest {

    static ObjectNode yaml(String text) {
        try {
            return (ObjectNode) Mappers.YAML.readTree(text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static final String OPERATOR =
            """
            apiVersion: apps/v1
            kind: Deployment
            metadata: {name: op, namespace: x, annotations: {config.openshift.io/inject-proxy: "op, init"}}
            spec:
              selector: {matchLabels: {app: op}}
              template:
                metadata: {labels: {app: op}}
                spec:
                  initContainers: [{name: init, image: i}]
                  containers:
                  - {name: op, image: o, env: [{name: LEVEL, value: debug}, {name: NO_PROXY, value: stale}]}
                  - {name: sidecar, image: s}
            """;

    static final ClusterProxy PROXY =
            ClusterProxy.of(
                    yaml(
                            """
                            apiVersion: config.openshift.io/v1
                            kind: Proxy
                            metadata: {name: cluster}
                            spec: {httpProxy: "http://spec-only:3128"}
                            status: {httpProxy: "http://proxy:3128", httpsProxy: "http://proxy:3129", noProxy: ".cluster.local,10.0.0.0/16"}
                            """));

    @Test
    void theNamedContainersGetTheProxyFromTheStatusAndOthersNothing() {
        ObjectNode manifest = yaml(OPERATOR);
        JsonNode out = ProxyInjection.inject(manifest, PROXY);
        assertThat(out.at("/spec/template/spec/containers/0/env").toString())
                .isEqualTo(
                        "[{\"name\":\"LEVEL\",\"value\":\"debug\"},{\"name\":\"NO_PROXY\",\"value\":\".cluster.local,10.0.0.0/16\"},"
                            + "{\"name\":\"HTTP_PROXY\",\"value\":\"http://proxy:3128\"},{\"name\":\"HTTPS_PROXY\",\"value\":\"http://proxy:3129\"}]");
        assertThat(out.at("/spec/template/spec/initContainers/0/env")).hasSize(3);
        assertThat(out.at("/spec/template/spec/containers/1").has("env")).isFalse();
        assertThat(manifest).isEqualTo(yaml(OPERATOR)); // the manifest itself is not changed
    }

    @Test
    void withoutAProxyOrWithoutTheAnnotationNothingIsInjected() {
        ObjectNode manifest = yaml(OPERATOR);
        assertThat(ProxyInjection.inject(manifest, ClusterProxy.NONE)).isSameAs(manifest);
        assertThat(ProxyInjection.inject(manifest, ClusterProxy.of(null))).isSameAs(manifest);
        ObjectNode plain = yaml(OPERATOR.replace("config.openshift.io/inject-proxy", "other"));
        assertThat(ProxyInjection.requested(plain)).isFalse();
        assertThat(ProxyInjection.inject(plain, PROXY)).isSameAs(plain);
        ObjectNode configMap =
                yaml(
                        "{apiVersion: v1, kind: ConfigMap, metadata: {name: c, annotations:"
                                + " {config.openshift.io/inject-proxy: op}}}");
        assertThat(ProxyInjection.requested(configMap)).isFalse();
    }

    @Test
    void aContainerTheAnnotationNamesButTheTemplateLacksIsAnError() {
        ObjectNode manifest = yaml(OPERATOR.replace("\"op, init\"", "\"op, missing\""));
        assertThatThrownBy(() -> ProxyInjection.inject(manifest, PROXY))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("\"missing\"");
    }

    @Test
    void theInjectedEnvIsLevelWithTheLiveObjectAndGoesWhenTheProxyIsRemoved() {
        ObjectNode injected = ProxyInjection.inject(yaml(OPERATOR), PROXY);
        ObjectNode live = ResourceMerge.merge(injected, injected).object();
        assertThat(
                        ResourceMerge.merge(live, ProxyInjection.inject(yaml(OPERATOR), PROXY))
                                .changed())
                .isFalse();
        ResourceMerge.Merged removed =
                ResourceMerge.merge(live, ProxyInjection.inject(yaml(OPERATOR), ClusterProxy.NONE));
        assertThat(removed.changed()).isTrue();
        assertThat(removed.object().at("/spec/template/spec/containers/0/env")).hasSize(2);
    }
}
