package io.upshift.graph.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.upshift.graph.model.ReleaseEntry;
import io.upshift.releases.image.DockerCredentials;
import io.upshift.releases.image.ImageRef;
import io.upshift.releases.image.ImageStore;
import io.upshift.releases.image.Releases;
import io.upshift.releases.image.ResolvedImage;
import io.upshift.testkit.LocalRegistry;
import io.upshift.testkit.TestPayloads;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The graph service's registry source: each tag's release image, by digest, with its
 * release-metadata.
 */
@Tag("e2e")
class ReleaseScraperTest {

    @TempDir Path dir;

    @Test
    void readsEveryTaggedRelease() throws Exception {
        try (LocalRegistry registry =
                LocalRegistry.start(Files.createDirectories(dir.resolve("registry")), null, null)) {
            Releases releases = new Releases(DockerCredentials.none(), false, w -> {});
            String repo = "docker://" + registry.host() + "/upshift/release";
            ResolvedImage first =
                    releases.publish(
                            TestPayloads.write(dir.resolve("p1"), "1.0.0", 1, 0),
                            "1.0.0",
                            List.of(),
                            ImageRef.parse(repo + ":1.0.0"),
                            ImageStore.Progress.NONE);
            ResolvedImage second =
                    releases.publish(
                            TestPayloads.write(dir.resolve("p2"), "1.0.1", 1, 0),
                            "1.0.1",
                            List.of("1.0.0"),
                            ImageRef.parse(repo + ":1.0.1"),
                            ImageStore.Progress.NONE);
            releases.publish(
                    dir.resolve("p2"),
                    "1.0.1",
                    List.of("1.0.0"),
                    ImageRef.parse(repo + ":latest"),
                    ImageStore.Progress.NONE);

            List<String> warnings = new ArrayList<>();
            ReleaseScraper scraper =
                    new ReleaseScraper(DockerCredentials.none(), false, warnings::add);
            ImageRef repository = ImageRef.parse(repo);
            assertThat(scraper.digests(repository))
                    .containsOnlyKeys("1.0.0", "1.0.1", "latest")
                    .containsEntry("latest", second.digest());
            List<ReleaseEntry> found = scraper.releases(repository);
            assertThat(found)
                    .extracting(ReleaseEntry::version)
                    .containsExactlyInAnyOrder("1.0.0", "1.0.1");
            ReleaseEntry r =
                    found.stream()
                            .filter(e -> e.version().equals("1.0.1"))
                            .findFirst()
                            .orElseThrow();
            assertThat(r.previous()).containsExactly("1.0.0");
            assertThat(r.payload()).isEqualTo(second.pullspec());
            assertThat(r.architecture()).isEqualTo("amd64");
            assertThat(
                            found.stream()
                                    .filter(e -> e.version().equals("1.0.0"))
                                    .findFirst()
                                    .orElseThrow()
                                    .payload())
                    .isEqualTo(first.pullspec());
            assertThat(warnings).isEmpty();
        }
    }
}
