package io.upshift.runtime.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Properties;
import org.junit.jupiter.api.Test;

/** Into properties of its own: the JVM's are shared with the other tests, which log as usual. */
class ControllerLogsTest {
    @Test
    void everyControllersPackageLogsErrorsOnlyAndTheCommandsOwnAsBefore() {
        Properties properties = new Properties();
        ControllerLogs.errorsOnly(properties);
        assertThat(ControllerLogs.PACKAGES)
                .contains("io.upshift.clusterversion", "io.upshift.pools")
                .allSatisfy(
                        p ->
                                assertThat(
                                                properties.getProperty(
                                                        "org.slf4j.simpleLogger.log." + p))
                                        .isEqualTo("error"));
        assertThat(properties.getProperty("org.slf4j.simpleLogger.log.io.upshift.cli")).isNull();
    }
}
