package io.upshift.pools.agent;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A rendered config's systemd units laid out on the host as systemd reads them, without asking
 * systemd (the agent may run before the host's systemd can be asked, and a simulated host has
 * none): a unit's contents in {@code /etc/systemd/system/NAME}, each drop-in in {@code
 * NAME.d/DROPIN}; a masked unit is a link to {@code /dev/null}; an enabled one has a link in {@code
 * TARGET.wants/} (or {@code .requires/}) for each target its {@code [Install]} section names in
 * {@code WantedBy=} ({@code RequiredBy=}), as {@code systemctl enable} makes them; a disabled one
 * has none. Units the config no longer has lose their file, drop-ins and links; a unit that is
 * neither enabled nor disabled by the config is left as the host has it. systemd reads the new
 * layout at the next daemon-reload or boot: the disruption policy says which.
 */
final class SystemdUnits {
    static final String DIR = "/etc/systemd/system";

    /**
     * Where the OS image keeps its own units, for the [Install] section of a unit the config only
     * enables.
     */
    private static final List<String> VENDOR_DIRS =
            List.of("/usr/lib/systemd/system", "/lib/systemd/system");

    private final HostFiles files;

    SystemdUnits(HostFiles files) {
        this.files = files;
    }

    void apply(Map<String, JsonNode> before, Map<String, JsonNode> after) {
        for (Map.Entry<String, JsonNode> old : before.entrySet()) {
            if (!after.containsKey(old.getKey())) remove(old.getKey(), old.getValue());
        }
        for (JsonNode unit : after.values()) write(unit, before.get(unit.path("name").asText()));
    }

    private void write(JsonNode unit, JsonNode before) {
        String name = unit.path("name").asText(), path = DIR + "/" + name;
        if (unit.path("mask").asBoolean(false)) {
            files.symlink(path, "/dev/null");
            return;
        }
        String contents = unit.path("contents").asText("");
        boolean wasOurs =
                before != null
                        && (before.path("mask").asBoolean(false)
                                || !before.path("contents").asText("").isEmpty());
        if (!contents.isEmpty()) files.write(path, contents.getBytes(StandardCharsets.UTF_8), 0644);
        else if (wasOurs || "/dev/null".equals(files.linkTarget(path)))
            files.delete(path); // unmasked, or its contents left the config
        Map<String, JsonNode> dropins = HostFiles.byKey(unit.path("dropins"), "name");
        if (before != null) {
            for (String old : HostFiles.byKey(before.path("dropins"), "name").keySet()) {
                if (!dropins.containsKey(old)) files.delete(path + ".d/" + old);
            }
        }
        for (JsonNode d : dropins.values()) {
            String dropin = path + ".d/" + d.path("name").asText(),
                    text = d.path("contents").asText("");
            if (text.isEmpty()) files.delete(dropin);
            else files.write(dropin, text.getBytes(StandardCharsets.UTF_8), 0644);
        }
        if (unit.path("enabled").isBoolean()) {
            disable(name);
            if (unit.path("enabled").asBoolean()) enable(name, contents);
        }
    }

    private void remove(String name, JsonNode old) {
        String path = DIR + "/" + name;
        if (old.path("mask").asBoolean(false) || !old.path("contents").asText("").isEmpty())
            files.delete(path);
        for (String d : HostFiles.byKey(old.path("dropins"), "name").keySet())
            files.delete(path + ".d/" + d);
        if (old.path("enabled").asBoolean(false)) disable(name);
    }

    /**
     * A link to the unit in each target's .wants/ (.requires/) directory its [Install] section
     * names.
     */
    private void enable(String name, String contents) {
        String unitPath = DIR + "/" + name;
        if (contents.isEmpty()) {
            byte[] ours = files.linkTarget(unitPath) == null ? files.read(unitPath) : null;
            if (ours != null) {
                contents = new String(ours, StandardCharsets.UTF_8);
            } else {
                for (String dir : VENDOR_DIRS) {
                    byte[] vendor = files.read(dir + "/" + name);
                    if (vendor != null) {
                        contents = new String(vendor, StandardCharsets.UTF_8);
                        unitPath = dir + "/" + name;
                        break;
                    }
                }
            }
        }
        for (String[] link : install(contents))
            files.symlink(DIR + "/" + link[1] + "." + link[0] + "/" + name, unitPath);
    }

    /** Every link of the unit in a .wants/ or .requires/ directory. */
    private void disable(String name) {
        for (String entry : files.list(DIR)) {
            if (entry.endsWith(".wants") || entry.endsWith(".requires")) {
                String link = DIR + "/" + entry + "/" + name;
                if (files.exists(link)) files.delete(link);
            }
        }
    }

    /** {"wants", target} and {"requires", target} pairs from the unit's [Install] section. */
    static List<String[]> install(String contents) {
        List<String[]> out = new ArrayList<>();
        boolean inInstall = false;
        for (String raw : contents.split("\n")) {
            String line = raw.strip();
            if (line.startsWith("[")) {
                inInstall = line.equals("[Install]");
                continue;
            }
            if (!inInstall || !line.contains("=")) continue;
            String key = line.substring(0, line.indexOf('=')).strip(),
                    value = line.substring(line.indexOf('=') + 1).strip();
            String kind =
                    key.equals("WantedBy") ? "wants" : key.equals("RequiredBy") ? "requires" : null;
            if (kind == null) continue;
            for (String target : value.split("\\s+")) {
                if (!target.isEmpty()) out.add(new String[] {kind, target});
            }
        }
        return out;
    }
}
