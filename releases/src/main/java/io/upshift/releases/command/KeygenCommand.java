package io.upshift.releases.command;

import io.upshift.releases.verify.SigningKeys;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(
        name = "keygen",
        mixinStandardHelpOptions = true,
        description =
                "Create an Ed25519 OpenPGP signing key: PREFIX.key (secret, mode 600) and"
                        + " PREFIX.pub (to trust).")
public final class KeygenCommand implements Callable<Integer> {

    @Spec picocli.CommandLine.Model.CommandSpec spec;

    @Option(
            names = "--name",
            defaultValue = "Upshift release signer <release@upshift.invalid>",
            description = "User id of the key.")
    String name;

    @Option(
            names = "--out",
            required = true,
            paramLabel = "PREFIX",
            description = "Path prefix of the two files written.")
    Path out;

    @Override
    public Integer call() throws Exception {
        Path secret = out.resolveSibling(out.getFileName() + ".key"),
                pub = out.resolveSibling(out.getFileName() + ".pub");
        for (Path p : new Path[] {secret, pub}) {
            if (Files.exists(p))
                throw new IllegalArgumentException(p + " already exists; not overwriting a key");
        }
        SigningKeys keys = SigningKeys.generate(name, Instant.now());
        try {
            Files.writeString(pub, keys.publicArmored());
            Files.createFile(
                    secret,
                    PosixFilePermissions.asFileAttribute(
                            PosixFilePermissions.fromString("rw-------")));
            Files.writeString(secret, keys.secretArmored());
        } catch (IOException e) { // neither key, rather than half a pair
            Files.deleteIfExists(pub);
            Files.deleteIfExists(secret);
            throw e;
        }
        spec.commandLine().getOut().println("Wrote " + secret + " and " + pub);
        return 0;
    }
}
