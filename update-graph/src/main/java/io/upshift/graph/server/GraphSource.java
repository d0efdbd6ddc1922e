package io.upshift.graph.server;

import io.upshift.graph.model.GraphBuilder;
import io.upshift.graph.model.GraphData;
import io.upshift.graph.model.GraphException;
import io.upshift.graph.model.ReleaseEntry;
import io.upshift.releases.image.ImageRef;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;
import java.util.stream.Stream;

/** Where the graph comes from: releases (files or a registry repository) and graph data on disk. */
public interface GraphSource {

    /** Changes whenever an input changes; cheap enough to compute on every poll. */
    String fingerprint() throws IOException, GraphException;

    List<ReleaseEntry> releases() throws GraphException;

    Path graphData();

    default GraphBuilder.Built build() throws GraphException {
        return GraphBuilder.build(releases(), GraphData.load(graphData()));
    }

    /** Releases as JSON files in a directory. */
    static GraphSource files(Path releases, Path graphData) {
        return new GraphSource() {
            @Override
            public String fingerprint() throws IOException {
                return fileFingerprint(releases) + fileFingerprint(graphData);
            }

            @Override
            public List<ReleaseEntry> releases() throws GraphException {
                return ReleaseFiles.load(releases);
            }

            @Override
            public Path graphData() {
                return graphData;
            }
        };
    }

    /** Releases as the tagged release images of a registry repository. */
    static GraphSource registry(ImageRef repository, ReleaseScraper scraper, Path graphData) {
        return new GraphSource() {
            @Override
            public String fingerprint() throws IOException, GraphException {
                return scraper.digests(repository) + "\n" + fileFingerprint(graphData);
            }

            @Override
            public List<ReleaseEntry> releases() throws GraphException {
                return scraper.releases(repository);
            }

            @Override
            public Path graphData() {
                return graphData;
            }
        };
    }

    /**
     * Names, sizes and modification times of every file under {@code root}, from where its links
     * lead: a checkout published by swapping a link (git-sync's {@code current}, a ConfigMap's
     * {@code ..data}) changes with the swap.
     */
    static String fileFingerprint(Path root) throws IOException {
        StringBuilder s = new StringBuilder();
        try (Stream<Path> walk = Files.walk(root.toRealPath())) {
            for (Path p : walk.sorted().toList()) {
                BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class);
                s.append(p)
                        .append(' ')
                        .append(a.size())
                        .append(' ')
                        .append(a.lastModifiedTime().toMillis())
                        .append('\n');
            }
        }
        return s.toString();
    }
}
