package io.upshift.pools.disruption;

import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;

/**
 * What differs between the config a node runs and the one it is told, as the machine-config
 * daemon's {@code machineConfigDiff} sees it: the OS image, kernel arguments (order matters; none
 * and an empty list are the same), FIPS, the kernel type (empty and unknown mean default),
 * extensions, the Ignition {@code passwd} section (SSH keys), and which files (by path: added,
 * removed or changed in contents, mode or anything else) and systemd units (by name: contents,
 * enabled, mask, drop-ins) changed.
 */
public record ConfigDiff(
        boolean osImage,
        boolean kernelArguments,
        boolean fips,
        boolean kernelType,
        boolean extensions,
        boolean passwd,
        List<String> files,
        List<String> units) {

    public ConfigDiff {
        files = List.copyOf(files);
        units = List.copyOf(units);
    }

    public static ConfigDiff between(MachineConfigSpec from, MachineConfigSpec to) {
        MachineConfigSpec a = from == null ? new MachineConfigSpec() : from,
                b = to == null ? new MachineConfigSpec() : to;
        IgnitionConfig ia = IgnitionConfig.of(a), ib = IgnitionConfig.of(b);
        return new ConfigDiff(
                !Objects.equals(text(a.getOsImageURL()), text(b.getOsImageURL())),
                !sameList(a.getKernelArguments(), b.getKernelArguments()),
                Boolean.TRUE.equals(a.getFips()) != Boolean.TRUE.equals(b.getFips()),
                !kernelType(a.getKernelType()).equals(kernelType(b.getKernelType())),
                !sameList(a.getExtensions(), b.getExtensions()),
                !ia.passwd().equals(ib.passwd()),
                changed(ia.files(), ib.files()),
                changed(ia.units(), ib.units()));
    }

    /**
     * Upstream's canonical kernel type: realtime and 64k-pages are themselves, anything else is
     * default.
     */
    public static String kernelType(String type) {
        return "realtime".equals(type) || "64k-pages".equals(type) ? type : "default";
    }

    /** True when something needs an OS change, which only a reboot brings. */
    public boolean osChange() {
        return osImage || kernelArguments || fips || kernelType || extensions;
    }

    public boolean isEmpty() {
        return !osChange() && !passwd && files.isEmpty() && units.isEmpty();
    }

    private static String text(String s) {
        return s == null ? "" : s;
    }

    private static boolean sameList(List<String> a, List<String> b) {
        boolean emptyA = a == null || a.isEmpty(), emptyB = b == null || b.isEmpty();
        return (emptyA && emptyB) || Objects.equals(a, b);
    }

    /** Keys added, removed or changed, in key order. */
    private static <V> List<String> changed(Map<String, V> a, Map<String, V> b) {
        TreeSet<String> keys = new TreeSet<>(a.keySet());
        keys.addAll(b.keySet());
        List<String> out = new ArrayList<>();
        for (String k : keys) {
            if (!Objects.equals(a.get(k), b.get(k))) out.add(k);
        }
        return out;
    }
}
