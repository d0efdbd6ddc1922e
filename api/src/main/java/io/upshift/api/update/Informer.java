package io.upshift.api.update;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/** A producer of insights, named, with the insights it produced in the order it produced them. */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record Informer(String name, List<Insight> insights) {
    public Informer {
        insights = insights == null ? List.of() : List.copyOf(insights);
    }
}
