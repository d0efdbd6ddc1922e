package io.upshift.releases.image;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The payload directories of an image as its layers build them, kept in memory (file contents as
 * spooled blobs) until every layer was read, so that no entry ever touches the disk through a link
 * an earlier entry planted. Paths are lists of names from the image's root, already free of {@code
 * .}, {@code ..} and empty segments (see {@link EntryPath}). Every change walks the tree from the
 * root through directories only: a parent that is a link or a file refuses the entry, so whiteouts,
 * directories, files and hard links can never reach through a link. Links themselves are checked
 * once the tree is final ({@link #finish}), resolved through the tree as the kernel would resolve
 * them on disk.
 */
final class PayloadTree {

    /** What an entry tried that the tree refuses; the extractor names the entry. */
    static final class Refused extends Exception {
        private final String entry;

        Refused(String why) {
            this(null, why);
        }

        /** Refused for {@code entry}, found once the tree is final. */
        Refused(String entry, String why) {
            super(why, null, false, false);
            this.entry = entry;
        }

        /** The entry at fault when it is not the one being applied; null otherwise. */
        String entry() {
            return entry;
        }
    }

    /** A node; {@code layer} is the last layer that created it or wrote beneath it. */
    sealed interface Node permits Dir, File, Link {}

    static final class Dir implements Node {
        final Map<String, Node> children = new TreeMap<>();
        int layer;

        Dir(int layer) {
            this.layer = layer;
        }
    }

    /** A regular file; its bytes are in {@code blob}, which is never written again. */
    record File(Path blob, long size, int layer) implements Node {}

    /** A symbolic link, its target as the layer wrote it (relative). */
    record Link(String target, int layer) implements Node {}

    private static final int MAX_LINK_HOPS = 40; // as Linux's MAXSYMLINKS

    private final Dir root = new Dir(-1);
    private final List<String> tops;

    /**
     * @param tops the top-level directories the payload is made of
     */
    PayloadTree(List<String> tops) {
        this.tops = tops;
    }

    boolean isPayload(List<String> path) {
        return !path.isEmpty() && tops.contains(path.get(0));
    }

    /** Creates the directory {@code path}, or marks an existing one as written by {@code layer}. */
    void directory(List<String> path, int layer) throws Refused {
        Dir parent = parentOf(path, layer);
        String name = last(path);
        if (parent.children.get(name) instanceof Dir d) d.layer = layer;
        else parent.children.put(name, new Dir(layer));
    }

    void file(List<String> path, Path blob, long size, int layer) throws Refused {
        put(path, new File(blob, size, layer), layer);
    }

    void symlink(List<String> path, String target, int layer) throws Refused {
        if (target.isEmpty()) throw new Refused("is a symbolic link with an empty target");
        if (target.startsWith("/"))
            throw new Refused("is a symbolic link to the absolute path " + target);
        put(path, new Link(target, layer), layer);
    }

    /** A hard link: the same bytes as the regular file at {@code target}, reached without links. */
    void hardLink(List<String> path, List<String> target, int layer) throws Refused {
        if (!isPayload(target))
            throw new Refused(
                    "is a hard link to " + String.join("/", target) + ", outside the payload");
        Node node = lookup(target);
        if (!(node instanceof File f))
            throw new Refused(
                    "is a hard link to "
                            + String.join("/", target)
                            + ", which is "
                            + (node == null ? "not in the image" : "not a regular file"));
        put(path, new File(f.blob(), f.size(), layer), layer);
    }

    /**
     * An OCI whiteout: what lower layers put at {@code path} (and beneath it) removed; what {@code
     * layer} itself wrote there is kept, whether it came before the whiteout or after it (the image
     * spec applies a whiteout to lower layers only, so a layer may whiteout a directory and make it
     * anew).
     */
    void remove(List<String> path, int layer) throws Refused {
        Dir parent = path.size() == 1 ? root : parentOf(path, layer);
        Node node = parent.children.get(last(path));
        if (node == null) return;
        if (layerOf(node) < layer) parent.children.remove(last(path));
        else if (node instanceof Dir d) clearBelow(d, layer);
    }

    /**
     * An opaque whiteout in {@code dir}: what lower layers put there is removed, what {@code layer}
     * itself wrote is kept.
     */
    void opaque(List<String> dir, int layer) throws Refused {
        Node node = dir.isEmpty() ? root : walk(dir, layer, true);
        if (node instanceof Dir d) clearBelow(d, layer);
    }

    /**
     * Checks the final tree: each payload directory is a directory, and every link, resolved
     * through the tree as the kernel would resolve it on disk, leads inside the payload directories
     * (a link in a loop, or one that climbs above the root, is refused too).
     */
    void finish() throws Refused {
        for (String top : tops) {
            Node node = root.children.get(top);
            if (node != null && !(node instanceof Dir))
                throw new Refused(
                        top
                                + " is "
                                + (node instanceof Link ? "a symbolic link" : "a file")
                                + ", not a directory");
        }
        for (Entry entry : entries()) {
            if (!(entry.node() instanceof Link)) continue;
            List<String> at = entry.path();
            List<String> resolved = resolve(at, 0);
            if (!isPayload(resolved))
                throw new Refused(
                        String.join("/", at),
                        "is a symbolic link to "
                                + ((Link) lookup(at)).target()
                                + ", which leads to "
                                + (resolved.isEmpty()
                                        ? "the image's root"
                                        : String.join("/", resolved))
                                + ", outside "
                                + String.join("/ and ", tops)
                                + "/");
        }
    }

    /** A node and its path. */
    record Entry(List<String> path, Node node) {}

    /** Every node of the tree, each directory before what it holds. */
    List<Entry> entries() {
        List<Entry> out = new ArrayList<>();
        collect(root, List.of(), out);
        return out;
    }

    /** The node at {@code path} reached through directories only; null when there is none. */
    Node lookup(List<String> path) {
        Node node = root;
        for (String name : path) {
            if (!(node instanceof Dir d)) return null;
            node = d.children.get(name);
        }
        return node;
    }

    /**
     * Where the link at {@code at} leads: its target's segments applied to its parent, each link
     * met on the way resolved in turn. A {@code ..} above the root, or too many links, refuses.
     */
    private List<String> resolve(List<String> at, int hops) throws Refused {
        if (hops > MAX_LINK_HOPS)
            throw new Refused(String.join("/", at), "is a symbolic link in a loop of links");
        Link link = (Link) lookup(at);
        List<String> current = new ArrayList<>(at.subList(0, at.size() - 1));
        for (String segment : link.target().split("/")) {
            if (segment.isEmpty() || segment.equals(".")) continue;
            if (segment.equals("..")) {
                if (current.isEmpty())
                    throw new Refused(
                            String.join("/", at),
                            "is a symbolic link to "
                                    + link.target()
                                    + ", which climbs above the image's root");
                current.remove(current.size() - 1);
                continue;
            }
            current.add(segment);
            if (lookup(current) instanceof Link)
                current = new ArrayList<>(resolve(current, hops + 1));
        }
        return current;
    }

    private void put(List<String> path, Node node, int layer) throws Refused {
        parentOf(path, layer).children.put(last(path), node);
    }

    /** The directory holding {@code path}, made where missing, reached through directories only. */
    private Dir parentOf(List<String> path, int layer) throws Refused {
        if (path.size() < 2 && !isPayload(path)) throw new Refused("is not inside the payload");
        return path.size() == 1 ? root : (Dir) walk(path.subList(0, path.size() - 1), layer, true);
    }

    /** Walks to {@code dir} through directories, creating missing ones when asked. */
    private Node walk(List<String> dir, int layer, boolean create) throws Refused {
        Dir node = root;
        for (int i = 0; i < dir.size(); i++) {
            Node next = node.children.get(dir.get(i));
            if (next == null) {
                if (!create) return null;
                next = new Dir(layer);
                node.children.put(dir.get(i), next);
            }
            if (next instanceof Link)
                throw new Refused(
                        "would be written through the symbolic link "
                                + String.join("/", dir.subList(0, i + 1)));
            if (next instanceof File)
                throw new Refused(
                        "would be written beneath the regular file "
                                + String.join("/", dir.subList(0, i + 1)));
            node = (Dir) next;
            node.layer = Math.max(node.layer, layer);
        }
        return node;
    }

    private static void clearBelow(Dir dir, int layer) {
        dir.children.values().removeIf(n -> layerOf(n) < layer);
        for (Node n : dir.children.values()) if (n instanceof Dir d) clearBelow(d, layer);
    }

    private static int layerOf(Node node) {
        if (node instanceof Dir d) return d.layer;
        if (node instanceof File f) return f.layer();
        return ((Link) node).layer();
    }

    private static void collect(Dir dir, List<String> path, List<Entry> out) {
        for (Map.Entry<String, Node> e : dir.children.entrySet()) {
            List<String> p = new ArrayList<>(path);
            p.add(e.getKey());
            out.add(new Entry(List.copyOf(p), e.getValue()));
            if (e.getValue() instanceof Dir d) collect(d, p, out);
        }
    }

    private static String last(List<String> path) {
        return path.get(path.size() - 1);
    }
}
