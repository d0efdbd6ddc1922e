package io.upshift.pools.disruption;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.upshift.api.json.Mappers;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The cluster's node disruption policies: what a change to a file (by path, or any path under a
 * directory), a systemd unit (by name) or the SSH keys takes. {@link #DEFAULTS} are the
 * machine-config operator's own (release-4.19, {@code pkg/apihelpers}); {@link #merge} lays the
 * MachineConfiguration's {@code spec.nodeDisruptionPolicy} over them as upstream's {@code
 * MergeClusterPolicies} does: a policy for a path or unit the defaults have replaces the default in
 * place, others are appended, and SSH keys take the spec's actions when it gives any. The result is
 * what {@code status.nodeDisruptionPolicyStatus.clusterPolicies} shows.
 */
public record DisruptionPolicies(
        List<FilePolicy> files, List<UnitPolicy> units, List<DisruptionAction> sshKey) {

    public record FilePolicy(String path, List<DisruptionAction> actions) {
        public FilePolicy {
            actions = List.copyOf(actions);
        }
    }

    public record UnitPolicy(String name, List<DisruptionAction> actions) {
        public UnitPolicy {
            actions = List.copyOf(actions);
        }
    }

    private static final String CRIO = "crio.service";

    public static final DisruptionPolicies DEFAULTS =
            new DisruptionPolicies(
                    List.of(
                            new FilePolicy(
                                    "/var/lib/kubelet/config.json", List.of(DisruptionAction.NONE)),
                            new FilePolicy(
                                    "/etc/machine-config-daemon/no-reboot/containers-gpg.pub",
                                    List.of(DisruptionAction.reload(CRIO))),
                            new FilePolicy(
                                    "/etc/containers/policy.json",
                                    List.of(DisruptionAction.reload(CRIO))),
                            new FilePolicy(
                                    "/etc/containers/registries.conf",
                                    List.of(DisruptionAction.SPECIAL)),
                            new FilePolicy(
                                    "/etc/containers/registries.d",
                                    List.of(DisruptionAction.reload(CRIO))),
                            new FilePolicy(
                                    "/etc/crio/policies", List.of(DisruptionAction.reload(CRIO))),
                            new FilePolicy(
                                    "/etc/nmstate/openshift", List.of(DisruptionAction.NONE)),
                            new FilePolicy(
                                    "/etc/pki/ca-trust/source/anchors/openshift-config-user-ca-bundle.crt",
                                    List.of(
                                            DisruptionAction.restart(
                                                    "coreos-update-ca-trust.service"),
                                            DisruptionAction.restart(CRIO)))),
                    List.of(),
                    List.of(DisruptionAction.NONE));

    public DisruptionPolicies {
        files = List.copyOf(files);
        units = List.copyOf(units);
        sshKey = List.copyOf(sshKey);
    }

    /**
     * The defaults with {@code spec.nodeDisruptionPolicy} laid over them; a missing policy is the
     * defaults.
     *
     * @throws IllegalArgumentException for an action type the API does not know, or a Reload or
     *     Restart without a unit
     */
    public static DisruptionPolicies merge(JsonNode nodeDisruptionPolicy) {
        List<FilePolicy> files = new ArrayList<>(DEFAULTS.files);
        for (JsonNode f : nodeDisruptionPolicy.path("files")) {
            FilePolicy p = new FilePolicy(f.path("path").asText(), actions(f.path("actions")));
            int at = files.stream().map(FilePolicy::path).toList().indexOf(p.path());
            if (at >= 0) files.set(at, p);
            else files.add(p);
        }
        List<UnitPolicy> units = new ArrayList<>(DEFAULTS.units);
        for (JsonNode u : nodeDisruptionPolicy.path("units")) {
            UnitPolicy p = new UnitPolicy(u.path("name").asText(), actions(u.path("actions")));
            int at = units.stream().map(UnitPolicy::name).toList().indexOf(p.name());
            if (at >= 0) units.set(at, p);
            else units.add(p);
        }
        List<DisruptionAction> ssh = actions(nodeDisruptionPolicy.path("sshkey").path("actions"));
        return new DisruptionPolicies(files, units, ssh.isEmpty() ? DEFAULTS.sshKey : ssh);
    }

    private static List<DisruptionAction> actions(JsonNode list) {
        List<DisruptionAction> out = new ArrayList<>();
        for (JsonNode a : list) out.add(DisruptionAction.fromJson(a));
        return out;
    }

    /**
     * The actions for a changed file: those of the policy for its path, or else for the deepest
     * directory holding it (upstream's closest match); empty when no policy covers it.
     */
    public Optional<List<DisruptionAction>> forFile(String path) {
        FilePolicy best = null;
        for (FilePolicy p : files) {
            boolean covers =
                    path.equals(p.path())
                            || path.startsWith(p.path().endsWith("/") ? p.path() : p.path() + "/");
            if (covers && (best == null || p.path().length() > best.path().length())) best = p;
        }
        return Optional.ofNullable(best).map(FilePolicy::actions);
    }

    /** The actions for a changed unit; empty when no policy names it. */
    public Optional<List<DisruptionAction>> forUnit(String name) {
        return units.stream()
                .filter(u -> u.name().equals(name))
                .findFirst()
                .map(UnitPolicy::actions);
    }

    /** As {@code status.nodeDisruptionPolicyStatus.clusterPolicies}. */
    public ObjectNode toJson() {
        ObjectNode out = Mappers.JSON.createObjectNode();
        ArrayNode f = out.putArray("files");
        for (FilePolicy p : files) {
            ArrayNode actions = f.addObject().put("path", p.path()).putArray("actions");
            p.actions().forEach(a -> actions.add(a.toJson()));
        }
        if (!units.isEmpty()) {
            ArrayNode u = out.putArray("units");
            for (UnitPolicy p : units) {
                ArrayNode actions = u.addObject().put("name", p.name()).putArray("actions");
                p.actions().forEach(a -> actions.add(a.toJson()));
            }
        }
        ArrayNode ssh = out.putObject("sshkey").putArray("actions");
        sshKey.forEach(a -> ssh.add(a.toJson()));
        return out;
    }
}
