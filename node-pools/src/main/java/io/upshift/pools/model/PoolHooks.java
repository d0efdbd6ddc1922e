package io.upshift.pools.model;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigPool;
import io.upshift.base.gofmt.GoDuration;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * A pool's hooks, from its annotations: each of {@link HookKind}'s annotations names a ConfigMap of
 * the pool controller's namespace holding the Job's template ({@link HookTemplate}), and {@value
 * #TIMEOUT} (a Go duration, default {@code 1h}, at most {@code 24h}) is how long a hook's Job may
 * take before it holds the rollout as failed.
 *
 * @param templates by kind, only those the pool names
 */
public record PoolHooks(Map<HookKind, HookTemplate> templates, Duration timeout) {
    public static final String TIMEOUT = "upshift.io/hook-timeout";
    static final Duration DEFAULT_TIMEOUT = Duration.ofHours(1);
    static final Duration MAX_TIMEOUT = Duration.ofHours(24);

    /** A ConfigMap's name: a DNS-1123 subdomain. */
    private static final Pattern NAME =
            Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");

    /**
     * The pool's hooks, or null when it names none.
     *
     * @param configMaps the ConfigMaps of the controller's namespace, by name
     * @param required whether the pool is required for the update (the control plane's): it may not
     *     wait for itself with a {@link HookKind#BEFORE_WORKERS} hook
     * @throws IllegalArgumentException naming the annotation and what is wrong with its value or
     *     its template
     */
    public static PoolHooks of(
            MachineConfigPool pool,
            String namespace,
            Map<String, ConfigMap> configMaps,
            boolean required) {
        Map<String, String> a = pool.getMetadata().getAnnotations();
        if (a == null) return null;
        Map<HookKind, HookTemplate> templates = new EnumMap<>(HookKind.class);
        for (HookKind kind : HookKind.values()) {
            String name = a.get(kind.annotation);
            if (name == null) continue;
            String text = name.strip();
            if (!NAME.matcher(text).matches() || text.length() > 253)
                throw invalid(kind.annotation, name, "not a ConfigMap name");
            if (kind == HookKind.BEFORE_WORKERS && required)
                throw invalid(
                        kind.annotation,
                        name,
                        "the pool is required for the update ("
                                + RequiredPools.LABEL
                                + "): it would wait for itself");
            ConfigMap cm = configMaps.get(text);
            if (cm == null)
                throw invalid(kind.annotation, name, "no ConfigMap " + namespace + "/" + text);
            try {
                templates.put(kind, HookTemplate.of(cm));
            } catch (IllegalArgumentException e) {
                throw invalid(kind.annotation, name, e.getMessage());
            }
        }
        Duration timeout = timeout(a.get(TIMEOUT));
        return templates.isEmpty() ? null : new PoolHooks(Map.copyOf(templates), timeout);
    }

    /** The template of {@code kind}, or null when the pool has no such hook. */
    public HookTemplate template(HookKind kind) {
        return templates.get(kind);
    }

    private static Duration timeout(String text) {
        if (text == null) return DEFAULT_TIMEOUT;
        long nanos;
        try {
            nanos = GoDuration.parse(text.strip());
        } catch (IllegalArgumentException | ArithmeticException e) {
            throw invalid(TIMEOUT, text, "not a duration (e.g. 10m, 1h)");
        }
        if (nanos <= 0) throw invalid(TIMEOUT, text, "must be more than 0");
        Duration d = Duration.ofNanos(nanos);
        if (d.compareTo(MAX_TIMEOUT) > 0)
            throw invalid(TIMEOUT, text, "longer than " + GoDuration.format(MAX_TIMEOUT.toNanos()));
        return d;
    }

    private static IllegalArgumentException invalid(String key, String text, String why) {
        return new IllegalArgumentException("annotation " + key + " \"" + text + "\": " + why);
    }
}
