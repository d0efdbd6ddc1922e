package io.upshift.pools.templates;

import java.util.Locale;
import java.util.regex.Pattern;

/**
 * One template of a set: a file or a systemd unit of the MachineConfig {@code config} of {@code
 * role}, from the platform directory {@code platform} ({@code _base}, or a platform's name such as
 * {@code aws}), as upstream's machine-config operator lays its templates out in {@code
 * templates/<role>/<config>/<platform>/<kind>/<file>}. Role {@code common} has no config of its
 * own: its templates go into the first config (by name) of every role. In a ConfigMap, whose keys
 * cannot hold "/", the path's parts are joined by "." instead: {@code
 * worker.01-worker-kubelet._base.files.kubelet.yaml}, {@code
 * common._base.units.kubelet.service.yaml}.
 *
 * @param config the MachineConfig's name; null for role {@code common}
 * @param file the template's file name: within one config, a later platform directory's template of
 *     the same kind and file name replaces an earlier one (an empty one removes it)
 */
public record Template(
        String key,
        String role,
        String config,
        String platform,
        Kind kind,
        String file,
        String text) {
    public static final String COMMON = "common";
    public static final String BASE_PLATFORM = "_base";
    private static final Pattern NAME = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");
    private static final Pattern PLATFORM = Pattern.compile("_base|[a-z0-9]([-a-z0-9]*[a-z0-9])?");

    /** What a template makes: an Ignition file or a systemd unit. */
    public enum Kind {
        FILES,
        UNITS;

        String dir() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** The template stored under {@code key}. */
    public static Template parse(String key, String text) {
        boolean common = key.startsWith(COMMON + ".");
        String[] p = key.split("\\.", common ? 4 : 5);
        String layout =
                "its key is not <role>.<config>.<platform>.files|units.<file> nor"
                        + " common.<platform>.files|units.<file>";
        if (p.length != (common ? 4 : 5)) throw new TemplateException(key, layout);
        String role = p[0],
                config = common ? null : p[1],
                platform = p[common ? 1 : 2],
                kind = p[common ? 2 : 3],
                file = p[common ? 3 : 4];
        if (!NAME.matcher(role).matches()
                || (config != null && !NAME.matcher(config).matches())
                || !PLATFORM.matcher(platform).matches()
                || file.isEmpty()) {
            throw new TemplateException(
                    key, layout + " (names are lower-case letters, digits and \"-\")");
        }
        for (Kind k : Kind.values()) {
            if (k.dir().equals(kind))
                return new Template(key, role, config, platform, k, file, text);
        }
        throw new TemplateException(
                key, "unknown kind \"" + kind + "\": templates are files or units");
    }

    public boolean isCommon() {
        return config == null;
    }
}
