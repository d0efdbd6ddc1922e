package io.upshift.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * The CRDs a test can install by name ({@code <plural>.<group>}): Upshift's own, from deploy/crds
 * ({@code /crds/} on the classpath), and stand-ins for OpenShift kinds Upshift reads but never
 * writes (FeatureGate, Proxy, DNS, Network, Infrastructure, the mirror sets: {@code
 * /openshift-crds/}), which serve the kind with any content, so that a test on a real API server
 * can create them as an OpenShift cluster has them.
 */
final class Crds {
    private Crds() {}

    static String manifest(String name) {
        for (String dir : new String[] {"/crds/", "/openshift-crds/"}) {
            try (InputStream in = Crds.class.getResourceAsStream(dir + name + ".yaml")) {
                if (in != null) return new String(in.readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        throw new IllegalArgumentException(
                "no CRD " + name + " on the classpath (deploy/crds, or testkit's openshift-crds)");
    }
}
