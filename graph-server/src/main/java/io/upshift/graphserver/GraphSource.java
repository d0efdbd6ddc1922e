package io.upshift.graphserver;

import io.upshift.core.graph.GraphBuilder;
import io.upshift.core.graph.GraphData;
import io.upshift.core.graph.GraphException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.stream.Stream;

/** Releases and graph data on disk, with a fingerprint that changes whenever any of their files changes. */
record GraphSource(Path releases, Path graphData) {

    GraphBuilder.Built build() throws GraphException {
        return GraphBuilder.build(ReleaseFiles.load(releases), GraphData.load(graphData));
    }

    /** Names, sizes and modification times of every file: cheap to compute on each poll. */
    String fingerprint() throws IOException {
        StringBuilder s = new StringBuilder();
        for (Path root : new Path[] {releases, graphData}) {
            try (Stream<Path> walk = Files.walk(root)) {
                for (Path p : walk.sorted().toList()) {
                    BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class);
                    s.append(p).append(' ').append(a.size()).append(' ').append(a.lastModifiedTime().toMillis()).append('\n');
                }
            }
        }
        return s.toString();
    }
}
