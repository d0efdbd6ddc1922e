package io.upshift.releases.inclusion;

import io.upshift.releases.manifest.Manifest;

/**
 * A ClusterVersion {@code spec.overrides} entry: an unmanaged object is left alone by the update.
 */
public record ComponentOverride(
        String kind, String group, String namespace, String name, boolean unmanaged) {

    /**
     * True when this override names {@code m}; cluster-scoped objects match whatever namespace it
     * gives.
     */
    public boolean matches(Manifest m) {
        return kind.equals(m.kind())
                && group.equals(m.group())
                && name.equals(m.name())
                && (m.namespace().isEmpty() || namespace.equals(m.namespace()));
    }
}
