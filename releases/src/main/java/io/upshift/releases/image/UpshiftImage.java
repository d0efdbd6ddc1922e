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
import java.nio.file.attribute.FileTime;
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
 * release image has them), a non-root user, Upshift's libraries (a signed jar without its
 * signature: {@link UnsignedJar}) and its jar. Layers, bottom first, from the least to the most
 * often changed: system files, runtime, libraries, Upshift. The same inputs make the same image,
 * digest included (sorted entries at the epoch, owned by root; no build time anywhere).
 *
 * <p>The entry point runs {@code upshift}: {@code docker run IMAGE operator --release ...}.
 */
public final class UpshiftImage {

    /** Where Upshift lives in the image. */
    public static final String HOME = "/opt/upshift";

    public static final String JAR = HOME + "/upshift.jar";
    public static final String JAVA = HOME + "/jre/bin/java";

    /**
     * The class-data archive (AppCDS) the entry point maps when the image has one: the classes an
     * operator loads from its start to its first sync ({@link #CLASS_LIST}), parsed, verified and
     * laid out once at image build time instead of at every start. Made only by a JDK whose dumps
     * are reproducible ({@link ImageJdk#makesReproducibleArchive()}).
     */
    public static final String CDS_ARCHIVE = HOME + "/upshift.jsa";

    /** {@link #CDS_ARCHIVE} as the entry point names it, in the working directory. */
    private static final String ARCHIVE_FILE = CDS_ARCHIVE.substring(HOME.length() + 1);

    /**
     * The classes of the archive, one per line, as {@code -XX:DumpLoadedClassList} writes them:
     * from a training run of the operator (its start, the Lease, its caches, its first sync and a
     * pod takeover) against the demo's API server, made again by {@code bench/run OperatorFootprint
     * --train} when the code changes much. A class not in it loads as before; one in it that no
     * longer exists is skipped.
     */
    public static final String CLASS_LIST = "upshift.classlist";

    /**
     * The JVM's options in the entry point, for a controller that mostly waits and must start fast
     * on a small node:
     *
     * <ul>
     *   <li>the serial collector (one thread; the live data is tens of MiB), the heap at most half
     *       the container's memory limit (the rest for metaspace, threads, buffers and the page
     *       cache the payload reads go through), grown to keep 5 % free and given back after a full
     *       collection down to 10 % free, in one step rather than over four collections (the
     *       operator collects once after its first sync, {@code Startup.firstSync}, and then
     *       whenever its old generation holds a quarter, at least 24 MiB, more than its live data,
     *       {@code OldGeneration}), its young generation a sixth of it (an idle controller
     *       allocates little);
     *   <li>the client compiler alone: it compiles in a fraction of the time and memory of the
     *       server compiler, which on two cores competes with the start itself, and the
     *       controller's work is waiting on the API server, not computing;
     *   <li>a process that ends on running out of memory, so that the kubelet restarts it from
     *       cluster state instead of leaving it half alive.
     * </ul>
     */
    public static final List<String> JVM_OPTIONS =
            List.of(
                    "-XX:+UseSerialGC",
                    "-XX:MaxRAMPercentage=50",
                    "-XX:MinHeapFreeRatio=5",
                    "-XX:MaxHeapFreeRatio=10",
                    "-XX:-ShrinkHeapInSteps",
                    "-XX:NewRatio=5",
                    "-XX:TieredStopAtLevel=1",
                    "-XX:+ExitOnOutOfMemoryError");

    /**
     * The options of an image with a class-data archive, after {@link #JVM_OPTIONS}; the archive is
     * made only by a JDK 25 or newer ({@link ImageJdk}), whose options these are: object headers of
     * 8 bytes rather than 12 (a smaller heap; the archive is dumped with them too), the C heap
     * trimmed every 30 s (freed native memory given back, as an idle process frees much after its
     * start), and the archive, mapped where it was laid out rather than moved to a random address
     * (moving it writes every page of it, tens of MiB of each process's memory, and takes a quarter
     * of a second). When the JVM finds that the archive does not match (a jar changed), it starts
     * without it, as without one. Netty (the health, metrics and graph servers) uses {@code
     * sun.misc.Unsafe}'s memory methods, which this JDK allows only with a warning on every start
     * unless told to; the jar's manifest enables its native library ({@code Enable-Native-Access}),
     * which the option would do too but would turn off the archive's module graph.
     */
    public static final List<String> ARCHIVE_OPTIONS =
            List.of(
                    "-XX:+UseCompactObjectHeaders",
                    "-XX:TrimNativeHeapInterval=30000",
                    "-XX:SharedArchiveFile=" + ARCHIVE_FILE,
                    "-XX:+UnlockDiagnosticVMOptions",
                    "-XX:ArchiveRelocationMode=0",
                    "--sun-misc-unsafe-memory-access=allow");

    /**
     * The working directory, where the entry point names the jar and the archive relatively: the
     * archive holds the class path as it was given when it was made, so the same relative name is
     * valid at build time (in the build's directory) and in the container.
     */
    public static final String WORKING_DIR = HOME;

    /**
     * The entry point: {@code java}, {@link #JVM_OPTIONS}, with an archive {@link
     * #ARCHIVE_OPTIONS}, {@code -jar upshift.jar}.
     */
    public static List<String> entrypoint(boolean archive) {
        List<String> e = new ArrayList<>(List.of(JAVA));
        e.addAll(JVM_OPTIONS);
        if (archive) e.addAll(ARCHIVE_OPTIONS);
        e.add("-jar");
        e.add(JAR.substring(HOME.length() + 1));
        return List.copyOf(e);
    }

