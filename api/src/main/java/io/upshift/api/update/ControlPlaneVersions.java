package io.upshift.api.update;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/** The version the control plane updates from and the one it updates to. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ControlPlaneVersions(Version previous, Version target) {

    /**
     * A version with metadata such as {@code Installation}, {@code Partial} or {@code
     * Architecture}.
     */
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    public record Version(String version, List<Metadata> metadata) {
        public Version {
            metadata = metadata == null ? List.of() : List.copyOf(metadata);
        }

        public boolean has(String key) {
            return metadata.stream().anyMatch(m -> m.key().equals(key));
        }
    }

    /**
     * One key/value of version metadata. An empty value is written as none (upstream's {@code
     * omitempty}) and so reads back as null: it is held as null, so that what was written and what
     * is read back are equal.
     */
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    public record Metadata(String key, String value) {
        public Metadata {
            value = value == null || value.isEmpty() ? null : value;
        }
    }

    public static final String INSTALLATION = "Installation";
    public static final String PARTIAL = "Partial";
    public static final String ARCHITECTURE = "Architecture";
}
