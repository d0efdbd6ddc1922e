package io.upshift.cli;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.openshift.api.model.config.v1.ClusterVersion;
import io.fabric8.openshift.api.model.config.v1.Update;
import io.fabric8.openshift.api.model.config.v1.UpdateHistory;
import io.upshift.core.version.SemVer;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code upshift rollback}: go back to the previous release, only within the same minor version. */
@Command(name = "rollback", mixinStandardHelpOptions = true,
        description = {"Request the release the cluster ran before the current one (the previous history entry).",
                "Only within the same major.minor version; anything else is refused."})
public final class RollbackCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    KubeconfigOption kube;

    @Mixin
    VerboseOption verbose;

    @Override
    public Integer call() {
        try (KubernetesClient client = kube.connect()) {
            ClusterVersion cv = ClusterVersions.require(client);
            List<UpdateHistory> history = cv.getStatus() == null || cv.getStatus().getHistory() == null ? List.of() : cv.getStatus().getHistory();
            if (history.size() < 2) throw new IllegalStateException("there is no previous release to roll back to: the history has " + history.size() + " entr" + (history.size() == 1 ? "y" : "ies"));
            UpdateHistory current = history.get(0), previous = history.get(1);
            if (!SemVer.isValid(current.getVersion()) || !SemVer.isValid(previous.getVersion())) {
                throw new IllegalStateException("cannot compare versions " + current.getVersion() + " and " + previous.getVersion());
            }
            SemVer now = SemVer.parse(current.getVersion()), before = SemVer.parse(previous.getVersion());
            if (now.major() != before.major() || now.minor() != before.minor()) {
                throw new IllegalStateException("refusing to roll back from " + now + " to " + before + ": rollbacks are supported only within one minor version ("
                        + now.majorMinor() + " to " + before.majorMinor() + " is not)");
            }
            if (before.compareTo(now) >= 0) {
                throw new IllegalStateException("the previous release " + before + " is not older than the current " + now + "; use `upshift upgrade --to`");
            }
            Update update = new Update();
            update.setVersion(previous.getVersion());
            update.setImage(previous.getImage());
            cv.getSpec().setDesiredUpdate(update);
            ClusterVersions.update(client, cv);
            spec.commandLine().getOut().println("Requested rollback from " + now + " to " + before + " (" + previous.getImage() + ")");
            spec.commandLine().getOut().flush();
            return 0;
        }
    }
}
