package io.upshift.releases.image;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import org.apache.commons.compress.archivers.zip.ZipArchiveEntry;
import org.apache.commons.compress.archivers.zip.ZipArchiveOutputStream;
import org.apache.commons.compress.archivers.zip.ZipFile;

/**
 * A signed library jar (Bouncy Castle's are) copied without its signature, for the image. A signed
 * jar costs a running JVM at every start and for good: its classes are left out of the class-data
 * archive ("Signed JAR"), each is checked against the manifest's digest as it loads, and the
 * manifest's thousands of per-entry sections stay in the heap. The image's libraries are the
 * build's own, fixed by its digest, so the jar's signature adds no trust there. The classes are the
 * same bytes: every other entry is copied raw, compressed as it was, in its order; only the
 * signature files go and the manifest loses its digests (a section left with nothing but its name
 * goes with them).
 */
final class UnsignedJar {
    /** The signature files a signed jar carries (the JAR File Specification's). */
    private static final Pattern SIGNATURE =
            Pattern.compile("META-INF/[^/]+\\.(SF|RSA|DSA|EC)|META-INF/SIG-[^/]+");

    private static final String MANIFEST = "META-INF/MANIFEST.MF";

    private UnsignedJar() {}

    /** Whether {@code jar} holds a signature file. */
    static boolean isSigned(Path jar) throws IOException {
        try (ZipFile zip = ZipFile.builder().setPath(jar).get()) {
            for (ZipArchiveEntry e : Collections.list(zip.getEntries()))
                if (isSignature(e)) return true;
        }
        return false;
    }

    private static boolean isSignature(ZipArchiveEntry e) {
        return SIGNATURE.matcher(e.getName().toUpperCase(Locale.ROOT)).matches();
    }

    /** Copies {@code jar} to {@code to}: as it is when unsigned, else without its signature. */
    static void copy(Path jar, Path to) throws IOException {
        if (!isSigned(jar)) {
            Files.copy(jar, to);
            return;
        }
        try (ZipFile zip = ZipFile.builder().setPath(jar).get();
                ZipArchiveOutputStream out = new ZipArchiveOutputStream(to)) {
            for (ZipArchiveEntry e : Collections.list(zip.getEntriesInPhysicalOrder())) {
                if (isSignature(e)) continue;
                if (e.getName().equalsIgnoreCase(MANIFEST)) {
                    byte[] manifest;
                    try (InputStream in = zip.getInputStream(e)) {
                        manifest =
                                withoutDigests(
                                                new String(
                                                        in.readAllBytes(), StandardCharsets.UTF_8))
                                        .getBytes(StandardCharsets.UTF_8);
                    }
                    ZipArchiveEntry rewritten = new ZipArchiveEntry(e.getName());
                    rewritten.setTime(e.getTime());
                    out.putArchiveEntry(rewritten);
                    new ByteArrayInputStream(manifest).transferTo(out);
                    out.closeArchiveEntry();
                } else {
                    try (InputStream raw = zip.getRawInputStream(e)) {
                        out.addRawArchiveEntry(e, raw);
                    }
                }
            }
        }
    }

    /**
     * The manifest {@code text} without its per-entry digests: the main section as it was, then
     * each entry's section with its {@code *-Digest} attributes left out, a section with nothing
     * left but its {@code Name} left out whole.
     */
    static String withoutDigests(String text) {
        String nl = text.contains("\r\n") ? "\r\n" : "\n";
        String[] sections = text.split("\r?\n\r?\n");
        StringBuilder out = new StringBuilder(sections[0]).append(nl).append(nl);
        for (int i = 1; i < sections.length; i++) {
            List<String> kept = new ArrayList<>();
            boolean keepingLine = false;
            for (String line : sections[i].split("\r?\n")) {
                if (line.startsWith(" ")) { // a continuation of the line before it
                    if (keepingLine)
                        kept.set(kept.size() - 1, kept.get(kept.size() - 1) + nl + line);
                    continue;
                }
                int colon = line.indexOf(':');
                String name = colon < 0 ? line : line.substring(0, colon);
                keepingLine = !name.toLowerCase(Locale.ROOT).endsWith("-digest");
                if (keepingLine) kept.add(line);
            }
            boolean nameOnly = kept.stream().allMatch(l -> l.regionMatches(true, 0, "Name:", 0, 5));
            if (!kept.isEmpty() && !nameOnly)
                out.append(String.join(nl, kept)).append(nl).append(nl);
        }
        return out.toString();
    }
}
