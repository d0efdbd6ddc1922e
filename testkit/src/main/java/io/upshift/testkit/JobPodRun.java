package io.upshift.testkit;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import java.io.IOException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * One run of a pod, as a kubelet runs it: its init containers one after the other, then its
 * container, each on a file system made of the image's root (read-only when the container says so)
 * and the pod's hostPath volumes at their mount paths; the first container that exits non-zero ends
 * the run. A container runs one of the tools a payload-retrieval Job uses, as coreutils' behave:
 * {@code rm -fR}, {@code mkdir}, {@code cp -r} and {@code mv}; any other command exits non-zero
 * saying the simulation does not run it.
 */
final class JobPodRun {

    /**
     * How the run ended: the statuses the kubelet reports, and whether every container exited 0.
     */
    record Result(
            boolean succeeded,
            List<ContainerStatus> initContainers,
            List<ContainerStatus> containers) {}

    /**
     * A container's exit: non-zero with what it wrote to its standard error (its termination
     * message, as FallbackToLogsOnError gives).
     */
    private static final class Exit extends Exception {
        final int code;

        Exit(int code, String message) {
            super(message, null, false, false);
            this.code = code;
        }
    }

    private final PodSpec spec;
    private final Path imageRoot;

    /**
     * @param imageRoot the image's file system, unpacked (at least the directories the pod reads)
     */
    JobPodRun(PodSpec spec, Path imageRoot) {
        this.spec = spec;
        this.imageRoot = imageRoot;
    }

    Result run() {
        List<ContainerStatus> init = new ArrayList<>(), main = new ArrayList<>();
        boolean ok = true;
        for (Container c :
                spec.getInitContainers() == null
                        ? List.<Container>of()
                        : spec.getInitContainers()) {
            init.add(ok ? runOne(c) : waiting(c));
            ok = ok && exitCode(init.get(init.size() - 1)) == 0;
        }
        for (Container c : spec.getContainers()) {
            main.add(ok ? runOne(c) : waiting(c));
            ok = ok && exitCode(main.get(main.size() - 1)) == 0;
        }
        return new Result(ok, init, main);
    }

    private static int exitCode(ContainerStatus s) {
        return s.getState().getTerminated() == null
                ? -1
                : s.getState().getTerminated().getExitCode();
    }

    private static ContainerStatus waiting(Container c) {
        return new ContainerStatusBuilder()
                .withName(c.getName())
                .withImage(c.getImage())
                .withReady(false)
                .withRestartCount(0)
                .withNewState()
                .withNewWaiting()
                .withReason("PodInitializing")
                .endWaiting()
                .endState()
                .build();
    }

    private ContainerStatus runOne(Container c) {
        int code = 0;
        String message = null;
        try {
            new Tools(c)
                    .run(
                            c.getCommand() == null ? List.of() : c.getCommand(),
                            c.getArgs() == null ? List.of() : c.getArgs());
        } catch (Exit e) {
            code = e.code;
            message = e.getMessage() + "\n";
        }
        return new ContainerStatusBuilder()
                .withName(c.getName())
                .withImage(c.getImage())
                .withReady(false)
                .withRestartCount(0)
                .withNewState()
                .withNewTerminated()
                .withExitCode(code)
                .withReason(code == 0 ? "Completed" : "Error")
                .withMessage(message)
                .endTerminated()
                .endState()
                .build();
    }

    /** The tools, on one container's view of the file system. */
    private final class Tools {
        /** Mount path to host directory, longest first. */
        private final TreeMap<String, Path> mounts =
                new TreeMap<>(
                        Comparator.comparing(String::length).reversed().thenComparing(s -> s));

        private final boolean readOnlyRoot;
        private final String workingDir;

        Tools(Container c) {
            Map<String, Volume> volumes = new TreeMap<>();
            for (Volume v : spec.getVolumes() == null ? List.<Volume>of() : spec.getVolumes())
                volumes.put(v.getName(), v);
            for (VolumeMount m :
                    c.getVolumeMounts() == null ? List.<VolumeMount>of() : c.getVolumeMounts()) {
                Volume v = volumes.get(m.getName());
                if (v == null || v.getHostPath() == null)
                    throw new IllegalStateException(
                            "the simulated kubelet mounts hostPath volumes only: " + m.getName());
                mounts.put(
                        Path.of(m.getMountPath()).normalize().toString(),
                        Path.of(v.getHostPath().getPath()));
            }
            readOnlyRoot =
                    c.getSecurityContext() != null
                            && Boolean.TRUE.equals(
                                    c.getSecurityContext().getReadOnlyRootFilesystem());
            workingDir =
                    c.getWorkingDir() == null || c.getWorkingDir().isEmpty()
                            ? "/"
                            : c.getWorkingDir();
        }

