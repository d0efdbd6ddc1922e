package io.upshift.releases.image;

import io.upshift.releases.metadata.Reason;
import io.upshift.releases.metadata.ReleaseException;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where a release image lives: in a registry ({@code docker://host:port/repo:tag}, {@code
 * host/repo@sha256:…}; the {@code docker://} prefix is optional) or in an OCI image layout on disk
 * ({@code oci:PATH[:tag]}).
 */
public record ImageRef(
        boolean layout, String registry, String repository, String tag, String digest, Path path) {

    private static final Pattern REGISTRY =
            Pattern.compile(
                    "([a-zA-Z0-9.-]+(?::\\d+)?)/([a-z0-9]+(?:[._/-][a-z0-9]+)*)(?::([\\w][\\w.-]{0,127}))?(?:@(sha256:[0-9a-f]{64}))?");
    private static final Pattern OCI =
            Pattern.compile("oci:([^:@]+)(?::([\\w][\\w.-]{0,127}))?(?:@(sha256:[0-9a-f]{64}))?");

    public static ImageRef parse(String text) throws ReleaseException {
        Matcher oci = OCI.matcher(text);
        if (oci.matches())
            return new ImageRef(true, "", "", oci.group(2), oci.group(3), Path.of(oci.group(1)));
        String s = text.startsWith("docker://") ? text.substring("docker://".length()) : text;
        Matcher m = REGISTRY.matcher(s);
        if (!m.matches()
                || !(m.group(1).contains(".")
                        || m.group(1).contains(":")
                        || m.group(1).equals("localhost"))) {
            throw new ReleaseException(
                    Reason.REFERENCE_INVALID,
                    "\""
                            + text
                            + "\" is not an image reference: use"
                            + " docker://HOST[:PORT]/REPO[:TAG|@sha256:DIGEST] or oci:PATH[:TAG]");
        }
        return new ImageRef(false, m.group(1), m.group(2), m.group(3), m.group(4), null);
    }

    /** The tag or digest to ask for: the digest when both are given, "latest" when neither. */
    public String reference() {
        return digest != null ? digest : tag != null ? tag : "latest";
    }

    /** The same image pinned to {@code d}. */
    public ImageRef withDigest(String d) {
        return new ImageRef(layout, registry, repository, tag, d, path);
    }

    /**
     * {@code host:port/repo}, what a signature's docker-reference names; the layout path for
     * layouts.
     */
    public String repositoryName() {
        return layout ? "oci:" + path : registry + "/" + repository;
    }

    /**
     * True for registries on this machine, which are spoken to over plain HTTP as docker does for
     * localhost.
     */
    public boolean isLoopback() {
        String host = registry.replaceFirst(":\\d+$", "");
        return host.equals("localhost") || host.equals("127.0.0.1") || host.equals("[::1]");
    }

    @Override
    public String toString() {
        if (layout)
            return "oci:"
                    + path
                    + (tag != null ? ":" + tag : "")
                    + (digest != null ? "@" + digest : "");
        return registry
                + "/"
                + repository
                + (tag != null ? ":" + tag : "")
                + (digest != null ? "@" + digest : "");
    }
}
