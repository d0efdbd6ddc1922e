package io.upshift.releases.taskgraph;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads run-level and component off payload file names ({@code 0000_<NN>_<component>_...}) and
 * breaks a run of tasks into steps: each step is a list of groups that may run in parallel, each
 * group a list run in order.
 */
final class RunLevels {

    private static final Pattern NAME =
            Pattern.compile("^0000_(\\d+)_([a-zA-Z0-9]+(-[a-zA-Z0-9]+)*?)_");

    /** Run-level and component of a file, or null when the name does not follow the pattern. */
    record Key(String runLevel, String component) {}

    private RunLevels() {}

    static Key key(String fileName) {
        Matcher m = NAME.matcher(fileName);
        return m.find() ? new Key(m.group(1), m.group(2)) : null;
    }

    /**
     * Updating order: consecutive tasks of one run-level with several components become one
     * parallel step, one group per component; everything else (one component, or names without a
     * run-level) stays serial.
     */
    static List<List<List<Task>>> byRunLevel(List<Task> tasks) {
        return split(tasks);
    }

    /**
     * Initializing and reconciling order: one parallel step of groups, each a stretch of one
     * run-level and component (a file without a run-level is a group of its own, one per document).
     * Unlike {@link #byRunLevel}, stretches of a single component are not joined into one serial
     * group: upstream's flattening keeps them apart, and so its graph has a node for each.
     */
    static List<List<List<Task>>> flattened(List<Task> tasks) {
        if (tasks.size() <= 1) return List.of();
        List<List<Task>> groups = new ArrayList<>();
        int start = 0;
        Key base = key(tasks.get(0).manifest().file());
        for (int i = 1; i <= tasks.size(); i++) {
            Key next = i < tasks.size() ? key(tasks.get(i).manifest().file()) : null;
            if (i == tasks.size() || base == null || !base.equals(next)) {
                groups.add(new ArrayList<>(tasks.subList(start, i)));
                start = i;
            }
            base = next;
        }
        List<List<List<Task>>> steps = new ArrayList<>();
        steps.add(groups);
        return steps;
    }

    private static List<List<List<Task>>> split(List<Task> tasks) {
        List<List<List<Task>>> steps = new ArrayList<>();
        List<Key> keys = tasks.stream().map(t -> key(t.manifest().file())).toList();
        List<Task> serial = null; // the group that single-component runs keep appending to
        int i = 0;
        while (i < tasks.size()) {
            List<List<Task>> components = new ArrayList<>();
            int start = i, j = i + 1;
            Key base = keys.get(i);
            for (; j < tasks.size(); j++) {
                Key next = keys.get(j);
                if (base == null || next == null || !base.runLevel().equals(next.runLevel())) break;
                if (!Objects.equals(base.component(), next.component())) {
                    components.add(new ArrayList<>(tasks.subList(start, j)));
                    start = j;
                }
                base = next;
            }
            if (!components.isEmpty()) {
                components.add(new ArrayList<>(tasks.subList(start, j)));
                steps.add(components);
                serial = null;
            } else if (serial == null) {
                serial = new ArrayList<>(tasks.subList(start, j));
                steps.add(new ArrayList<>(List.of(serial)));
            } else {
                serial.addAll(tasks.subList(start, j));
            }
            i = j;
        }
        return steps;
    }
}
