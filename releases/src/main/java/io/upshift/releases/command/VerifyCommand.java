package io.upshift.releases.command;

import io.upshift.api.files.DiskErrors;
import io.upshift.releases.metadata.Reason;
import io.upshift.releases.metadata.ReleaseException;
import io.upshift.releases.signatures.HttpSignatureStore;
import io.upshift.releases.signatures.SignatureStores;
import io.upshift.releases.verify.Keyring;
import io.upshift.releases.verify.SignatureStore;
import io.upshift.releases.verify.SignatureVerifier;
import io.upshift.runtime.cli.VerboseOption;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(
        name = "verify",
        mixinStandardHelpOptions = true,
        description =
                "Verify a release digest: every keyring must have signed it, with a signature in"
                        + " one of the stores.")
public final class VerifyCommand implements Callable<Integer> {

    @Spec picocli.CommandLine.Model.CommandSpec spec;

    @Parameters(
            paramLabel = "REF",
            description = "The release, by digest (HOST/REPO@sha256:… or sha256:…).")
    String ref;

    @Option(
            names = "--keyring",
            required = true,
            paramLabel = "FILE",
            description = "Armored public keyring; repeat for several (all must sign).")
    List<Path> keyrings;

    @Option(
            names = "--store",
            required = true,
            paramLabel = "URL|DIR",
            description = "Signature store: http(s):// or file:// URL, or a directory; repeatable.")
    List<String> stores;

    @Mixin VerboseOption verbose;

    @Override
    public Integer call() throws ReleaseException {
        List<Keyring> rings = new ArrayList<>();
        for (Path k : keyrings) {
            try {
                rings.add(Keyring.parse(k.getFileName().toString(), Files.readAllBytes(k)));
            } catch (IOException e) {
                throw new ReleaseException(
                        Reason.KEY_INVALID,
                        "cannot read keyring " + k + ": " + DiskErrors.reason(e),
                        e);
            }
        }
        SignatureStores open =
                new SignatureStores(HttpSignatureStore.defaultClient()).forOneVerification();
        List<SignatureStore> opened = new ArrayList<>();
        for (String s : stores)
            opened.add(
                    open.open(
                            s.contains("://")
                                    ? URI.create(s)
                                    : Path.of(s).toAbsolutePath().toUri()));
        SignatureVerifier.Verified v = new SignatureVerifier(rings, opened).verify(ref);
        var out = spec.commandLine().getOut();
        out.println("Verified " + v.digest());
        v.signatureByKeyring().forEach((ring, sig) -> out.println("  " + ring + ": " + sig));
        return 0;
    }
}
