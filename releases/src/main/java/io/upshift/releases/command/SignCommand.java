package io.upshift.releases.command;

import io.upshift.api.files.DiskErrors;
import io.upshift.releases.image.ImageRef;
import io.upshift.releases.metadata.Reason;
import io.upshift.releases.metadata.ReleaseException;
import io.upshift.releases.verify.DirectoryStore;
import io.upshift.releases.verify.Signer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(
        name = "sign",
        mixinStandardHelpOptions = true,
        description = {
            "Sign a release image's digest (simple signing, OpenPGP) into a signature store"
                    + " directory",
            "laid out as <store>/sha256=<hex>/signature-<N>, ready to serve over HTTP or copy to a"
                    + " file:// store."
        })
public final class SignCommand implements Callable<Integer> {

    @Spec picocli.CommandLine.Model.CommandSpec spec;

    @Parameters(
            paramLabel = "REF",
            description = "The release image; a tag is resolved to its digest first.")
    String ref;

    @Option(
            names = "--key",
            required = true,
            paramLabel = "FILE",
            description = "Armored OpenPGP secret key (gpg --export-secret-keys --armor).")
    Path key;

    @Option(
            names = "--passphrase-file",
            paramLabel = "FILE",
            description = "The key's passphrase, when it has one.")
    Path passphraseFile;

    @Option(
            names = "--store",
            defaultValue = "signatures",
            paramLabel = "DIR",
            description = "Signature store directory (default: ${DEFAULT-VALUE}).")
    Path store;

    @Mixin RegistryOptions registry;

    @Override
    public Integer call() throws ReleaseException, IOException {
        ImageRef image = ImageRef.parse(ref);
        char[] passphrase =
                passphraseFile == null
                        ? new char[0]
                        : Files.readString(passphraseFile, StandardCharsets.UTF_8)
                                .strip()
                                .toCharArray();
        byte[] keyBytes;
        try {
            keyBytes = Files.readAllBytes(key);
        } catch (IOException e) {
            throw new ReleaseException(
                    Reason.KEY_INVALID,
                    "cannot read key file " + key + ": " + DiskErrors.reason(e),
                    e);
        }
        Signer signer = Signer.load(keyBytes, passphrase);
        String digest =
                image.digest() != null
                        ? image.digest()
                        : registry.releases(spec.commandLine().getErr()).resolve(image).digest();
        byte[] signature =
                signer.signRelease(image.repositoryName(), digest, "upshift", Instant.now());
        Path written = new DirectoryStore(store).add(digest, signature);
        spec.commandLine()
                .getOut()
                .println(
                        "Signed "
                                + image.repositoryName()
                                + "@"
                                + digest
                                + " with key "
                                + signer.keyId()
                                + ": "
                                + written);
        return 0;
    }
}
