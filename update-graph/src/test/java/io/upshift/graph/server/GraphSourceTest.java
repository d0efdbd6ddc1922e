package io.upshift.graph.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GraphSourceTest {
    @TempDir Path dir;

    /**
     * As git-sync publishes a checkout: a new worktree, then the link {@code current} swapped to it
     * whole; the service is given the link.
     */
    @Test
    void graphDataBehindALinkChangesWithTheLink() throws Exception {
        Path first = Files.createDirectories(dir.resolve("worktrees/aaa/channels"));
        Files.writeString(first.resolve("stable-1.0.yaml"), "name: stable-1.0\nversions: []\n");
        Path second = Files.createDirectories(dir.resolve("worktrees/bbb/channels"));
        Files.writeString(
                second.resolve("stable-1.0.yaml"), "name: stable-1.0\nversions: [1.0.0]\n");
        Path current = dir.resolve("current");
        Files.createSymbolicLink(current, first.getParent());

        String before = GraphSource.fileFingerprint(current);
        assertThat(before).contains("stable-1.0.yaml");
        assertThat(GraphSource.fileFingerprint(current)).isEqualTo(before);

        Path swap = dir.resolve("current.new");
        Files.createSymbolicLink(swap, second.getParent());
        Files.move(swap, current, StandardCopyOption.REPLACE_EXISTING);
        assertThat(GraphSource.fileFingerprint(current)).isNotEqualTo(before);
    }
}
