package io.upshift.pools.disruption;

import static io.upshift.pools.disruption.Specs.spec;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.upshift.api.json.Mappers;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The least disruptive way to take a change, against upstream's cases (pkg/daemon/update_test.go
 * TestCalculatePostConfigChangeAction, pkg/controller/common TestFindClosestFilePolicyPathMatch)
 * under the default policies, and with the cluster's own policies.
 */
class DisruptionPlanTest {
    static final String PULL_SECRET = "/var/lib/kubelet/config.json",
            REGISTRIES = "/etc/containers/registries.conf",
            POLICY = "/etc/containers/policy.json",
            GPG = "/etc/machine-config-daemon/no-reboot/containers-gpg.pub",
            USER_CA = "/etc/pki/ca-trust/source/anchors/openshift-config-user-ca-bundle.crt";

    static String plan(Specs from, Specs to) {
        return plan(from, to, DisruptionPolicies.DEFAULTS);
    }

    static String plan(Specs from, Specs to, DisruptionPolicies policies) {
        return DisruptionPlan.of(ConfigDiff.between(from.build(), to.build()), policies).toString();
    }

    static DisruptionPolicies policies(String yaml) throws Exception {
        JsonNode spec = Mappers.YAML.readTree(yaml);
        return DisruptionPolicies.merge(spec);
    }

    @Test
    void upstreamsCasesUnderTheDefaultPolicies() {
        assertThat(
                        plan(
                                spec().file("/etc/random-reboot-file", "test"),
                                spec().file("/etc/random-reboot-file", "test 2")))
                .isEqualTo("Reboot");
        assertThat(plan(spec().file(PULL_SECRET, "1"), spec().file(PULL_SECRET, "2")))
                .isEqualTo("None");
        assertThat(plan(spec().sshKeys("key1"), spec().sshKeys("key2"))).isEqualTo("None");
        assertThat(plan(spec().file(REGISTRIES, "1"), spec().file(REGISTRIES, "2")))
                .isEqualTo("Special");
        assertThat(
                        plan(
                                spec().file(REGISTRIES, "1").file(PULL_SECRET, "1"),
                                spec().file(REGISTRIES, "2").file(PULL_SECRET, "2")))
                .as("None beside another action is dropped")
                .isEqualTo("Special");
        assertThat(
                        plan(
                                spec().file(REGISTRIES, "1").sshKeys("key1"),
                                spec().file(REGISTRIES, "2").sshKeys("key2").os("dummy1://")))
                .as("an OS image change wins")
                .isEqualTo("Reboot");
        assertThat(
                        plan(
                                spec().file(REGISTRIES, "1").sshKeys("key1"),
                                spec().file(REGISTRIES, "1")
                                        .file(PULL_SECRET, "2")
                                        .sshKeys("key1")))
                .as("a file added")
                .isEqualTo("None");
        assertThat(
                        plan(
                                spec().file("/etc/random", "1").file(REGISTRIES, "1"),
                                spec().file("/etc/random", "1")))
                .as("a file removed")
                .isEqualTo("Special");
        assertThat(
                        plan(
                                spec().file(REGISTRIES, "1").sshKeys("key1"),
                                spec().file(PULL_SECRET, "2").sshKeys("key2").kargs("karg1")))
                .as("kernel arguments win")
                .isEqualTo("Reboot");
        assertThat(plan(spec().file(POLICY, "1"), spec().file(POLICY, "2")))
                .isEqualTo("Reload crio.service");
        assertThat(plan(spec().file(GPG, "1"), spec().file(GPG, "2")))
                .isEqualTo("Reload crio.service");
        assertThat(plan(spec().file(USER_CA, "1"), spec().file(USER_CA, "2")))
                .isEqualTo("Restart coreos-update-ca-trust.service, Restart crio.service");
        assertThat(plan(spec().file(USER_CA, "1"), spec().file(USER_CA, "2").file(GPG, "1")))
                .as("every changed file's actions, in path order")
                .isEqualTo(
                        "Reload crio.service, Restart coreos-update-ca-trust.service, Restart"
                                + " crio.service");
    }

