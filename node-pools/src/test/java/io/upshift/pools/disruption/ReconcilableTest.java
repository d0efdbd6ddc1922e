package io.upshift.pools.disruption;

import static io.upshift.pools.disruption.Specs.spec;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * What a node cannot take in place, said as upstream's daemon says it (pkg/daemon/update.go
 * reconcilable()).
 */
class ReconcilableTest {

    static Optional<String> check(Specs from, Specs to) {
        return Reconcilable.check("rendered-a", from.build(), "rendered-b", to.build());
    }

    static String prefix() {
        return "can't reconcile config rendered-a with rendered-b: configs rendered-a, rendered-b"
                + " are not reconcilable: ";
    }

    @Test
    void filesUnitsKeysAndTheOsChangeInPlace() {
        assertThat(
                        check(
                                spec().file("/etc/a", "1").sshKeys("k1"),
                                spec().file("/etc/a", "2")
                                        .file("/etc/b", "x")
                                        .sshKeys("k2")
                                        .kargs("nosmt")
                                        .extensions("usbguard")
                                        .kernelType("realtime")
                                        .os("quay.example/os:2")
                                        .unit(Map.of("name", "app.service", "mask", true))))
                .isEmpty();
        assertThat(check(spec().file("/etc/a", "1"), spec())).as("files removed").isEmpty();
    }

    @Test
    void whatTheHostCannotApplyIsRefusedWithUpstreamsWords() {
        assertThat(check(spec(), spec().file("etc/relative", "x")))
                .contains(
                        prefix()
                                + "validating new Ignition config from machineconfig \"rendered-b\""
                                + " failed: error at $.storage.files.0.path: path not absolute:"
                                + " \"etc/relative\"");
        assertThat(check(spec(), spec().file("/etc/../root/x", "x")))
                .get()
                .asString()
                .endsWith("path contains \"..\": \"/etc/../root/x\"");
        assertThat(check(spec(), spec().kernelType("rt")))
                .contains(
                        prefix()
                                + "validating new MachineConfig \"rendered-b\" failed:"
                                + " kernelType=rt is invalid");
        assertThat(check(spec(), spec().extensions("usbguard", "nginx")))
                .contains(
                        prefix()
                                + "validating new MachineConfig \"rendered-b\" failed: invalid"
                                + " extensions found: [nginx]");
        assertThat(check(spec(), spec().unit(Map.of("name", "app", "enabled", true))))
                .get()
                .asString()
                .endsWith(
                        "error at $.systemd.units.0.name: invalid systemd unit extension: \"app\"");
        assertThat(check(spec().fips(true), spec().fips(false)))
                .contains(
                        prefix()
                                + "new machineconfig \"rendered-a\" is not reconcilable against"
                                + " \"rendered-b\": detected change to FIPS flag; refusing to"
                                + " modify FIPS on a running cluster");
        assertThat(check(spec(), spec().ignition("disks", List.of(Map.of("device", "/dev/sdb")))))
                .get()
                .asString()
                .endsWith(
                        "is not reconcilable against \"rendered-b\": ignition disks section"
                                + " contains changes");
        assertThat(check(spec(), spec().ignition("directories", List.of(Map.of("path", "/etc/d")))))
                .get()
                .asString()
                .endsWith("ignition directories section contains changes");
        assertThat(
                        check(
                                spec(),
                                spec().ignition(
                                                "kernelArguments",
                                                Map.of("shouldExist", List.of("nosmt")))))
                .get()
                .asString()
                .endsWith("ignition kargs section contains changes");
        assertThat(
                        check(
                                spec(),
                                spec().ignition(
                                                "passwd",
                                                Map.of(
                                                        "users",
                                                        List.of(
                                                                Map.of(
                                                                        "name",
                                                                        "admin",
                                                                        "sshAuthorizedKeys",
                                                                        List.of("k")))))))
                .get()
                .asString()
                .endsWith(
                        "invalid passwd change(s): ignition passwd user section contains"
                                + " unsupported changes: non-core user");
        assertThat(
                        check(
                                spec(),
                                spec().ignition(
                                                "passwd",
                                                Map.of(
                                                        "users",
                                                        List.of(
                                                                Map.of(
                                                                        "name",
                                                                        "core",
                                                                        "sshAuthorizedKeys",
                                                                        List.of("k"),
                                                                        "uid",
                                                                        1000))))))
                .get()
                .asString()
                .endsWith(
                        "invalid passwd change(s): SSH keys and password hash are not"
                                + " reconcilable");
        assertThat(
                        check(
                                spec(),
                                spec().ignition(
                                                "passwd",
                                                Map.of(
                                                        "groups",
                                                        List.of(Map.of("name", "wheel"))))))
                .get()
                .asString()
                .endsWith(
                        "invalid passwd change(s): ignition Passwd Groups section contains"
                                + " changes");
    }

    @Test
    void aNodesFirstConfigIsOnlyCheckedForValidity() {
        assertThat(Reconcilable.check("", null, "rendered-b", spec().fips(true).build())).isEmpty();
        assertThat(Reconcilable.check("", null, "rendered-b", spec().kernelType("rt").build()))
                .contains(
                        "can't reconcile config  with rendered-b: configs , rendered-b are not"
                            + " reconcilable: validating new MachineConfig \"rendered-b\" failed:"
                            + " kernelType=rt is invalid");
    }
}
