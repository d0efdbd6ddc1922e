package io.upshift.pools.disruption;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.upshift.api.json.Mappers;

/**
 * One node disruption action, as {@code operator.openshift.io/v1} MachineConfiguration names them:
 * Reload and Restart name a systemd unit, the others stand alone. Special is the machine-config
 * operator's own action for {@code /etc/containers/registries.conf} (a CRI-O reload; a drain unless
 * the change is known to be safe), never a user's.
 *
 * @param unit the unit a Reload or Restart acts on; empty for the other types
 */
public record DisruptionAction(Type type, String unit) {

    public enum Type {
        REBOOT("Reboot"),
        DRAIN("Drain"),
        RELOAD("Reload"),
        RESTART("Restart"),
        DAEMON_RELOAD("DaemonReload"),
        NONE("None"),
        SPECIAL("Special");

        private final String wire;

        Type(String wire) {
            this.wire = wire;
        }

        /** The name in the API. */
        public String wire() {
            return wire;
        }

        static Type parse(String wire) {
            for (Type t : values()) {
                if (t.wire.equals(wire)) return t;
            }
            throw new IllegalArgumentException(
                    "unknown node disruption action type \"" + wire + "\"");
        }
    }

    public static final DisruptionAction REBOOT = new DisruptionAction(Type.REBOOT, "");
    public static final DisruptionAction DRAIN = new DisruptionAction(Type.DRAIN, "");
    public static final DisruptionAction NONE = new DisruptionAction(Type.NONE, "");
    public static final DisruptionAction DAEMON_RELOAD =
            new DisruptionAction(Type.DAEMON_RELOAD, "");
    public static final DisruptionAction SPECIAL = new DisruptionAction(Type.SPECIAL, "");

    public DisruptionAction {
        boolean named = type == Type.RELOAD || type == Type.RESTART;
        if (named && (unit == null || unit.isEmpty()))
            throw new IllegalArgumentException(type.wire() + " needs a serviceName");
        if (!named) unit = "";
    }

    public static DisruptionAction reload(String unit) {
        return new DisruptionAction(Type.RELOAD, unit);
    }

    public static DisruptionAction restart(String unit) {
        return new DisruptionAction(Type.RESTART, unit);
    }

    /** {@code {type: Reload, reload: {serviceName: crio.service}}} and the like. */
    public static DisruptionAction fromJson(JsonNode action) {
        Type type = Type.parse(action.path("type").asText());
        return switch (type) {
            case RELOAD -> reload(action.path("reload").path("serviceName").asText(""));
            case RESTART -> restart(action.path("restart").path("serviceName").asText(""));
            default -> new DisruptionAction(type, "");
        };
    }

    public ObjectNode toJson() {
        ObjectNode out = Mappers.JSON.createObjectNode().put("type", type.wire());
        if (type == Type.RELOAD) out.putObject("reload").put("serviceName", unit);
        if (type == Type.RESTART) out.putObject("restart").put("serviceName", unit);
        return out;
    }

    /** {@code Reboot}, {@code Reload crio.service}. */
    @Override
    public String toString() {
        return unit.isEmpty() ? type.wire() : type.wire() + " " + unit;
    }
}
