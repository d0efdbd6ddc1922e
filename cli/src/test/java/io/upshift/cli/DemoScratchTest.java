package io.upshift.cli;

import org.junit.jupiter.api.Test;

class DemoScratchTest {
    @Test
    void run() throws Exception {
        String[] args = System.getProperty("scratch.args", "demo --plain").split(" ");
        CliRun.Result r = CliRun.run(args);
        java.nio.file.Files.writeString(java.nio.file.Path.of("/tmp/estimate-scratch/out.txt"), r.out() + "\n---ERR---\n" + r.err());
    }
}