        void run(List<String> command, List<String> args) throws Exit {
            List<String> argv = new ArrayList<>(command);
            argv.addAll(args);
            if (command.isEmpty()) {
                throw new Exit(
                        128,
                        "the simulated kubelet cannot run the image's entry point; give the"
                                + " container a command: rm, mkdir, cp or mv");
            }
            String tool = argv.get(0);
            List<String> rest = argv.subList(1, argv.size());
            switch (tool) {
                case "rm" -> rm(rest);
                case "mkdir" -> mkdir(rest);
                case "cp" -> cp(rest);
                case "mv" -> mv(rest);
                default ->
                        throw new Exit(
                                127,
                                "exec: \""
                                        + tool
                                        + "\": the simulated kubelet runs rm, mkdir, cp and mv"
                                        + " only, not "
                                        + String.join(" ", argv));
            }
        }

        /**
         * A path inside the container, as a path of this machine, and whether it can be written.
         */
        private record Place(String inside, Path path, boolean writable, String filesystem) {}

        private Place place(String p) {
            String inside = Path.of(workingDir).resolve(p).normalize().toString();
            for (Map.Entry<String, Path> m : mounts.entrySet()) {
                if (inside.equals(m.getKey())
                        || inside.startsWith(
                                m.getKey().endsWith("/") ? m.getKey() : m.getKey() + "/")) {
                    String rel = inside.substring(m.getKey().length()).replaceFirst("^/+", "");
                    return new Place(
                            inside,
                            rel.isEmpty() ? m.getValue() : m.getValue().resolve(rel),
                            true,
                            m.getKey());
                }
            }
            String rel = inside.replaceFirst("^/+", "");
            return new Place(
                    inside, rel.isEmpty() ? imageRoot : imageRoot.resolve(rel), !readOnlyRoot, "/");
        }

        private static List<String> operands(
                List<String> args, String tool, String allowed, List<Character> seen) throws Exit {
            List<String> operands = new ArrayList<>();
            for (String a : args) {
                if (a.startsWith("-") && a.length() > 1 && operands.isEmpty()) {
                    for (char f : a.substring(1).toCharArray()) {
                        if (allowed.indexOf(f) < 0)
                            throw new Exit(
                                    1,
                                    tool
                                            + ": invalid option -- '"
                                            + f
                                            + "' (the simulated "
                                            + tool
                                            + " takes -"
                                            + allowed
                                            + ")");
                        seen.add(f);
                    }
                } else {
                    operands.add(a);
                }
            }
            return operands;
        }

        private void rm(List<String> args) throws Exit {
            List<Character> flags = new ArrayList<>();
            List<String> operands = operands(args, "rm", "fRr", flags);
            boolean force = flags.contains('f'),
                    recursive = flags.contains('R') || flags.contains('r');
            if (operands.isEmpty() && !force) throw new Exit(1, "rm: missing operand");
            for (String o : operands) {
                Place p = place(o);
                if (!Files.exists(p.path(), LinkOption.NOFOLLOW_LINKS)) {
                    if (force) continue;
                    throw new Exit(1, "rm: cannot remove '" + o + "': No such file or directory");
                }
                if (Files.isDirectory(p.path(), LinkOption.NOFOLLOW_LINKS) && !recursive)
                    throw new Exit(1, "rm: cannot remove '" + o + "': Is a directory");
                if (!p.writable())
                    throw new Exit(1, "rm: cannot remove '" + o + "': Read-only file system");
                try {
                    delete(p.path());
                } catch (IOException e) {
                    throw new Exit(1, "rm: cannot remove '" + o + "': " + e.getMessage());
                }
            }
        }

        private void mkdir(List<String> args) throws Exit {
            List<Character> flags = new ArrayList<>();
            List<String> operands = operands(args, "mkdir", "p", flags);
            if (operands.isEmpty()) throw new Exit(1, "mkdir: missing operand");
            for (String o : operands) {
                Place p = place(o);
                if (!p.writable())
                    throw new Exit(
                            1, "mkdir: cannot create directory '" + o + "': Read-only file system");
                try {
                    if (flags.contains('p')) Files.createDirectories(p.path());
                    else Files.createDirectory(p.path());
                } catch (FileAlreadyExistsException e) {
                    throw new Exit(1, "mkdir: cannot create directory '" + o + "': File exists");
                } catch (NoSuchFileException e) {
                    throw new Exit(
                            1,
                            "mkdir: cannot create directory '"
                                    + o
                                    + "': No such file or directory");
                } catch (IOException e) {
                    throw new Exit(
                            1, "mkdir: cannot create directory '" + o + "': " + e.getMessage());
                }
            }
        }

