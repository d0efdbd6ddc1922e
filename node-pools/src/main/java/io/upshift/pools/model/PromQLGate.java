package io.upshift.pools.model;

import java.util.ArrayList;
import java.util.List;

/**
 * One of a pool's health gates asked of Prometheus: an alert selector ({@value HealthGates#ALERTS})
 * or a PromQL expression ({@value HealthGates#QUERIES}). It holds the pool while its query answers
 * a sample whose value is not zero: an alert selector's query answers one sample of value 1 per
 * firing alert, an expression whatever it computes ({@code
 * sum(kube_job_status_active{namespace="backup"}) > 0} holds while a backup Job runs).
 *
 * @param annotation the annotation it comes from
 * @param text the gate as written there
 * @param promql the query sent to Prometheus
 * @param alert whether it is an alert selector (its samples are firing alerts)
 */
public record PromQLGate(String annotation, String text, String promql, boolean alert) {

    /**
     * Splits an annotation's value at {@code ;} outside double-quoted strings, the separator of
     * both Prometheus annotations; blank parts are dropped.
     *
     * @throws IllegalArgumentException when a quoted string does not end
     */
    static List<String> split(String text) {
        List<String> parts = new ArrayList<>();
        StringBuilder part = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (quoted && c == '\\' && i + 1 < text.length()) {
                part.append(c).append(text.charAt(++i));
                continue;
            }
            if (c == '"') quoted = !quoted;
            if (c == ';' && !quoted) {
                if (!part.toString().isBlank()) parts.add(part.toString().strip());
                part.setLength(0);
            } else part.append(c);
        }
        if (quoted) throw new IllegalArgumentException("a quoted string does not end");
        if (!part.toString().isBlank()) parts.add(part.toString().strip());
        return parts;
    }

    /**
     * An expression as the gate sends it, checked as far as can be without Prometheus: brackets
     * that pair up. Prometheus judges the rest; a query it refuses holds the pool with its error.
     *
     * @throws IllegalArgumentException saying what is wrong
     */
    static String checkExpression(String expr) {
        StringBuilder open = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < expr.length(); i++) {
            char c = expr.charAt(i);
            if (quoted) {
                if (c == '\\') i++;
                else if (c == '"') quoted = false;
                continue;
            }
            switch (c) {
                case '"' -> quoted = true;
                case '(', '{', '[' -> open.append(c);
                case ')', '}', ']' -> {
                    char want = c == ')' ? '(' : c == '}' ? '{' : '[';
                    if (open.isEmpty() || open.charAt(open.length() - 1) != want)
                        throw new IllegalArgumentException(
                                "\"" + expr + "\": " + c + " closes nothing open");
                    open.setLength(open.length() - 1);
                }
                default -> {}
            }
        }
        if (!open.isEmpty())
            throw new IllegalArgumentException(
                    "\"" + expr + "\": " + open.charAt(open.length() - 1) + " is never closed");
        return expr;
    }
}
