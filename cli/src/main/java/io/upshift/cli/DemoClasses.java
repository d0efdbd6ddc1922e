package io.upshift.cli;

import io.upshift.releases.image.UpshiftImage;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Where the demo's code ({@link Demo}) is. The demo and the testkit (the embedded API server over
 * fabric8's mock server) are test code: they are neither in {@code lib/} (what Upshift's image
 * holds) nor on the jar's Class-Path, but in {@code demo-lib/} beside the jar, with the demo
 * command's own code that uses them ({@code io.upshift.cli.demo}, left out of the jar). Run from
 * classes (tests, an IDE), everything is on the class path already.
 *
 * <p>From the jar, {@code upshift demo} runs its command line again in a class loader of the jar
 * (with its Class-Path) and demo-lib/'s jars: one class path, as when everything was on the jar's,
 * so that a library of lib/ finds one of demo-lib/ (Netty's self-signed certificates, made for the
 * mock server, need Bouncy Castle's PKIX).
 */
final class DemoClasses {

    /** The {@link Demo}, in demo-lib/. */
    static final String DEMO = "io.upshift.cli.demo.LiveDemo";

    /** The directory beside Upshift's jar that holds the demo's jars. */
    static final String DIRECTORY = "demo-lib";

    private DemoClasses() {}

    /**
     * Whether the demo's code is on this class path (else it is in demo-lib/: see {@link
     * #runWithDemoLib}).
     */
    static boolean present() {
        try {
            Class.forName(DEMO, false, DemoClasses.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException e) {
            return false;
        }
    }

    /** The demo's code, on this class path ({@link #present}). */
    static Demo demo() throws ReflectiveOperationException {
        return Class.forName(DEMO, true, DemoClasses.class.getClassLoader())
                .asSubclass(Demo.class)
                .getDeclaredConstructor()
                .newInstance();
    }

    /**
     * Runs the command line {@code args} (an {@code upshift demo}) in a class loader of Upshift's
     * jar {@code jar} and the jars of demo-lib/ beside it, and returns its exit code.
     *
     * @throws IllegalStateException, in one line, when demo-lib/ is not there (Upshift's image)
     */
    static int runWithDemoLib(Optional<Path> jar, String[] args)
            throws ReflectiveOperationException, IOException {
        if (jar.isEmpty()) {
            throw new IllegalStateException(
                    "upshift demo: its code ("
                            + DEMO
                            + ", upshift-demo, upshift-testkit) is not on the class path");
        }
        Path dir = jar.get().resolveSibling(DIRECTORY);
        if (!Files.isDirectory(dir)) {
            throw new IllegalStateException(
                    jar.get().toString().equals(UpshiftImage.JAR)
                            ? "upshift demo is not in Upshift's image: run it from a build of the"
                                    + " repository (./upshift demo)"
                            : "upshift demo needs "
                                    + dir
                                    + " (the demo and its embedded API server, which ./mvnw package"
                                    + " puts beside the jar): build the repository, or run"
                                    + " ./upshift demo");
        }
        List<URL> urls = new ArrayList<>(List.of(url(jar.get())));
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f :
                    files.filter(f -> f.getFileName().toString().endsWith(".jar"))
                            .sorted()
                            .toList()) urls.add(url(f));
        }
        // the loader lives as long as the demo, which runs until the JVM exits
        ClassLoader loader =
                new URLClassLoader(
                        "upshift-demo",
                        urls.toArray(URL[]::new),
                        ClassLoader.getPlatformClassLoader());
        Thread thread = Thread.currentThread();
        ClassLoader context = thread.getContextClassLoader();
        thread.setContextClassLoader(loader);
        try {
            Object code =
                    Class.forName(Upshift.class.getName(), true, loader)
                            .getMethod("run", String[].class)
                            .invoke(null, (Object) args);
            return (Integer) code;
        } catch (InvocationTargetException e) {
            if (e.getCause() instanceof RuntimeException r) throw r;
            if (e.getCause() instanceof Error r) throw r;
            throw e;
        } finally {
            thread.setContextClassLoader(context);
        }
    }

    private static URL url(Path file) throws MalformedURLException {
        return file.toUri().toURL();
    }
}
