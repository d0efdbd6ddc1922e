package io.upshift.runtime.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ControllerLogsTest {
    @Test
    void everyControllersPackageLogsErrorsOnlyAndTheCommandsOwnAsBefore() {
        ControllerLogs.errorsOnly();
        assertThat(ControllerLogs.PACKAGES)
                .contains("io.upshift.clusterversion", "io.upshift.pools")
                .allSatisfy(
                        p ->
                                assertThat(System.getProperty("org.slf4j.simpleLogger.log." + p))
                                        .isEqualTo("error"));
        assertThat(System.getProperty("org.slf4j.simpleLogger.log.io.upshift.cli")).isNull();
    }
}
