package io.upshift.releases.taskgraph;

/**
 * The run-level a payload file name gives ({@code 0000_50_x_...} is "50"); "-" for a name without
 * one.
 */
public final class RunLevelName {

    private RunLevelName() {}

    public static String of(String fileName) {
        RunLevels.Key key = RunLevels.key(fileName);
        return key == null ? "-" : key.runLevel();
    }
}