    /**
     * The entry point of the image whose {@value #HOME} is at {@code home} (its runtime, jar and
     * any archive unpacked there), to be run with {@code home} as the working directory.
     */
    public static List<String> entrypoint(Path home) {
        boolean archive = Files.isRegularFile(home.resolve(ARCHIVE_FILE));
        return entrypoint(archive).stream()
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
        // two malloc arenas instead of one per thread that ever allocated (up to 8 per core): the
        // JVM's own allocations are few, each idle arena holds MiBs
        env.put("MALLOC_ARENA_MAX", "2");
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
     * @param jdk the JDK whose jlink makes the runtime ({@link ImageJdk#forImage()} chooses one)
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
            ImageJdk jdk = ImageJdk.of(in.jdk());
            if (!jdk.canLink())
                throw new ReleaseException(
                        Reason.PAYLOAD_NOT_FOUND,
                        jdk
                                + " cannot link the image's Java runtime: a full JDK is needed,"
                                + " with its jmods/ (before JDK 24) or its own linkable run-time"
                                + " image");
            progress.accept(
                    "linking a Java runtime of " + MODULES.size() + " modules from the " + jdk);
            Path jre = runtime(jdk, work.resolve("jre"));
            progress.accept("collecting the shared libraries it loads");
            TarLayer system = systemLayer(jre);
            TarLayer runtime = new TarLayer().addTree(jre, HOME.substring(1) + "/jre");
            // laid out once, as the image lays them out: the layer takes lib/, the archive's dump
            // runs in the same folder
            Path stage = work.resolve("stage");
            Path lib = libraries(in.lib(), stage.resolve("lib"));
            TarLayer libraries = new TarLayer().addTree(lib, HOME.substring(1) + "/lib");
            TarLayer upshift = new TarLayer().add(TarLayer.Entry.file(JAR, in.jar(), 0644));
            boolean archive = jdk.makesReproducibleArchive();
            if (archive) {
                progress.accept("laying out the class-data archive");
                upshift.add(
                        TarLayer.Entry.file(
                                CDS_ARCHIVE, classDataArchive(in.jar(), jre, stage), 0644));
            } else {
                progress.accept(
                        "no class-data archive: the "
                                + jdk
                                + " does not make the same one twice (JDK "
                                + ImageJdk.REPRODUCIBLE_ARCHIVE
                                + " or newer does; --jdk names one), so the image starts slower");
            }
            List<BuiltImage.LayerFile> layers = new ArrayList<>();
            int i = 0;
            for (TarLayer layer : List.of(system, runtime, libraries, upshift))
                layers.add(layer.write(work.resolve("layer-" + i++ + ".tar.gz")));
            progress.accept("layers written");
            byte[] config = config(in.version(), entrypoint(archive), layers);
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
    public static Path runtime(ImageJdk jdk, Path target) throws IOException, InterruptedException {
        run(
                List.of(
                        jdk.home().resolve("bin/jlink").toString(),
                        "--add-modules",
                        String.join(",", MODULES),
                        "--strip-debug",
                        "--no-man-pages",
                        "--no-header-files",
                        // zip; JDK 21 names the level, JDK 17 only knows its number
                        jdk.version().feature() >= 21 ? "--compress=zip-6" : "--compress=2",
                        "--output",
                        target.toString()));
        resolveLinks(target);
        return target;
    }

    /**
     * The image's libraries, copied from {@code from} to {@code to}: a signed jar without its
     * signature ({@link UnsignedJar}), so that its classes are in the class-data archive and load
     * unchecked.
     */
    private static Path libraries(Path from, Path to) throws IOException {
        Files.createDirectories(to);
        try (Stream<Path> jars = Files.list(from)) {
            for (Path j : jars.sorted().toList())
                if (Files.isRegularFile(j) && j.getFileName().toString().endsWith(".jar"))
                    UnsignedJar.copy(j, to.resolve(j.getFileName()));
                else Files.copy(j, to.resolve(j.getFileName()));
        }
        return to;
    }

    /**
     * The class-data archive of {@link #CLASS_LIST}, made by the image's own runtime {@code jre} in
     * {@code stage}, which holds the image's {@code lib/} and gets Upshift's jar beside it as the
     * image lays them out under {@value #HOME} (all dated at the epoch, as its layers date them:
     * the archive records each jar's date and size), with the entry point's options and relative
     * class path.
     */
    private static Path classDataArchive(Path jar, Path jre, Path stage)
            throws IOException, InterruptedException {
        Files.copy(jar, stage.resolve("upshift.jar"));
        try (var listed = UpshiftImage.class.getResourceAsStream(CLASS_LIST)) {
            if (listed == null) throw new IOException(CLASS_LIST + " is not among the resources");
            Files.copy(listed, stage.resolve(CLASS_LIST));
        }
        try (Stream<Path> files = Files.walk(stage)) {
            for (Path f : files.toList()) Files.setLastModifiedTime(f, FileTime.fromMillis(0));
        }
        List<String> dump = new ArrayList<>(entrypoint(true));
        dump.set(0, jre.resolve("bin/java").toString());
        dump.addAll(1, List.of("-Xshare:dump", "-XX:SharedClassListFile=" + CLASS_LIST));
        run(dump, stage);
        return stage.resolve(ARCHIVE_FILE);
    }

    /**
     * The image's config: entry point, non-root user, environment, labels, and its layers' diff
     * ids.
     */
    private static byte[] config(
            String version, List<String> command, List<BuiltImage.LayerFile> layers)
            throws IOException {
        ObjectNode config = Mappers.JSON.createObjectNode();
        config.put("architecture", Architectures.current()).put("os", "linux");
        ObjectNode c = config.putObject("config");
        c.put("User", USER).put("WorkingDir", WORKING_DIR);
        ArrayNode entrypoint = c.putArray("Entrypoint");
        command.forEach(entrypoint::add);
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