        /**
         * The SOURCE of {@code tool SOURCE DEST}, which exists, as coreutils would refuse
         * otherwise.
         */
        private Place source(String tool, String does, List<String> operands) throws Exit {
            if (operands.size() != 2)
                throw new Exit(
                        1,
                        tool
                                + ": the simulated "
                                + tool
                                + " "
                                + does
                                + " one SOURCE to one DEST, not "
                                + String.join(" ", operands));
            Place from = place(operands.get(0));
            if (!Files.exists(from.path(), LinkOption.NOFOLLOW_LINKS)) {
                throw new Exit(
                        1,
                        tool
                                + ": cannot stat '"
                                + operands.get(0)
                                + "': No such file or directory");
            }
            return from;
        }

        /** {@code cp [-r] SOURCE DEST}: into DEST when it is a directory, else as DEST. */
        private void cp(List<String> args) throws Exit {
            List<Character> flags = new ArrayList<>();
            List<String> operands = operands(args, "cp", "rR", flags);
            Place from = source("cp", "copies", operands);
            Place to = destination(operands.get(0), place(operands.get(1)));
            if (Files.isDirectory(from.path(), LinkOption.NOFOLLOW_LINKS) && flags.isEmpty()) {
                throw new Exit(
                        1, "cp: -r not specified; omitting directory '" + operands.get(0) + "'");
            }
            copy(operands, from, to);
        }

        /**
         * {@code mv [-f] SOURCE DEST}: into DEST when it is a directory, else as DEST; a rename
         * within a file system.
         */
        private void mv(List<String> args) throws Exit {
            List<String> operands = operands(args, "mv", "f", new ArrayList<>());
            Place from = source("mv", "moves", operands);
            Place to = destination(operands.get(0), place(operands.get(1)));
            if (from.filesystem().equals(to.filesystem())) {
                if (!to.writable())
                    throw new Exit(
                            1,
                            "mv: cannot move '"
                                    + operands.get(0)
                                    + "' to '"
                                    + operands.get(1)
                                    + "': Read-only file system");
                try {
                    Files.move(from.path(), to.path(), StandardCopyOption.ATOMIC_MOVE);
                } catch (DirectoryNotEmptyException | FileAlreadyExistsException e) {
                    throw new Exit(
                            1,
                            "mv: cannot move '"
                                    + operands.get(0)
                                    + "' to '"
                                    + to.inside()
                                    + "': Directory not empty");
                } catch (IOException e) {
                    throw new Exit(
                            1,
                            "mv: cannot move '"
                                    + operands.get(0)
                                    + "' to '"
                                    + to.inside()
                                    + "': "
                                    + e.getMessage());
                }
                return;
            }
            // across file systems mv copies, then removes the source
            copy(operands, from, to);
            if (!from.writable())
                throw new Exit(
                        1, "mv: cannot remove '" + operands.get(0) + "': Read-only file system");
            try {
                delete(from.path());
            } catch (IOException e) {
                throw new Exit(1, "mv: cannot remove '" + operands.get(0) + "': " + e.getMessage());
            }
        }

        private Place destination(String source, Place dest) {
            if (!Files.isDirectory(dest.path())) return dest;
            String name = Path.of(source).getFileName().toString();
            return new Place(
                    dest.inside() + "/" + name,
                    dest.path().resolve(name),
                    dest.writable(),
                    dest.filesystem());
        }

        private void copy(List<String> operands, Place from, Place to) throws Exit {
            String tool = "cp";
            if (!to.writable())
                throw new Exit(
                        1, tool + ": cannot create '" + to.inside() + "': Read-only file system");
            if (!Files.isDirectory(to.path().getParent()))
                throw new Exit(
                        1,
                        tool + ": cannot create '" + to.inside() + "': No such file or directory");
            try (Stream<Path> walk = Files.walk(from.path())) {
                for (Path p : walk.sorted().toList()) {
                    Path target = to.path().resolve(from.path().relativize(p).toString());
                    if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
                        if (!Files.isDirectory(target)) Files.createDirectory(target);
                    } else {
                        Files.copy(
                                p,
                                target,
                                LinkOption.NOFOLLOW_LINKS,
                                StandardCopyOption.REPLACE_EXISTING);
                    }
                }
            } catch (IOException e) {
                throw new Exit(
                        1,
                        tool
                                + ": cannot copy '"
                                + operands.get(0)
                                + "' to '"
                                + to.inside()
                                + "': "
                                + e);
            }
        }
    }

    private static void delete(Path path) throws IOException {
        if (Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS)) {
            try (Stream<Path> walk = Files.walk(path)) {
                for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) Files.delete(p);
            }
        } else {
            Files.delete(path);
        }
    }
}
