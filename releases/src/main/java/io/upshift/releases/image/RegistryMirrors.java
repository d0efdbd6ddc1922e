package io.upshift.releases.image;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Where to look for an image before (or instead of) its own registry, as the container runtime
 * reads ImageDigestMirrorSets, ImageTagMirrorSets and ImageContentSourcePolicies: a rule's source
 * matches a repository by prefix at a path boundary (a host alone matches all its repositories),
 * the longest matching source wins, digest mirrors serve only pulls by digest and tag mirrors only
 * pulls by tag, mirrors are tried in order, then the source itself unless a rule for it says
 * NeverContactSource. Pure: the rules come from the cluster through the operator.
 */
public record RegistryMirrors(List<Rule> digestRules, List<Rule> tagRules) {

    /** Mirrors of {@code source} (host or host/path), and whether the source may still be asked. */
    public record Rule(String source, List<String> mirrors, boolean neverContactSource) {
        public Rule {
            mirrors = List.copyOf(mirrors);
        }
    }

    public RegistryMirrors {
        digestRules = merged(digestRules);
        tagRules = merged(tagRules);
    }

    public static RegistryMirrors none() {
        return new RegistryMirrors(List.of(), List.of());
    }

    /**
     * Where to pull {@code ref} from, in order; the last is {@code ref} itself unless the rule
     * forbids it.
     */
    public List<ImageRef> candidates(ImageRef ref) {
        if (ref.layout()) return List.of(ref);
        String name = ref.registry() + "/" + ref.repository();
        Optional<Rule> rule =
                (ref.digest() != null ? digestRules : tagRules)
                        .stream()
                                .filter(
                                        r ->
                                                name.equals(r.source())
                                                        || name.startsWith(r.source() + "/"))
                                .max(Comparator.comparingInt(r -> r.source().length()));
        if (rule.isEmpty()) return List.of(ref);
        List<ImageRef> out = new ArrayList<>();
        for (String mirror : rule.get().mirrors()) {
            String location = mirror + name.substring(rule.get().source().length());
            int slash = location.indexOf('/');
            if (slash < 0) continue; // a mirror must name a repository
            out.add(
                    new ImageRef(
                            false,
                            location.substring(0, slash),
                            location.substring(slash + 1),
                            ref.tag(),
                            ref.digest(),
                            null));
        }
        if (!rule.get().neverContactSource()) out.add(ref);
        return out;
    }

    /**
     * Rules for the same source from several objects act as one: mirrors in order of appearance,
     * never-contact if any says so.
     */
    private static List<Rule> merged(List<Rule> rules) {
        Map<String, LinkedHashSet<String>> mirrors = new LinkedHashMap<>();
        Map<String, Boolean> never = new LinkedHashMap<>();
        for (Rule r : rules) {
            mirrors.computeIfAbsent(r.source(), s -> new LinkedHashSet<>()).addAll(r.mirrors());
            never.merge(r.source(), r.neverContactSource(), Boolean::logicalOr);
        }
        List<Rule> out = new ArrayList<>();
        mirrors.forEach(
                (source, m) -> out.add(new Rule(source, List.copyOf(m), never.get(source))));
        return List.copyOf(out);
    }
}
