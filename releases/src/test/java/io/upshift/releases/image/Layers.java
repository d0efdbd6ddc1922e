package io.upshift.releases.image;

import com.google.cloud.tools.jib.api.DescriptorDigest;
import com.google.cloud.tools.jib.image.json.OciManifestTemplate;
import com.google.cloud.tools.jib.json.JsonTemplateMapper;
import io.upshift.releases.metadata.ReleaseMetadata;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPOutputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;

/**
 * Hand-made images for bad-input tests: layers whose entries a builder of ours would never write.
 */
final class Layers {

    /** A tar entry: a file with content, or a link when {@code link} is set. */
    record Entry(String name, String content, String link, boolean hard) {
        static Entry file(String name, String content) {
            return new Entry(name, content, null, false);
        }

        static Entry symlink(String name, String target) {
            return new Entry(name, null, target, false);
        }

        static Entry hardlink(String name, String target) {
            return new Entry(name, null, target, true);
        }

        static Entry directory(String name) {
            return new Entry(name.endsWith("/") ? name : name + "/", null, null, false);
        }

        @Override
        public String toString() {
            return name
                    + (link == null ? "" : (hard ? " => " : " -> ") + link)
                    + (content == null ? "" : " (file)");
        }
    }

    private Layers() {}

    static byte[] layer(List<Entry> entries) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (OutputStream gz = new GZIPOutputStream(bytes);
                TarArchiveOutputStream tar = new TarArchiveOutputStream(gz)) {
            tar.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
            for (Entry e : entries) {
                TarArchiveEntry t;
                if (e.link() != null) {
                    t =
                            new TarArchiveEntry(
                                    e.name(),
                                    e.hard()
                                            ? TarArchiveEntry.LF_LINK
                                            : TarArchiveEntry.LF_SYMLINK);
                    t.setLinkName(e.link());
                } else if (e.content() == null) {
                    t = new TarArchiveEntry(e.name(), TarArchiveEntry.LF_DIR, true);
                } else {
                    t =
                            new TarArchiveEntry(
                                    e.name(), true); // keep absolute names: a hostile layer would
                    t.setSize(e.content().getBytes(StandardCharsets.UTF_8).length);
                }
                tar.putArchiveEntry(t);
                if (e.content() != null) tar.write(e.content().getBytes(StandardCharsets.UTF_8));
                tar.closeArchiveEntry();
            }
        }
        return bytes.toByteArray();
    }

    /** A one-layer image of {@code layer}, built in {@code work}. */
    static BuiltImage image(byte[] layer, Path work) throws Exception {
        Path file = Files.write(work.resolve("layer-" + System.nanoTime()), layer);
        ImageDescriptor l =
                new ImageDescriptor(ImageBuilder.LAYER_MEDIA_TYPE, Digests.of(layer), layer.length);
        byte[] config = "{\"rootfs\":{\"type\":\"layers\"}}".getBytes(StandardCharsets.UTF_8);
        ImageDescriptor c =
                new ImageDescriptor(
                        ImageBuilder.CONFIG_MEDIA_TYPE, Digests.of(config), config.length);
        OciManifestTemplate m = new OciManifestTemplate();
        m.setContainerConfiguration(config.length, DescriptorDigest.fromDigest(c.digest()));
        m.addLayer(layer.length, DescriptorDigest.fromDigest(l.digest()));
        byte[] manifest = JsonTemplateMapper.toByteArray(m);
        return new BuiltImage(
                new ReleaseMetadata("1.0.0", List.of(), List.of(), Map.of()),
                List.of(new BuiltImage.LayerFile(file, l, l.digest())),
                config,
                c,
                manifest,
                Digests.of(manifest),
                "1.0.0");
    }
}