    @Test
    void aDirectoryPolicyCoversWhatIsUnderItAndTheClosestOneWins() throws Exception {
        assertThat(plan(spec(), spec().file("/etc/containers/registries.d/mirror.yaml", "x")))
                .isEqualTo("Reload crio.service");
        assertThat(plan(spec(), spec().file("/etc/nmstate/openshift/eth0.yml", "x")))
                .isEqualTo("None");
        assertThat(plan(spec(), spec().file("/etc/nmstate/openshiftx", "x")))
                .as("a name that only starts like the directory")
                .isEqualTo("Reboot");
        DisruptionPolicies nested =
                policies(
                        """
                        files:
                        - {path: /etc/mco/f1, actions: [{type: None}]}
                        - {path: /etc/mco/f1/f2, actions: [{type: Drain}]}
                        - {path: /etc/mco/f1/f2/f3, actions: [{type: Reload, reload: {serviceName: crio.service}}]}
                        """);
        assertThat(plan(spec(), spec().file("/etc/mco/f1/f2/example", "x"), nested))
                .isEqualTo("Drain");
        assertThat(plan(spec(), spec().file("/etc/mco/f1/f2/f3", "x"), nested))
                .isEqualTo("Reload crio.service");
        assertThat(plan(spec(), spec().file("/etc/mco/f1/x", "x"), nested)).isEqualTo("None");
        assertThat(plan(spec(), spec().file("/etc/mco/test", "x"), nested)).isEqualTo("Reboot");
    }

    @Test
    void anythingOfTheOsNeedsAReboot() {
        assertThat(plan(spec(), spec().os("quay.example/os:2"))).isEqualTo("Reboot");
        assertThat(plan(spec(), spec().kargs("nosmt"))).isEqualTo("Reboot");
        assertThat(plan(spec().kargs("a", "b"), spec().kargs("b", "a")))
                .as("kernel argument order counts")
                .isEqualTo("Reboot");
        assertThat(plan(spec(), spec().extensions("usbguard"))).isEqualTo("Reboot");
        assertThat(plan(spec(), spec().kernelType("realtime"))).isEqualTo("Reboot");
        assertThat(plan(spec(), spec().fips(true))).isEqualTo("Reboot");
        assertThat(plan(spec(), spec().kernelType("default")))
                .as("empty is default")
                .isEqualTo("None");
        assertThat(plan(spec(), spec().kargs()))
                .as("no kernel arguments is an empty list")
                .isEqualTo("None");
        assertThat(plan(spec().file("/etc/x", "1"), spec().file("/etc/x", "1")))
                .as("nothing changed")
                .isEqualTo("None");
    }

    @Test
    void aModeChangeIsAFileChange() {
        assertThat(
                        ConfigDiff.between(
                                        spec().file("/etc/x", "1").build(),
                                        spec().fileWithMode("/etc/x", "1", 0600).build())
                                .files())
                .containsExactly("/etc/x");
    }

