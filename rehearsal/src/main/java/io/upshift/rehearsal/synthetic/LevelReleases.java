package io.upshift.rehearsal.synthetic;

import io.upshift.releases.image.DockerCredentials;
import io.upshift.releases.image.ImageRef;
import io.upshift.releases.image.ImageStore;
import io.upshift.releases.image.Releases;
import io.upshift.releases.image.ResolvedImage;
import io.upshift.releases.verify.DirectoryStore;
import io.upshift.releases.verify.SigningKeys;
import io.upshift.status.estimate.RunLevelTimes;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

/**
 * Releases for a {@link LevelCluster}, in an OCI layout under a directory: each a payload of the
 * run-levels of {@link LevelCluster#LEVELS} (a verification ConfigMap trusting this object's own
 * key, then one ClusterOperator manifest per operator, declaring the release's version), signed or
 * not, its signatures in a directory store the verification ConfigMap names.
 */
public final class LevelReleases {
    static final String INCLUDE =
            "    include.release.openshift.io/self-managed-high-availability: \"true\"\n";

    private final Path dir;
    private final SigningKeys keys;
    private final Path store;
    private final Releases releases = new Releases(DockerCredentials.none(), false, w -> {});

    public LevelReleases(Path dir) throws Exception {
        this.dir = dir;
        this.keys =
                SigningKeys.generate(
                        "Upshift rehearsal <rehearsal@upshift.invalid>", Instant.now());
        this.store = Files.createDirectories(dir.resolve("signatures"));
    }

    /** Publishes release {@code version}; returns its pullspec by digest. */
    public String publish(String version, boolean signed) throws Exception {
        Path payload = write(dir.resolve("payload-" + version), version);
        ResolvedImage image =
                releases.publish(
                        payload,
                        version,
                        List.of(),
                        ImageRef.parse("oci:" + dir.resolve("releases") + ":" + version),
                        ImageStore.Progress.NONE);
        if (signed) {
            new DirectoryStore(store)
                    .add(
                            image.digest(),
                            keys.signer()
                                    .signRelease(
                                            image.ref().repositoryName(),
                                            image.digest(),
                                            "upshift rehearsal",
                                            Instant.now()));
        }
        return image.pullspec();
    }

    private Path write(Path payload, String version) throws Exception {
        Path m = Files.createDirectories(payload.resolve("manifests"));
        Path r = Files.createDirectories(payload.resolve("release-manifests"));
        Files.writeString(
                m.resolve("0000_00_cluster-version-operator_00_namespace.yaml"),
                "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: openshift-config-managed\n"
                        + "  annotations:\n"
                        + INCLUDE);
        StringBuilder key = new StringBuilder();
        keys.publicArmored().lines().forEach(l -> key.append("    ").append(l).append('\n'));
        Files.writeString(
                m.resolve("0000_00_cluster-version-operator_04_verification.yaml"),
                "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: release-verification\n"
                        + "  namespace: openshift-config-managed\n  annotations:\n"
                        + INCLUDE
                        + "    release.openshift.io/verification-config-map: \"\"\n"
                        + "data:\n  verifier-public-key-rehearsal: |\n"
                        + key
                        + "  store-local: "
                        + store.toUri()
                        + "\n");
        for (RunLevelTimes.Level l : LevelCluster.LEVELS) {
            for (String op : l.operators()) {
                Files.writeString(
                        r.resolve("0000_" + l.runLevel() + "_" + op + "_09_clusteroperator.yaml"),
                        "apiVersion: config.openshift.io/v1\nkind: ClusterOperator\nmetadata:\n"
                                + "  name: "
                                + op
                                + "\n  annotations:\n"
                                + INCLUDE
                                + "spec: {}\nstatus:\n  versions:\n  - name: operator\n"
                                + "    version: "
                                + version
                                + "\n");
            }
        }
        return payload;
    }
}
