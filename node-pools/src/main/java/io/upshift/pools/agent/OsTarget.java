package io.upshift.pools.agent;

import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigSpec;
import io.upshift.pools.disruption.ConfigDiff;
import java.util.List;

/**
 * What a rendered config asks of the host's operating system: the OS image to boot, the kernel
 * arguments (in order), the RHCOS extensions to layer on, and the kernel type (default, realtime or
 * 64k-pages).
 */
public record OsTarget(
        String osImageUrl,
        List<String> kernelArguments,
        List<String> extensions,
        String kernelType) {

    public OsTarget {
        osImageUrl = osImageUrl == null ? "" : osImageUrl;
        kernelArguments = kernelArguments == null ? List.of() : List.copyOf(kernelArguments);
        extensions = extensions == null ? List.of() : List.copyOf(extensions);
        kernelType = ConfigDiff.kernelType(kernelType);
    }

    public static OsTarget of(MachineConfigSpec spec) {
        return new OsTarget(
                spec.getOsImageURL(),
                spec.getKernelArguments(),
                spec.getExtensions(),
                spec.getKernelType());
    }

    public static OsTarget image(String osImageUrl) {
        return new OsTarget(osImageUrl, List.of(), List.of(), "default");
    }

    /**
     * Nothing asked beyond what the host boots already: no image, no arguments or extensions, the
     * default kernel.
     */
    public boolean isEmpty() {
        return osImageUrl.isEmpty()
                && kernelArguments.isEmpty()
                && extensions.isEmpty()
                && kernelType.equals("default");
    }

    /**
     * The image, and what else is asked: {@code quay.example/os:2 with kernel arguments [nosmt],
     * the realtime kernel}.
     */
    public String describe() {
        StringBuilder out =
                new StringBuilder(osImageUrl.isEmpty() ? "the booted image" : osImageUrl);
        String sep = " with ";
        if (!kernelArguments.isEmpty()) {
            out.append(sep).append("kernel arguments ").append(kernelArguments);
            sep = ", ";
        }
        if (!extensions.isEmpty()) {
            out.append(sep).append("extensions ").append(extensions);
            sep = ", ";
        }
        if (!kernelType.equals("default"))
            out.append(sep).append("the ").append(kernelType).append(" kernel");
        return out.toString();
    }
}
