package io.upshift.releases.image;

import java.util.Map;

/**
 * Architecture names as images and release metadata spell them (Go's GOARCH), from the JVM's names.
 */
public final class Architectures {

    private static final Map<String, String> FROM_JVM =
            Map.of(
                    "x86_64", "amd64", "amd64", "amd64", "aarch64", "arm64", "arm64", "arm64",
                    "ppc64le", "ppc64le", "s390x", "s390x");

    private Architectures() {}

    /**
     * The architecture this JVM runs on; the JVM's own name when it has no GOARCH counterpart here.
     */
    public static String current() {
        String arch = System.getProperty("os.arch", "");
        return FROM_JVM.getOrDefault(arch, arch);
    }
}
