package io.upshift.rehearsal.simulation;

import java.util.Optional;
import java.util.ServiceLoader;

/** The simulator on this class path, if any (none in Upshift's image). */
public final class Simulators {
    private Simulators() {}

    public static Optional<Simulator> find() {
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        return ServiceLoader.load(
                        Simulator.class,
                        loader == null ? Simulators.class.getClassLoader() : loader)
                .findFirst();
    }
}
