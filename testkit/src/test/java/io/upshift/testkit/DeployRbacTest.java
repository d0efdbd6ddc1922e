package io.upshift.testkit;

import static io.upshift.testkit.RbacAuthorizerTest.forbidden;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * deploy/rbac.yaml, installed into an API server (the real one when the binaries are there), is
 * what each controller's ServiceAccount may do.
 */
@Tag("e2e")
class DeployRbacTest {
    final ApiServer server = ApiServers.start().installRbac();

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void thePoolControllerMayNotDeleteADeployment() {
        try (KubernetesClient pools =
                server.client("upshift-pools", ServiceAccount.MACHINE_CONFIG_OPERATOR)) {
            forbidden(
                    () ->
                            pools.apps()
                                    .deployments()
                                    .inNamespace("openshift-machine-config-operator")
                                    .withName("machine-config-daemon")
                                    .delete(),
                    "deployments.apps \"machine-config-daemon\" is forbidden: User"
                        + " \"system:serviceaccount:openshift-machine-config-operator:machine-config-operator\""
                        + " cannot delete resource \"deployments\" in API group \"apps\" in the"
                        + " namespace \"openshift-machine-config-operator\"");
            assertThat(server.accessRefusals()).hasSize(1);
        }
    }

    @Test
    void thePoolControllerRunsHookJobsInItsOwnNamespaceAlone() {
        String ns = "openshift-machine-config-operator";
        try (KubernetesClient pools =
                server.client("upshift-pools", ServiceAccount.MACHINE_CONFIG_OPERATOR)) {
            pools.batch().v1().jobs().inNamespace(ns).resource(hookJob()).create();
            assertThat(pools.batch().v1().jobs().inNamespace(ns).list().getItems()).hasSize(1);
            pools.batch().v1().jobs().inNamespace(ns).withName("upshift-pre-drain-w0-0").delete();
            forbidden(
                    () ->
                            pools.batch()
                                    .v1()
                                    .jobs()
                                    .inNamespace("default")
                                    .resource(hookJob())
                                    .create(),
                    "jobs.batch is forbidden: User"
                        + " \"system:serviceaccount:openshift-machine-config-operator:machine-config-operator\""
                        + " cannot create resource \"jobs\" in API group \"batch\" in the namespace"
                        + " \"default\"");
            assertThat(server.accessRefusals()).hasSize(1);
        }
    }

    static io.fabric8.kubernetes.api.model.batch.v1.Job hookJob() {
        return new io.fabric8.kubernetes.api.model.batch.v1.JobBuilder()
                .withNewMetadata()
                .withName("upshift-pre-drain-w0-0")
                .addToLabels("upshift.io/hook", "pre-drain")
                .endMetadata()
                .withNewSpec()
                .withNewTemplate()
                .withNewSpec()
                .withRestartPolicy("Never")
                .addNewContainer()
                .withName("hook")
                .withImage("registry.example/hook:1")
                .endContainer()
                .endSpec()
                .endTemplate()
                .endSpec()
                .build();
    }

    @Test
    void theAgentPatchesNodesButDeletesNone() {
        server.client()
                .nodes()
                .resource(
                        new NodeBuilder()
                                .withNewMetadata()
                                .withName("worker-0")
                                .endMetadata()
                                .build())
                .create();
        try (KubernetesClient agent =
                server.client("upshift-agent", ServiceAccount.MACHINE_CONFIG_DAEMON)) {
            agent.nodes()
                    .withName("worker-0")
                    .edit(
                            n ->
                                    new NodeBuilder(n)
                                            .editMetadata()
                                            .addToAnnotations("a", "b")
                                            .endMetadata()
                                            .build());
            forbidden(
                    () -> agent.nodes().withName("worker-0").delete(),
                    "nodes \"worker-0\" is forbidden: User"
                        + " \"system:serviceaccount:openshift-machine-config-operator:machine-config-daemon\""
                        + " cannot delete resource \"nodes\" in API group \"\" at the cluster"
                        + " scope");
        }
    }

    @Test
    void theClusterVersionControllerIsClusterAdminAsUpstreamsIs() {
        try (KubernetesClient controller =
                server.client("upshift-cluster-version", ServiceAccount.UPSHIFT)) {
            var widgets =
                    controller
                            .genericKubernetesResources(
                                    new ResourceDefinitionContext.Builder()
                                            .withGroup("example.com")
                                            .withVersion("v1")
                                            .withKind("Widget")
                                            .withPlural("widgets")
                                            .withNamespaced(true)
                                            .build())
                            .inNamespace("anywhere");
            try {
                widgets.list();
            } catch (KubernetesClientException e) {
                // a real server serves no widgets (no CRD): 404, once RBAC allowed the request
                assertThat(e.getCode()).isEqualTo(404);
            }
            controller.nodes().list();
            assertThat(server.accessRefusals()).isEmpty();
        }
    }

    @Test
    void deploysNamespacesAndServiceAccountsAreThere() {
        assertThat(server.client().namespaces().withName("openshift-machine-config-operator").get())
                .isNotNull();
        assertThat(
                        server.client()
                                .serviceAccounts()
                                .inNamespace("openshift-cluster-version")
                                .withName("upshift")
                                .get())
                .isNotNull();
        assertThat(server.client().rbac().clusterRoleBindings().withName("cluster-admin").get())
                .as("kube-apiserver's own")
                .isNotNull();
    }
}
