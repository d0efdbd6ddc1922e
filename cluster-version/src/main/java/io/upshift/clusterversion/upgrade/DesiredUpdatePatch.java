package io.upshift.clusterversion.upgrade;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.upshift.api.json.Mappers;
import java.util.List;

/**
 * The merge patches oc writes to {@code spec.desiredUpdate}: an update as Go marshals
 * openshift/api's {@code Update} (architecture, version, image and force always present,
 * acceptRisks only when there is a list), or null to clear it. A merge patch leaves fields it does
 * not name alone, so nobody else's spec is overwritten.
 */
final class DesiredUpdatePatch {
    private DesiredUpdatePatch() {}

    /**
     * {@code acceptRisks} null leaves the cluster's list as it is; a list (even empty) is written.
     */
    static String of(
            String architecture,
            String version,
            String image,
            boolean force,
            List<String> acceptRisks) {
        ObjectNode update = Mappers.JSON.createObjectNode();
        update.put("architecture", architecture)
                .put("version", version)
                .put("image", image)
                .put("force", force);
        if (acceptRisks != null) update.set("acceptRisks", risks(acceptRisks));
        return wrap(update);
    }

    /** {@code {"spec":{"desiredUpdate":null}}}. */
    static String clear() {
        return wrap(null);
    }

    /** Only the accepted risks; null removes the list. */
    static String acceptRisks(List<String> names) {
        ObjectNode update = Mappers.JSON.createObjectNode();
        if (names == null) update.putNull("acceptRisks");
        else update.set("acceptRisks", risks(names));
        return wrap(update);
    }

    private static ArrayNode risks(List<String> names) {
        ArrayNode list = Mappers.JSON.createArrayNode();
        for (String n : names) list.addObject().put("name", n);
        return list;
    }

    private static String wrap(ObjectNode desiredUpdate) {
        ObjectNode body = Mappers.JSON.createObjectNode();
        ObjectNode spec = body.putObject("spec");
        if (desiredUpdate == null) spec.putNull("desiredUpdate");
        else spec.set("desiredUpdate", desiredUpdate);
        return body.toString();
    }
}
