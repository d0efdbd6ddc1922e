package io.upshift.cli;

import java.util.Collection;
import java.util.Comparator;
import java.util.List;

/** The commands closest to a mistyped one: at most three, by edit distance, near enough to mean. */
final class CommandSuggestions {

    private CommandSuggestions() {}

    static List<String> closest(String typed, Collection<String> names) {
        int bound = Math.max(1, typed.length() / 3);
        return names.stream()
                .filter(n -> !n.equals("help"))
                .filter(
                        n ->
                                distance(typed, n) <= bound
                                        || (n.startsWith(typed) && typed.length() >= 3))
                .sorted(
                        Comparator.comparingInt((String n) -> distance(typed, n))
                                .thenComparing(n -> n))
                .limit(3)
                .toList();
    }

    /** Levenshtein's distance, an adjacent swap counting one (as a typo is one). */
    static int distance(String a, String b) {
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) d[i][0] = i;
        for (int j = 0; j <= b.length(); j++) d[0][j] = j;
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                d[i][j] =
                        Math.min(
                                Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1
                        && j > 1
                        && a.charAt(i - 1) == b.charAt(j - 2)
                        && a.charAt(i - 2) == b.charAt(j - 1))
                    d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
            }
        }
        return d[a.length()][b.length()];
    }
}
