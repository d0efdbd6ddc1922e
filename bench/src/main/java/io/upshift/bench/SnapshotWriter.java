package io.upshift.bench;

import io.fabric8.kubernetes.api.model.ContainerImage;
import io.fabric8.kubernetes.api.model.ContainerImageBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeSystemInfoBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.upshift.status.snapshot.SnapshotDump;
import io.upshift.status.synthetic.SyntheticCluster;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Writes a {@link SyntheticCluster} as a snapshot directory, one {@code List} file per kind, as
 * {@code kubectl get -o yaml} would. With {@code --realistic}, nodes carry the image lists,
 * capacity and system info real nodes have, which makes files the size of a real cluster's.
 *
 * <p>Usage: {@code SnapshotWriter DIR NODES POOLS OPERATORS PROGRESS [--realistic]}
 */
public final class SnapshotWriter {
    private SnapshotWriter() {}

    public static void main(String[] args) throws IOException {
        if (args.length < 5) {
            System.err.println(
                    "usage: SnapshotWriter DIR NODES POOLS OPERATORS PROGRESS [--realistic]");
            System.exit(2);
        }
        Path dir = Path.of(args[0]);
        SyntheticCluster cluster =
                new SyntheticCluster(
                        Integer.parseInt(args[1]),
                        Integer.parseInt(args[2]),
                        Integer.parseInt(args[3]),
                        Double.parseDouble(args[4]),
                        Instant.parse("2026-11-20T10:00:00Z"));
        boolean realistic = args.length > 5 && args[5].equals("--realistic");
        write(dir, cluster, realistic);
    }

    public static void write(Path dir, SyntheticCluster cluster, boolean realistic)
            throws IOException {
        List<HasMetadata> objects = cluster.objects();
        if (realistic) {
            objects.stream().filter(Node.class::isInstance).forEach(n -> addBulk((Node) n));
        }
        SnapshotDump.write(dir, objects);
    }

    /**
     * Gives a node the image list, capacity and system info a real node reports (about 8 KB of
     * YAML).
     */
    static void addBulk(Node n) {
        var images = new ArrayList<ContainerImage>();
        for (int i = 0; i < 40; i++) {
            images.add(
                    new ContainerImageBuilder()
                            .withNames(
                                    "quay.io/upshift/component-"
                                            + i
                                            + "@sha256:"
                                            + String.format("%064x", i * 7919L),
                                    "quay.io/upshift/component-" + i + ":v4.17." + i)
                            .withSizeBytes(100_000_000L + i)
                            .build());
        }
        n.getStatus().setImages(images);
        n.getStatus()
                .setCapacity(
                        Map.of(
                                "cpu",
                                new Quantity("16"),
                                "memory",
                                new Quantity("65842124Ki"),
                                "pods",
                                new Quantity("250"),
                                "ephemeral-storage",
                                new Quantity("125293548Ki")));
        n.getStatus().setAllocatable(n.getStatus().getCapacity());
        n.getStatus()
                .setNodeInfo(
                        new NodeSystemInfoBuilder()
                                .withArchitecture("amd64")
                                .withBootID("0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0")
                                .withContainerRuntimeVersion("cri-o://1.30.4")
                                .withKernelVersion("5.14.0-427.33.1.el9_4.x86_64")
                                .withKubeProxyVersion("v1.30.4")
                                .withKubeletVersion("v1.30.4")
                                .withMachineID("ec2a1b2c3d4e5f60718293a4b5c6d7e8")
                                .withOperatingSystem("linux")
                                .withOsImage("Red Hat Enterprise Linux CoreOS 417.94")
                                .withSystemUUID("ec2a1b2c-3d4e-5f60-7182-93a4b5c6d7e8")
                                .build());
    }
}
