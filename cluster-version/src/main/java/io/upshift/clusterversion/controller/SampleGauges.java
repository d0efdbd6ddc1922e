package io.upshift.clusterversion.controller;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.upshift.clusterversion.metrics.Gauges;
import io.upshift.clusterversion.metrics.Sample;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Gauges whose rows are computed elsewhere and replaced as a whole: one Micrometer {@link
 * MultiGauge} per gauge, so that the rows of objects that went away are removed with them. No base
 * unit is set, so the Prometheus registry exports each under its name unchanged.
 */
public final class SampleGauges {

    private final Map<String, Gauges.Gauge> definitions = new LinkedHashMap<>();
    private final Map<String, MultiGauge> gauges = new LinkedHashMap<>();

    public SampleGauges(MeterRegistry registry, List<Gauges.Gauge> of) {
        for (Gauges.Gauge g : of) {
            definitions.put(g.name(), g);
            gauges.put(
                    g.name(),
                    MultiGauge.builder(g.name()).description(g.help()).register(registry));
        }
    }

    /**
     * Every gauge shows exactly {@code samples}' rows from now on; a gauge without any shows none.
     */
    public synchronized void set(List<Sample> samples) {
        Map<String, List<MultiGauge.Row<?>>> rows = new LinkedHashMap<>();
        Map<String, Set<Tags>> seen = new LinkedHashMap<>();
        for (Sample s : samples) {
            Gauges.Gauge g = definitions.get(s.name());
            if (g == null)
                throw new IllegalArgumentException("no gauge " + s.name() + " is registered");
            if (!List.copyOf(s.labels().keySet()).equals(g.labels())) {
                throw new IllegalArgumentException(
                        s.name() + " has labels " + g.labels() + ", not " + s.labels().keySet());
            }
            Tags tags = Tags.empty();
            for (Map.Entry<String, String> l : s.labels().entrySet())
                tags = tags.and(l.getKey(), l.getValue());
            // the same labels twice (two conditions of one type): the first row, as one series can
            // hold one value
            if (!seen.computeIfAbsent(s.name(), k -> new LinkedHashSet<>()).add(tags)) continue;
            rows.computeIfAbsent(s.name(), k -> new ArrayList<>())
                    .add(MultiGauge.Row.of(tags, s.value()));
        }
        gauges.forEach((name, gauge) -> gauge.register(rows.getOrDefault(name, List.of()), true));
    }
}
