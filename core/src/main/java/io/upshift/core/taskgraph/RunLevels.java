package io.upshift.core.taskgraph;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads run-level and component off payload file names ({@code 0000_<NN>_<component>_...}) and breaks a run of
 * tasks into steps: each step is a list of groups that may run in parallel, each group a list run in order.
 */
final class RunLevels {

    private static final Pattern NAME = Pattern.compile("^0000_(\\d+)_([a-zA-Z0-9]+(-[a-zA-Z0-9]+)*?)_");

    /** Run-level and component of a file, or null when the name does not follow the pattern. */
    record Key(String runLevel, String component) {
    }

    private RunLevels() {
    }

    static Key key(String fileName) {
        Matcher m = NAME.matcher(fileName);
        return m.find() ? new Key(m.group(1), m.group(2)) : null;
    }

    /**
     * Updating order: consecutive tasks of one run-level with several components become one parallel step, one
     * group per component; everything else (one component, or names without a run-level) stays serial.
     */
    static List<List<List<Task>>> byRunLevel(List<Task> tasks) {
        return split(tasks, false);
    }

    /** Initializing and reconciling order: the same groups, all in one parallel step. */
    static List<List<List<Task>>> flattened(List<Task> tasks) {
        return split(tasks, true);
    }

    private static List<List<List<Task>>> split(List<Task> tasks, boolean flatten) {
        List<List<List<Task>>> steps = new ArrayList<>();
        List<List<Task>> flat = new ArrayList<>();
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
                if (flatten) flat.addAll(components);
                else steps.add(components);
                serial = null;
            } else if (serial == null) {
                serial = new ArrayList<>(tasks.subList(start, j));
                if (flatten) flat.add(serial);
                else steps.add(new ArrayList<>(List.of(serial)));
            } else {
                serial.addAll(tasks.subList(start, j));
            }
            i = j;
        }
        if (flatten && !flat.isEmpty()) steps.add(flat);
        return steps;
    }
}
