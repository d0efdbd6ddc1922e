package io.upshift.pools.disruption;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Whether a node can go from one rendered config to another in place, as the machine-config
 * daemon's {@code reconcilable()} decides (pkg/daemon/update.go,
 * pkg/controller/common/reconcile.go): the new config must be valid (absolute file paths, known
 * kernel type and extensions), and may change only files, units, the OS and kernel settings and the
 * {@code core} user's SSH keys or password; disks, filesystems, RAID, directories, links, groups,
 * other users, Ignition's own kernel arguments, appended files and FIPS cannot change on a running
 * node. The reason reads as upstream's: "can't reconcile config A with B: configs A, B are not
 * reconcilable: ...".
 */
public final class Reconcilable {
    /** The extensions RHCOS supports (release-4.19 {@code SupportedExtensions}). */
    public static final Set<String> EXTENSIONS =
            Set.of(
                    "two-node-ha",
                    "wasm",
                    "ipsec",
                    "usbguard",
                    "kerberos",
                    "kernel-devel",
                    "sandboxed-containers",
                    "sysstat");

    private static final Set<String> UNIT_TYPES =
            Set.of(
                    "service",
                    "socket",
                    "device",
                    "mount",
                    "automount",
                    "swap",
                    "target",
                    "path",
                    "timer",
                    "snapshot",
                    "slice",
                    "scope");
    private static final String FORCE_FILE = "/run/machine-config-daemon-force";

    private Reconcilable() {}

    /**
     * Why the node cannot go from {@code from} to {@code to}, or empty when it can.
     *
     * @param from the config the node runs; null for a node's first config (then only {@code to}'s
     *     validity counts, and FIPS, which the host itself set up, is not compared)
     */
    public static Optional<String> check(
            String fromName, MachineConfigSpec from, String toName, MachineConfigSpec to) {
        String why = invalid(toName, to);
        if (why == null) {
            why = unreconcilable(from == null ? new MachineConfigSpec() : from, to, from == null);
            if (why != null)
                why =
                        "new machineconfig \""
                                + fromName
                                + "\" is not reconcilable against \""
                                + toName
                                + "\": "
                                + why;
        }
        if (why == null) return Optional.empty();
        return Optional.of(
                "can't reconcile config "
                        + fromName
                        + " with "
                        + toName
                        + ": configs "
                        + fromName
                        + ", "
                        + toName
                        + " are not reconcilable: "
                        + why);
    }

    /** What makes {@code to} invalid in itself, or null. */
    private static String invalid(String toName, MachineConfigSpec to) {
        String type = to.getKernelType();
        if (!(type == null
                || type.isEmpty()
                || type.equals("default")
                || type.equals("realtime")
                || type.equals("64k-pages"))) {
            return "validating new MachineConfig \""
                    + toName
                    + "\" failed: kernelType="
                    + type
                    + " is invalid";
        }
        List<String> unknown =
                to.getExtensions() == null
                        ? List.of()
                        : to.getExtensions().stream().filter(e -> !EXTENSIONS.contains(e)).toList();
        if (!unknown.isEmpty())
            return "validating new MachineConfig \""
                    + toName
                    + "\" failed: invalid extensions found: "
                    + unknown;
        IgnitionConfig ign = IgnitionConfig.of(to);
        String ignition = invalidIgnition(ign);
        return ignition == null
                ? null
                : "validating new Ignition config from machineconfig \""
                        + toName
                        + "\" failed: "
                        + ignition;
    }

    private static String invalidIgnition(IgnitionConfig ign) {
        int i = 0;
        for (JsonNode f : ign.at("storage.files")) {
            String path = f.path("path").asText();
            String at = "error at $.storage.files." + i++ + ".path: ";
            if (!path.startsWith("/")) return at + "path not absolute: \"" + path + "\"";
            for (String segment : path.split("/")) {
                if (segment.equals("..")) return at + "path contains \"..\": \"" + path + "\"";
            }
        }
        i = 0;
        for (JsonNode u : ign.at("systemd.units")) {
            String name = u.path("name").asText();
            String at = "error at $.systemd.units." + i++;
            int dot = name.lastIndexOf('.');
            if (name.contains("/") || dot <= 0 || !UNIT_TYPES.contains(name.substring(dot + 1))) {
                return at + ".name: invalid systemd unit extension: \"" + name + "\"";
            }
            for (JsonNode d : u.path("dropins")) {
                String dropin = d.path("name").asText();
                if (dropin.contains("/") || !dropin.endsWith(".conf"))
                    return at
                            + ".dropins: invalid systemd unit drop-in extension: \""
                            + dropin
                            + "\"";
            }
        }
        return null;
    }

    /** What {@code to} changes that cannot change in place, or null. */
    private static String unreconcilable(
            MachineConfigSpec from, MachineConfigSpec to, boolean firstConfig) {
        IgnitionConfig a = IgnitionConfig.of(from), b = IgnitionConfig.of(to);
        if (!a.passwd().equals(b.passwd())) {
            String why = passwd(a.passwd(), b.passwd());
            if (why != null) return "invalid passwd change(s): " + why;
        }
        if (!a.at("kernelArguments").equals(b.at("kernelArguments")))
            return "ignition kargs section contains changes";
        for (String section : List.of("disks", "filesystems", "raid", "directories")) {
            if (!a.at("storage." + section).equals(b.at("storage." + section)))
                return "ignition " + section + " section contains changes";
        }
        if (!a.at("storage.links").equals(b.at("storage.links"))
                && !b.at("storage.links").isMissingNode()) {
            return "ignition links section contains changes";
        }
        for (JsonNode f : b.at("storage.files")) {
            if (!f.path("append").isMissingNode())
                return "ignition file " + f.path("path").asText() + " includes append";
            if (FORCE_FILE.equals(f.path("path").asText()))
                return "cannot create " + FORCE_FILE + " via Ignition";
        }
        if (!firstConfig
                && Boolean.TRUE.equals(from.getFips()) != Boolean.TRUE.equals(to.getFips())) {
            return "detected change to FIPS flag; refusing to modify FIPS on a running cluster";
        }
        return null;
    }

    /**
     * Only the core user's SSH keys and password hash may change; groups and other users may not.
     */
    private static String passwd(JsonNode a, JsonNode b) {
        if (!a.path("groups").equals(b.path("groups")))
            return "ignition Passwd Groups section contains changes";
        if (a.path("users").equals(b.path("users"))) return null;
        List<JsonNode> users = new ArrayList<>();
        b.path("users").forEach(users::add);
        for (JsonNode u : users) {
            if (!"core".equals(u.path("name").asText()))
                return "ignition passwd user section contains unsupported changes: non-core user";
        }
        if (users.isEmpty()) return null; // a user left out is not removed from the host
        JsonNode last = users.get(users.size() - 1);
        if (!last.has("passwordHash") && last.path("sshAuthorizedKeys").isEmpty()) {
            return "ignition passwd user section contains unsupported changes: user must be core"
                    + " and have 1 or more sshKeys";
        }
        ObjectNode rest = last.deepCopy();
        rest.remove(List.of("name", "passwordHash", "sshAuthorizedKeys"));
        return rest.isEmpty() ? null : "SSH keys and password hash are not reconcilable";
    }
}
