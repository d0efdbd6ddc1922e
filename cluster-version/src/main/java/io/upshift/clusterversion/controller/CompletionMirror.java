package io.upshift.clusterversion.controller;

import io.fabric8.openshift.api.model.config.v1.ClusterVersion;

/**
 * What copies ClusterVersion into objects of its own (the UpdateStatus controller's insights), told
 * of the status that records Completed just before it is written: it writes its copy first, so that
 * Completed is the update's last write and a level cluster is quiet from the moment it says so,
 * however slow the machine.
 */
@FunctionalInterface
public interface CompletionMirror {
    /** Nothing mirrors. */
    CompletionMirror NONE = next -> () -> {};

    /**
     * Mirrors {@code next}, the ClusterVersion as it is about to be written (metadata as read,
     * status as it will be); returns once the copy is written or given up, never throws.
     *
     * @return what to run when {@code next} is not written after all
     */
    Runnable before(ClusterVersion next);
}
