package io.upshift.api.update;

import com.fasterxml.jackson.annotation.JsonInclude;

/** A reference to a Kubernetes object by group, plural resource, name and (optional) namespace. */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record ResourceRef(String group, String resource, String name, String namespace) {
    /**
     * Empty strings are written as none and read back as null: held as null, so that a reference
     * reads back equal.
     */
    public ResourceRef {
        group = group == null || group.isEmpty() ? null : group;
        namespace = namespace == null || namespace.isEmpty() ? null : namespace;
    }

    public static ResourceRef of(String group, String resource, String name) {
        return new ResourceRef(group, resource, name, null);
    }
}
