package io.upshift.releases.image;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.cloud.tools.jib.api.DescriptorDigest;
import com.google.cloud.tools.jib.image.json.OciManifestTemplate;
import com.google.cloud.tools.jib.json.JsonTemplateMapper;
import io.upshift.api.json.Mappers;
import io.upshift.releases.metadata.Reason;
import io.upshift.releases.metadata.ReleaseException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Upshift's own container image, made without a container engine and without a base image from a
 * registry: a Java runtime cut to the modules Upshift uses (jlink of the JDK that builds it), the
 * shared libraries that runtime loads as the build machine has them, the few tools a
 * payload-retrieval Job runs ({@link #TOOLS}: {@code /bin/sh}, rm, mkdir, cp, mv, as OpenShift's
 * release image has them), a non-root user, Upshift's libraries and its jar. Layers, bottom first,
 * from the least to the most often changed: system files, runtime, libraries, Upshift. The same
 * inputs make the same image, digest included (sorted entries at the epoch, owned by root; no build
 * time anywhere).
 *
 * <p>The entry point runs {@code upshift}: {@code docker run IMAGE operator --release ...}.
 */
public final class UpshiftImage {

    /** Where Upshift lives in the image. */
    public static final String HOME = "/opt/upshift";

    public static final String JAR = HOME + "/upshift.jar";
    public static final String JAVA = HOME + "/jre/bin/java";

    /**
     * The JVM's options in the entry point, for a controller that mostly waits and must start fast
     * on a small node:
     *
     * <ul>
     *   <li>the serial collector (one thread; the live data is tens of MiB), the heap at most half
     *       the container's memory limit (the rest for metaspace, threads, buffers and the page
     *       cache the payload reads go through), given back after a full collection down to 30 %
     *       free, its young generation a sixth of it (an idle controller allocates little);
     *   <li>the client compiler alone: it compiles in a fraction of the time and memory of the
     *       server compiler, which on two cores competes with the start itself, and the
     *       controller's work is waiting on the API server, not computing;
     *   <li>a process that ends on running out of memory, so that the kubelet restarts it from
     *       cluster state instead of leaving it half alive.
     * </ul>
     *
     * <p>No class-data archive (AppCDS): it would make the start faster and smaller (1.66 s and 159
     * MiB against 2.40 s and 171 MiB, docs/benchmarks.md), but the JVM 17's dump of one differs
     * from one run to the next when the machine is busy, even with the address space not randomized
     * and an empty environment, and the image must be the same twice.
     */
    public static final List<String> JVM_OPTIONS =
            List.of(
                    "-XX:+UseSerialGC",
                    "-XX:MaxRAMPercentage=50",
                    "-XX:MinHeapFreeRatio=10",
                    "-XX:MaxHeapFreeRatio=30",
                    "-XX:NewRatio=5",
                    "-XX:TieredStopAtLevel=1",
                    "-XX:+ExitOnOutOfMemoryError");

    /** The working directory, where the entry point names the jar relatively. */
    public static final String WORKING_DIR = HOME;

    /** The entry point: {@code java}, {@link #JVM_OPTIONS}, {@code -jar upshift.jar}. */
    public static final List<String> ENTRYPOINT = entrypoint();

    private static List<String> entrypoint() {
        List<String> e = new ArrayList<>(List.of(JAVA));
        e.addAll(JVM_OPTIONS);
        e.add("-jar");
        e.add(JAR.substring(HOME.length() + 1));
        return List.copyOf(e);
    }

    /**
     * The entry point with Upshift's directory ({@value #HOME}) at {@code home} instead: the
     * image's own runtime, archive and jar unpacked there, run with {@code home} as the working
     * directory.
     */
    public static List<String> entrypoint(Path home) {
        return ENTRYPOINT.stream()
                .map(a -> a.replace(HOME + "/", home.toAbsolutePath() + "/"))
                .toList();
    }

    /** The user the image runs as: not root. */
    public static final String USER = "1001:1001";

    public static final String DEFAULT_TAG = "latest";

    /**
     * Its title label ({@value #TITLE_LABEL}), by which a release's base is known as Upshift's
     * image.
     */
    public static final String TITLE_LABEL = "org.opencontainers.image.title";

    public static final String TITLE = "upshift";

    /** The environment its config gives every container, in order. */
    public static final Map<String, String> ENV = env();

    private static Map<String, String> env() {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("PATH", HOME + "/jre/bin:/usr/sbin:/usr/bin:/sbin:/bin");
        env.put("JAVA_HOME", HOME + "/jre");
        env.put("HOME", "/tmp");
        return Collections.unmodifiableMap(env);
    }

    /**
     * What Upshift needs of the platform (jdeps of the CLI and its libraries, plus TLS curves and
     * JVM management).
     */
    static final List<String> MODULES =
            List.of(
                    "java.base",
                    "java.compiler",
                    "java.desktop",
                    "java.logging",
                    "java.management",
                    "java.naming",
                    "java.net.http",
                    "java.security.jgss",
                    "java.sql",
                    "java.xml",
                    "jdk.crypto.ec",
                    "jdk.httpserver",
                    "jdk.management",
                    "jdk.unsupported",
                    "jdk.zipfs");

    /**
     * Native parts of java.desktop that only a display loads (the image runs headless): the X11,
     * font and image libraries they need are left out.
     */
    private static final Pattern DESKTOP_ONLY =
            Pattern.compile(
                    "lib(awt_xawt|splashscreen|jawt|fontmanager|lcms|javajpeg|mlib_image)\\.so");

    private static final Pattern LDD = Pattern.compile("(?:=>\\s*)?(/\\S+)\\s+\\(0x");

    /**
     * The tools a payload-retrieval Job runs in a release image (as upstream's Job runs them in
     * OpenShift's): a shell, rm, mkdir, cp and mv; ls and cat for whoever looks inside; chroot,
     * through which the node agent runs the host's systemd. Taken from the build machine with the
     * libraries they load.
     */
    static final List<String> TOOLS =
            List.of("sh", "rm", "mkdir", "cp", "mv", "ls", "cat", "chroot");

    /**
     * @param jar Upshift's jar (its manifest's Class-Path names {@code lib/<jar>})
     * @param lib the directory of the jars it names
     * @param jdk the JDK whose jlink makes the runtime (its {@code jmods/} are read)
     * @param version the image's version label
     */
    public record Inputs(Path jar, Path lib, Path jdk, String version) {}

    private UpshiftImage() {}

    /**
     * Builds the image into {@code work} (which receives its layer files); {@code progress} hears
     * each step.
     */
    public static BuiltImage build(Inputs in, Path work, Consumer<String> progress)
            throws ReleaseException {
        try {
            if (!Files.isRegularFile(in.jar()))
                throw new ReleaseException(
                        Reason.PAYLOAD_NOT_FOUND, in.jar() + ": no such jar (build Upshift first)");
            if (!Files.isDirectory(in.jdk().resolve("jmods"))) {
                throw new ReleaseException(
                        Reason.PAYLOAD_NOT_FOUND,
                        in.jdk()
                                + " has no jmods/: a full JDK is needed to make the image's Java"
                                + " runtime");
            }
            progress.accept("linking a Java runtime of " + MODULES.size() + " modules");
            Path jre = runtime(in.jdk(), work.resolve("jre"));
            progress.accept("collecting the shared libraries it loads");
            TarLayer system = systemLayer(jre);
            TarLayer runtime = new TarLayer().addTree(jre, HOME.substring(1) + "/jre");
            TarLayer libraries = new TarLayer().addTree(in.lib(), HOME.substring(1) + "/lib");
            TarLayer upshift = new TarLayer().add(TarLayer.Entry.file(JAR, in.jar(), 0644));
            List<BuiltImage.LayerFile> layers = new ArrayList<>();
            int i = 0;
            for (TarLayer layer : List.of(system, runtime, libraries, upshift))
                layers.add(layer.write(work.resolve("layer-" + i++ + ".tar.gz")));
            progress.accept("layers written");
            byte[] config = config(in.version(), layers);
            ImageDescriptor configDescriptor =
                    new ImageDescriptor(
                            ImageBuilder.CONFIG_MEDIA_TYPE, Digests.of(config), config.length);
            OciManifestTemplate manifest = new OciManifestTemplate();
            manifest.setContainerConfiguration(
                    config.length, DescriptorDigest.fromDigest(configDescriptor.digest()));
            for (BuiltImage.LayerFile l : layers)
                manifest.addLayer(
                        l.descriptor().size(),
                        DescriptorDigest.fromDigest(l.descriptor().digest()));
            byte[] manifestBytes = JsonTemplateMapper.toByteArray(manifest);
            return new BuiltImage(
                    null,
                    layers,
                    config,
                    configDescriptor,
                    manifestBytes,
                    Digests.of(manifestBytes),
                    DEFAULT_TAG);
        } catch (IOException | DigestException e) {
            throw new ReleaseException(
                    Reason.IMAGE_INVALID, "cannot build Upshift's image: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ReleaseException(
                    Reason.IMAGE_INVALID, "interrupted while building Upshift's image", e);
        }
    }

    /**
     * Links the image's Java runtime from {@code jdk} into {@code target} (absent): the modules
     * Upshift uses.
     */
    public static Path runtime(Path jdk, Path target) throws IOException, InterruptedException {
        run(
                List.of(
                        jdk.resolve("bin/jlink").toString(),
                        "--add-modules",
                        String.join(",", MODULES),
                        "--strip-debug",
                        "--no-man-pages",
                        "--no-header-files",
                        "--compress=2",
                        "--output",
                        target.toString()));
        resolveLinks(target);
        return target;
    }

    /**
     * The image's config: entry point, non-root user, environment, labels, and its layers' diff
     * ids.
     */
    private static byte[] config(String version, List<BuiltImage.LayerFile> layers)
            throws IOException {
        ObjectNode config = Mappers.JSON.createObjectNode();
        config.put("architecture", Architectures.current()).put("os", "linux");
        ObjectNode c = config.putObject("config");
        c.put("User", USER).put("WorkingDir", WORKING_DIR);
        ArrayNode entrypoint = c.putArray("Entrypoint");
        ENTRYPOINT.forEach(entrypoint::add);
        ArrayNode env = c.putArray("Env");
        ENV.forEach((k, v) -> env.add(k + "=" + v));
        c.putObject("Labels")
                .put(TITLE_LABEL, TITLE)
                .put("org.opencontainers.image.version", version);
        ArrayNode diffIds = config.putObject("rootfs").put("type", "layers").putArray("diff_ids");
        for (BuiltImage.LayerFile l : layers) diffIds.add(l.diffId());
        return Mappers.JSON.writeValueAsBytes(config);
    }

    /**
     * The files of the operating system the runtime needs: every shared library its binaries load
     * (and the links on the way to them, as the build machine has them), the retrieval Job's tools
     * and the libraries they load, the user and group it runs as, /tmp.
     */
    private static TarLayer systemLayer(Path jre) throws IOException, InterruptedException {
        Set<Path> libraries = new LinkedHashSet<>();
        List<Path> binaries;
        try (Stream<Path> walk = Files.walk(jre)) {
            binaries =
                    walk.filter(Files::isRegularFile)
                            .filter(
                                    p ->
                                            p.getFileName().toString().endsWith(".so")
                                                    || p.getParent().endsWith("bin"))
                            .sorted()
                            .toList();
        }
        for (Path binary : binaries) {
            if (DESKTOP_ONLY.matcher(binary.getFileName().toString()).matches()) continue;
            Matcher m = LDD.matcher(run(List.of("ldd", binary.toString())));
            while (m.find()) {
                Path library = Path.of(m.group(1));
                if (!library.startsWith(jre))
                    libraries.add(library); // the runtime's own are in its layer
            }
        }
        List<Path> tools = new ArrayList<>();
        for (String tool : TOOLS) {
            Path host =
                    Stream.of("/bin/", "/usr/bin/", "/usr/sbin/", "/sbin/")
                            .map(d -> Path.of(d + tool))
                            .filter(Files::isExecutable)
                            .findFirst()
                            .orElseThrow(
                                    () ->
                                            new IOException(
                                                    "the build machine has no "
                                                            + tool
                                                            + " in /bin, /usr/bin, /usr/sbin or"
                                                            + " /sbin: the image carries it"));
            tools.add(host);
            Matcher m = LDD.matcher(linkedLibraries(host.toRealPath()));
            while (m.find()) libraries.add(Path.of(m.group(1)));
        }
        TarLayer layer = new TarLayer();
        for (Path library : libraries) addHostPath(layer, library);
        // at /bin/<tool> as on the build machine, each link on the way kept (a merged /usr's /bin,
        // /bin/sh to dash)
        for (Path tool : tools) addHostPath(layer, tool);
        layer.add(
                TarLayer.Entry.file(
                        "etc/passwd",
                        ("root:x:0:0:root:/root:/sbin/nologin\n"
                                        + "upshift:x:1001:1001:Upshift:/tmp:/sbin/nologin\n")
                                .getBytes(StandardCharsets.US_ASCII),
                        0644));
        layer.add(
                TarLayer.Entry.file(
                        "etc/group",
                        "root:x:0:\nupshift:x:1001:\n".getBytes(StandardCharsets.US_ASCII),
                        0644));
        layer.add(
                TarLayer.Entry.file(
                        "etc/hosts",
                        "127.0.0.1 localhost\n::1 localhost\n".getBytes(StandardCharsets.US_ASCII),
                        0644));
        layer.add(TarLayer.Entry.directory("tmp", 01777));
        for (String mountPoint : List.of("proc", "sys", "dev"))
            layer.add(TarLayer.Entry.directory(mountPoint, 0755));
        return layer;
    }

    /** What {@code ldd} says {@code binary} loads; nothing for a static binary. */
    private static String linkedLibraries(Path binary) throws IOException, InterruptedException {
        Process p =
                new ProcessBuilder(List.of("ldd", binary.toString()))
                        .redirectErrorStream(true)
                        .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(1, TimeUnit.MINUTES))
            throw new IOException("ldd " + binary + " did not finish");
        if (p.exitValue() != 0 && !out.contains("not a dynamic executable"))
            throw new IOException("ldd " + binary + " failed: " + out.strip());
        return p.exitValue() == 0 ? out : "";
    }

    /**
     * Adds a host file at its own path, each link on the way (a merged /usr's /lib, a loader's
     * alias) as a link.
     */
    private static void addHostPath(TarLayer layer, Path path) throws IOException {
        Path absolute = path.toAbsolutePath().normalize();
        Path walked = absolute.getRoot();
        for (Path part : absolute) {
            walked = walked.resolve(part);
            if (Files.isSymbolicLink(walked)) {
                Path target = Files.readSymbolicLink(walked);
                layer.add(TarLayer.Entry.symlink(walked.toString(), target.toString()));
                Path resolved = walked.getParent().resolve(target).normalize();
                addHostPath(layer, resolved.resolve(walked.relativize(absolute)).normalize());
                return;
            }
        }
        layer.add(
                TarLayer.Entry.file(
                        absolute.toString(), absolute, Files.isExecutable(absolute) ? 0755 : 0644));
    }

    /**
     * Replaces the links jlink copied from the JDK (Debian's cacerts points into /etc) by the files
     * they name.
     */
    private static void resolveLinks(Path jre) throws IOException {
        List<Path> links;
        try (Stream<Path> walk = Files.walk(jre)) {
            links = walk.filter(Files::isSymbolicLink).toList();
        }
        for (Path link : links) {
            Path target = link.toRealPath();
            Files.delete(link);
            Files.copy(target, link);
        }
    }

    private static String run(List<String> command) throws IOException, InterruptedException {
        return run(command, null);
    }

    private static String run(List<String> command, Path directory)
            throws IOException, InterruptedException {
        ProcessBuilder b = new ProcessBuilder(command).redirectErrorStream(true);
        if (directory != null) b.directory(directory.toFile());
        Process p = b.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(5, TimeUnit.MINUTES) || p.exitValue() != 0) {
            throw new IOException(String.join(" ", command) + " failed: " + out.strip());
        }
        return out;
    }
}
