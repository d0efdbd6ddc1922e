package io.upshift.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every relative link of the repository's Markdown leads to a file or folder inside the repository,
 * and every anchor to a heading of its page: the docs stand alone.
 */
class DocLinksTest {

    static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");

    @Test
    void relativeLinksStayInsideTheRepositoryAndLeadSomewhere() throws Exception {
        List<String> broken = new ArrayList<>();
        for (Path page : pages()) {
            String text = Files.readString(page);
            Matcher m = LINK.matcher(text.replaceAll("(?s)```.*?```", ""));
            while (m.find()) {
                String link = m.group(1);
                if (link.matches("^[a-z]+:.*")) continue; // https:, mailto:
                String file = link.replaceFirst("#.*", ""),
                        anchor = link.contains("#") ? link.replaceFirst("^[^#]*#", "") : null;
                Path target = file.isEmpty() ? page : page.getParent().resolve(file).normalize();
                String where = ROOT.relativize(page) + ": " + link;
                if (!target.startsWith(ROOT)) broken.add(where + " (outside the repository)");
                else if (!Files.exists(target)) broken.add(where + " (no such file)");
                else if (anchor != null
                        && target.toString().endsWith(".md")
                        && !anchors(target).contains(anchor))
                    broken.add(where + " (no such heading)");
            }
        }
        assertThat(broken).isEmpty();
    }

    private static List<Path> pages() throws Exception {
        try (Stream<Path> walk = Files.walk(ROOT)) {
            return walk.filter(p -> p.toString().endsWith(".md"))
                    .filter(p -> !ROOT.relativize(p).toString().contains("target/"))
                    .filter(p -> !ROOT.relativize(p).startsWith(".git"))
                    .toList();
        }
    }

    /** GitHub's anchors: headings lower-cased, punctuation dropped, spaces as hyphens. */
    private static List<String> anchors(Path page) throws Exception {
        return Files.readString(page)
                .replaceAll("(?s)```.*?```", "")
                .lines()
                .filter(l -> l.startsWith("#"))
                .map(
                        l ->
                                l.replaceFirst("^#+\\s*", "")
                                        .toLowerCase(Locale.ROOT)
                                        .replaceAll("[^a-z0-9 _-]", "")
                                        .replace(' ', '-'))
                .toList();
    }
}
