package io.upshift.pools.disruption;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.upshift.api.json.Mappers;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The cluster's policies as upstream's MergeClusterPolicies makes them from the defaults and the
 * spec.
 */
class DisruptionPoliciesTest {

    @Test
    void noSpecIsTheDefaults() {
        DisruptionPolicies p = DisruptionPolicies.merge(Mappers.JSON.missingNode());
        assertThat(p).isEqualTo(DisruptionPolicies.DEFAULTS);
        assertThat(p.files()).hasSize(8);
        assertThat(p.sshKey()).containsExactly(DisruptionAction.NONE);
        assertThat(p.toJson().toString())
                .startsWith(
                        "{\"files\":[{\"path\":\"/var/lib/kubelet/config.json\",\"actions\":[{\"type\":\"None\"}]},")
                .contains(
                        "{\"path\":\"/etc/containers/registries.conf\",\"actions\":[{\"type\":\"Special\"}]}")
                .contains("{\"type\":\"Reload\",\"reload\":{\"serviceName\":\"crio.service\"}}")
                .endsWith("\"sshkey\":{\"actions\":[{\"type\":\"None\"}]}}")
                .doesNotContain("units");
    }

    @Test
    void aSpecPolicyReplacesTheDefaultInPlaceAndNewOnesFollow() throws Exception {
        DisruptionPolicies p =
                DisruptionPolicies.merge(
                        Mappers.YAML.readTree(
                                """
                                files:
                                - {path: /etc/upshift-demo/motd, actions: [{type: None}]}
                                - {path: /etc/containers/policy.json, actions: [{type: Restart, restart: {serviceName: crio.service}}]}
                                units:
                                - {name: app.service, actions: [{type: DaemonReload}, {type: Reload, reload: {serviceName: app.service}}]}
                                sshkey:
                                  actions: [{type: Reboot}]
                                """));
        assertThat(p.files()).hasSize(9);
        assertThat(p.files().get(2))
                .isEqualTo(
                        new DisruptionPolicies.FilePolicy(
                                "/etc/containers/policy.json",
                                List.of(DisruptionAction.restart("crio.service"))));
        assertThat(p.files().get(8).path()).isEqualTo("/etc/upshift-demo/motd");
        assertThat(p.forUnit("app.service"))
                .contains(
                        List.of(
                                DisruptionAction.DAEMON_RELOAD,
                                DisruptionAction.reload("app.service")));
        assertThat(p.forUnit("other.service")).isEmpty();
        assertThat(p.sshKey()).containsExactly(DisruptionAction.REBOOT);
        assertThat(p.toJson().path("units").get(0).toString())
                .isEqualTo(
                        "{\"name\":\"app.service\",\"actions\":[{\"type\":\"DaemonReload\"},{\"type\":\"Reload\",\"reload\":{\"serviceName\":\"app.service\"}}]}");
    }

    @Test
    void anUnknownActionOrAReloadWithoutUnitIsRefused() {
        assertThatThrownBy(
                        () ->
                                DisruptionPolicies.merge(
                                        Mappers.YAML.readTree(
                                                "files: [{path: /etc/x, actions: [{type:"
                                                        + " Explode}]}]")))
                .hasMessage("unknown node disruption action type \"Explode\"");
        assertThatThrownBy(
                        () ->
                                DisruptionPolicies.merge(
                                        Mappers.YAML.readTree(
                                                "files: [{path: /etc/x, actions: [{type:"
                                                        + " Reload}]}]")))
                .hasMessage("Reload needs a serviceName");
    }
}