    @Test
    void unitsNeedTheirOwnPolicy() throws Exception {
        Map<String, Object> before =
                Map.of(
                        "name",
                        "kubelet.service",
                        "enabled",
                        true,
                        "contents",
                        "[Service]\nExecStart=/a\n");
        Map<String, Object> after =
                Map.of(
                        "name",
                        "kubelet.service",
                        "enabled",
                        true,
                        "contents",
                        "[Service]\nExecStart=/b\n");
        Map<String, Object> dropin =
                Map.of(
                        "name",
                        "kubelet.service",
                        "dropins",
                        List.of(Map.of("name", "10-x.conf", "contents", "[Service]\n")));
        Map<String, Object> masked = Map.of("name", "kubelet.service", "mask", true);
        assertThat(plan(spec().unit(before), spec().unit(after))).isEqualTo("Reboot");
        DisruptionPolicies units =
                policies(
                        """
                        units:
                        - name: kubelet.service
                          actions: [{type: DaemonReload}, {type: Restart, restart: {serviceName: kubelet.service}}]
                        """);
        assertThat(plan(spec().unit(before), spec().unit(after), units))
                .isEqualTo("DaemonReload, Restart kubelet.service");
        assertThat(plan(spec().unit(before), spec().unit(dropin), units))
                .isEqualTo("DaemonReload, Restart kubelet.service");
        assertThat(plan(spec().unit(before), spec().unit(masked), units))
                .isEqualTo("DaemonReload, Restart kubelet.service");
        assertThat(plan(spec().unit(before), spec(), units))
                .as("a unit removed")
                .isEqualTo("DaemonReload, Restart kubelet.service");
        assertThat(plan(spec().unit(before), spec().unit(after).file("/etc/unknown", "x"), units))
                .as("an unknown file beside it")
                .isEqualTo("Reboot");
    }

    @Test
    void theClustersPoliciesCombineAsUpstreamCombinesThem() throws Exception {
        DisruptionPolicies p =
                policies(
                        """
                        files:
                        - {path: /etc/upshift-demo/motd, actions: [{type: None}]}
                        - {path: /etc/app/drain.conf, actions: [{type: Drain}, {type: Reload, reload: {serviceName: app.service}}]}
                        - {path: /etc/app/reboot.conf, actions: [{type: Reboot}]}
                        - {path: /etc/containers/registries.conf, actions: [{type: None}]}
                        sshkey:
                          actions: [{type: Drain}]
                        """);
        assertThat(plan(spec(), spec().file("/etc/upshift-demo/motd", "hello"), p))
                .isEqualTo("None");
        assertThat(
                        plan(
                                spec(),
                                spec().file("/etc/upshift-demo/motd", "hello")
                                        .file("/etc/app/drain.conf", "x"),
                                p))
                .isEqualTo("Drain, Reload app.service");
        assertThat(
                        plan(
                                spec(),
                                spec().file("/etc/app/drain.conf", "x")
                                        .file("/etc/app/reboot.conf", "x"),
                                p))
                .as("a Reboot anywhere wins")
                .isEqualTo("Reboot");
        assertThat(plan(spec().file(REGISTRIES, "1"), spec().file(REGISTRIES, "2"), p))
                .as("a default replaced")
                .isEqualTo("None");
        assertThat(plan(spec().sshKeys("a"), spec().sshKeys("b"), p)).isEqualTo("Drain");
        assertThat(plan(spec().sshKeys("a"), spec().sshKeys("b").file(POLICY, "1"), p))
                .as("files first, then the SSH keys")
                .isEqualTo("Reload crio.service, Drain");

        DisruptionPlan drainOnly =
                DisruptionPlan.of(
                        ConfigDiff.between(
                                spec().build(), spec().file("/etc/app/drain.conf", "x").build()),
                        p);
        assertThat(drainOnly.drains()).isTrue();
        assertThat(drainOnly.reboots()).isFalse();
        DisruptionPlan none =
                DisruptionPlan.of(
                        ConfigDiff.between(
                                spec().build(), spec().file("/etc/upshift-demo/motd", "x").build()),
                        p);
        assertThat(none.drains()).isFalse();
        assertThat(none.reboots()).isFalse();
        assertThat(DisruptionPlan.REBOOT.drains()).isTrue();
        DisruptionPlan special =
                DisruptionPlan.of(
                        ConfigDiff.between(
                                spec().file(REGISTRIES, "1").build(),
                                spec().file(REGISTRIES, "2").build()),
                        DisruptionPolicies.DEFAULTS);
        assertThat(special.drains())
                .as("registries.conf: drained, as upstream does for all but mirror-only changes")
                .isTrue();
        assertThat(special.reboots()).isFalse();
    }
}
