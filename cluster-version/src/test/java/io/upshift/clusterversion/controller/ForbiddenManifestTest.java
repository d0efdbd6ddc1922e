package io.upshift.clusterversion.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBuilder;
import io.fabric8.kubernetes.api.model.rbac.PolicyRuleBuilder;
import io.fabric8.openshift.api.model.config.v1.ClusterOperatorStatusCondition;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An administrator who binds the controller to a narrower role than deploy/'s cluster-admin: a
 * manifest of a kind the role does not cover fails its task, named with the API server's refusal in
 * the Failing condition, and is tried again at the controller's pace (no hot loop), never a stall.
 */
@Tag("e2e")
class ForbiddenManifestTest {
    static final String PDB =
            "apiVersion: policy/v1\n"
                    + "kind: PodDisruptionBudget\n"
                    + "metadata:\n"
                    + "  name: web\n"
                    + "  namespace: test-ns\n"
                    + "  annotations:\n"
                    + FakePayloads.INCLUDED
                    + "spec:\n  minAvailable: 1\n  selector:\n    matchLabels:\n      app: web\n";

    @TempDir Path dir;

    @Test
    void aManifestTheControllersRoleDoesNotAllowFailsNamingTheRefusal() throws Exception {
        try (ControllerHarness h = new ControllerHarness(dir)) {
            narrow(h);
            String a = h.payloads.release("4.1.0", "4.1.0", true);
            String b = h.payloads.release("4.1.1", "4.1.1", true, PDB);
            h.start(ControllerHarness.options(a, dir.resolve("cache")));
            await("4.1.0 installed")
                    .atMost(Duration.ofSeconds(60))
                    .until(() -> h.completed("4.1.0"));

            h.requestUpdate("4.1.1", b, false);
            ClusterOperatorStatusCondition failing =
                    await().atMost(Duration.ofSeconds(60))
                            .until(
                                    () -> h.condition("Failing"),
                                    c -> c != null && "True".equals(c.getStatus()));
            assertThat(failing.getReason()).isEqualTo("UpdatePayloadResourceForbidden");
            assertThat(failing.getMessage())
                    .startsWith("Could not update PodDisruptionBudget \"test-ns/web\" (")
                    .endsWith(
                            "): the server has forbidden updates to this resource:"
                                    + " poddisruptionbudgets.policy \"web\" is forbidden: User"
                                    + " \"system:serviceaccount:openshift-cluster-version:upshift\""
                                    + " cannot get resource \"poddisruptionbudgets\" in API group"
                                    + " \"policy\" in the namespace \"test-ns\"");
            assertThat(h.condition("Progressing").getMessage())
                    .isEqualTo("Unable to apply 4.1.1: the server is rejecting updates");

            // tried again pass after pass (a pass every second or two here), not in a loop
            int before =
                    h.controllerRequests(r -> r.path().contains("/poddisruptionbudgets")).size();
            long passes = h.controller.passes();
            h.passesWritten(3);
            int during =
                    h.controllerRequests(r -> r.path().contains("/poddisruptionbudgets")).size()
                            - before;
            long ran = h.controller.passes() - passes;
            assertThat(during)
                    .as("requests for the refused manifest in %d passes", ran)
                    .isBetween(1, (int) (10 * ran));
            assertThat(h.completed("4.1.1")).isFalse();

            // once the role allows it, the update goes on
            h.client
                    .rbac()
                    .clusterRoles()
                    .withName("upshift-narrow")
                    .edit(
                            r ->
                                    new ClusterRoleBuilder(r)
                                            .addToRules(
                                                    new PolicyRuleBuilder()
                                                            .withApiGroups("policy")
                                                            .withResources("poddisruptionbudgets")
                                                            .withVerbs(
                                                                    "get", "list", "watch",
                                                                    "create", "update", "patch")
                                                            .build())
                                            .build());
            await("4.1.1 completed once allowed")
                    .atMost(Duration.ofSeconds(60))
                    .until(() -> h.completed("4.1.1"));
        }
    }

    /**
     * The controller bound to a role that reads and writes what its own work and the test payload
     * need, and nothing of the policy group.
     */
    private static void narrow(ControllerHarness h) {
        h.client
                .rbac()
                .clusterRoles()
                .resource(
                        new ClusterRoleBuilder()
                                .withNewMetadata()
                                .withName("upshift-narrow")
                                .endMetadata()
                                .addToRules(
                                        new PolicyRuleBuilder()
                                                .withApiGroups(
                                                        "",
                                                        "apps",
                                                        "batch",
                                                        "config.openshift.io",
                                                        "update.openshift.io",
                                                        "coordination.k8s.io",
                                                        "apiextensions.k8s.io",
                                                        "machineconfiguration.openshift.io",
                                                        "operator.openshift.io")
                                                .withResources("*")
                                                .withVerbs("*")
                                                .build())
                                .build())
                .create();
        h.client.rbac().clusterRoleBindings().withName("upshift-controller").delete();
        h.client
                .rbac()
                .clusterRoleBindings()
                .resource(
                        new ClusterRoleBindingBuilder()
                                .withNewMetadata()
                                .withName("upshift-controller")
                                .endMetadata()
                                .withNewRoleRef()
                                .withApiGroup("rbac.authorization.k8s.io")
                                .withKind("ClusterRole")
                                .withName("upshift-narrow")
                                .endRoleRef()
                                .addNewSubject()
                                .withKind("ServiceAccount")
                                .withName("upshift")
                                .withNamespace("openshift-cluster-version")
                                .endSubject()
                                .build())
                .create();
    }
}
