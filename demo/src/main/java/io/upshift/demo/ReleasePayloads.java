package io.upshift.demo;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;

/**
 * What the demo's releases hold: the payload of each version, and which two versions the demo
 * installs and updates to. Its simulated components ({@link SimulatedPayloads}), or copies of a
 * real payload ({@link PayloadCopies}).
 */
interface ReleasePayloads {

    /** The release installed first. */
    String from();

    /** The release the demo updates to. */
    String to();

    /**
     * Writes the payload of release {@code version} into {@code dir}, with the verification
     * ConfigMap trusting {@code publicKey}, its signatures in the directory {@code store}.
     */
    void write(Path dir, String version, String publicKey, Path store) throws IOException;

    /**
     * The versions each ClusterOperator of the payload written at {@code dir} declares, by operator
     * name, for the simulation to report them; empty when the simulation reports its operators'
     * versions from their Deployments.
     */
    Map<String, Map<String, String>> declaredOperators(Path dir);
}
