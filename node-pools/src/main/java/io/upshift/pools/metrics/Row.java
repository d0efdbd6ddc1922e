package io.upshift.pools.metrics;

import java.util.List;

/** One series of a family: its label values (in the family's label order) and its value. */
public record Row(Family family, List<String> labelValues, double value) {

    public Row {
        labelValues = labelValues.stream().map(v -> v == null ? "" : v).toList();
        if (labelValues.size() != family.labels().size())
            throw new IllegalArgumentException(
                    family.name()
                            + " has labels "
                            + family.labels()
                            + ", not "
                            + labelValues.size()
                            + " values");
    }
}
