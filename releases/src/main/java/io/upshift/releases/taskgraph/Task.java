package io.upshift.releases.taskgraph;

import io.upshift.releases.manifest.Manifest;

/**
 * One manifest to apply; {@code index} is its 1-based position in the payload, for "n of m done".
 */
public record Task(int index, Manifest manifest) {

    @Override
    public String toString() {
        return manifest.toString();
    }
}
