package io.upshift.api.update;

import com.fasterxml.jackson.annotation.JsonInclude;

/** The spec of an insight object: empty, insights only report (as upstream's kinds). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class InsightSpec {
    @Override
    public boolean equals(Object o) {
        return o instanceof InsightSpec;
    }

    @Override
    public int hashCode() {
        return 2;
    }
}
