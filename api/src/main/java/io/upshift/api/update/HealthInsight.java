package io.upshift.api.update;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/** Something that needs (or may need) an administrator's attention during the update. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record HealthInsight(String startedAt, Scope scope, Impact impact, Remediation remediation) {

    /** What the insight is about. */
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    public record Scope(ScopeType type, List<ResourceRef> resources) {
        public Scope {
            resources = resources == null ? List.of() : List.copyOf(resources);
        }
    }

    /** How bad it is, of which kind, in one line and in full. */
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    public record Impact(ImpactLevel level, String type, String summary, String description) {}

    /** Where to read what to do. */
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    public record Remediation(String reference, String estimatedFinish) {}
}
