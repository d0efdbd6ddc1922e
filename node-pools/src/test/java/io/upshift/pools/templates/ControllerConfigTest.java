package io.upshift.pools.templates;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ControllerConfigTest {

    @Test
    void theClusterDnsAddressIsTheTenthHostOfTheServiceNetworkAsUpstreamComputesIt() {
        assertThat(ControllerConfig.clusterDNSIP("172.30.0.0/16")).isEqualTo("172.30.0.10");
        assertThat(ControllerConfig.clusterDNSIP("10.96.12.34/12")).isEqualTo("10.96.0.10");
        assertThat(ControllerConfig.clusterDNSIP("fd02::/112")).isEqualTo("fd02::a");
        assertThat(ControllerConfig.clusterDNSIP("fd02:0:0:1::/64")).isEqualTo("fd02:0:0:1::a");
    }

    @Test
    void aServiceNetworkThatIsNoCidrIsRefusedWithoutLookingItUp() {
        for (String bad :
                new String[] {"172.30.0.0", "example.com/16", "172.30.0.0/30", "172.30.0.0/x"}) {
            assertThatThrownBy(() -> ControllerConfig.clusterDNSIP(bad))
                    .as(bad)
                    .hasMessageStartingWith("service network \"" + bad + "\" is not a CIDR");
        }
    }
}
