package io.upshift.rehearsal.model;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * One thing that would refuse, stall, hold or mark the update, in the words of whoever would say it
 * (the cluster-version controller, {@code oc adm upgrade}, the node agent), and where it shows on
 * the timeline.
 *
 * @param source who would say it: "cluster-version controller", "oc adm upgrade", "node agent",
 *     "pool controller", "rehearsal"
 * @param reason a CamelCase reason, as the speaker's condition or event has it
 * @param message the speaker's words
 * @param place where on the timeline it strikes; {@link Place#NOWHERE} for the update as a whole
 */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record Blocker(Kind kind, String source, String reason, String message, Place place) {

    /** What it does to the update. */
    public enum Kind {
        /** The update would not start (unless forced, or asked for with the flag named). */
        REFUSES,
        /** The update would start and get stuck here. */
        STALLS,
        /**
         * Would hold the update now, and let it go by itself (a window that opens, a soak that
         * ends) or once a gate clears: it waits, it is not stuck.
         */
        HOLDS,
        /** Worth knowing; it holds nothing up. */
        WARNS
    }

    /**
     * A run-level of the control plane, a pool, or nodes of a pool ({@code nodes} empty for the
     * pool as a whole); all empty: the update as a whole.
     */
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    public record Place(String runLevel, String pool, List<String> nodes) {
        public static final Place NOWHERE = new Place("", "", List.of());

        public Place {
            runLevel = runLevel == null ? "" : runLevel;
            pool = pool == null ? "" : pool;
            nodes = nodes == null ? List.of() : List.copyOf(nodes);
        }

        public static Place runLevel(String runLevel) {
            return new Place(runLevel, "", List.of());
        }

        public static Place pool(String pool) {
            return new Place("", pool, List.of());
        }

        public static Place nodes(String pool, List<String> nodes) {
            return new Place("", pool, nodes);
        }
    }

    public static Blocker refuses(String source, String reason, String message) {
        return new Blocker(Kind.REFUSES, source, reason, message, Place.NOWHERE);
    }

    public static Blocker warns(String source, String reason, String message) {
        return new Blocker(Kind.WARNS, source, reason, message, Place.NOWHERE);
    }

    public static Blocker holds(String source, String reason, String message, Place place) {
        return new Blocker(Kind.HOLDS, source, reason, message, place);
    }

    public static Blocker stalls(String source, String reason, String message, Place place) {
        return new Blocker(Kind.STALLS, source, reason, message, place);
    }
}
