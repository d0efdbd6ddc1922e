package io.upshift.releases.capability;

import io.upshift.releases.manifest.Manifest;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Capabilities an update must enable so that nothing the cluster runs disappears: a resource the
 * current payload applies (its capabilities enabled) that the new payload puts under capabilities
 * not enabled.
 */
public final class ImplicitCapabilities {

    private ImplicitCapabilities() {}

    public static Set<String> of(List<Manifest> current, List<Manifest> update, Capabilities caps) {
        Map<Manifest.Id, Manifest> applied = new HashMap<>();
        for (Manifest m : current) {
            if (caps.enabled().containsAll(m.capabilities())) applied.put(m.id(), m);
        }
        Set<String> implicit = new TreeSet<>();
        for (Manifest m : update) {
            if (!applied.containsKey(m.id())) continue;
            for (String c : m.capabilities()) {
                if (!caps.enabled().contains(c)) implicit.add(c);
            }
        }
        return implicit;
    }
}
