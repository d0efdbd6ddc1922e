package io.upshift.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBuilder;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.PolicyRuleBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBuilder;
import io.fabric8.kubernetes.api.model.rbac.Subject;
import io.fabric8.kubernetes.api.model.rbac.SubjectBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import org.assertj.core.api.ThrowableAssert;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The embedded API server authenticates by bearer token and authorizes by the RBAC it stores, as
 * kube-apiserver does.
 */
@Tag("e2e")
class RbacAuthorizerTest {
    static final ServiceAccount ROBOT = ServiceAccount.of("tools", "robot");
    static final String USER = "system:serviceaccount:tools:robot";

    final EmbeddedApiServer server = new EmbeddedApiServer();
    final KubernetesClient admin = server.client();
    final KubernetesClient robot = server.client("robot", ROBOT);

    @AfterEach
    void stop() {
        robot.close();
        server.close();
    }

    @Test
    void theAdministratorMayDoAnythingAndAServiceAccountNothingUnbound() {
        admin.configMaps().inNamespace("a").resource(configMap("settings")).create();
        assertThat(admin.configMaps().inNamespace("a").list().getItems()).hasSize(1);

        forbidden(
                () -> robot.configMaps().inNamespace("a").withName("settings").get(),
                "configmaps \"settings\" is forbidden: User \""
                        + USER
                        + "\" cannot get resource \"configmaps\" in API group \"\" in the namespace"
                        + " \"a\"");
        forbidden(
                () -> robot.configMaps().inNamespace("a").list(),
                "configmaps is forbidden: User \""
                        + USER
                        + "\" cannot list resource \"configmaps\" in API group \"\" in the"
                        + " namespace \"a\"");
        forbidden(
                () -> robot.nodes().list(),
                "nodes is forbidden: User \""
                        + USER
                        + "\" cannot list resource \"nodes\" in API group \"\" at the cluster"
                        + " scope");
        forbidden(
                () -> robot.apps().deployments().inNamespace("a").withName("web").delete(),
                "deployments.apps \"web\" is forbidden: User \""
                        + USER
                        + "\" cannot delete resource \"deployments\" in API group \"apps\" in the"
                        + " namespace \"a\"");
        assertThat(server.dispatcher().accessRefusals()).hasSize(4).allMatch(m -> m.contains(USER));
    }

    @Test
    void aRoleGrantsItsVerbsInItsNamespaceOnly() {
        admin.configMaps().inNamespace("a").resource(configMap("settings")).create();
        admin.configMaps().inNamespace("b").resource(configMap("settings")).create();
        role(
                "a",
                "reader",
                new PolicyRuleBuilder()
                        .withApiGroups("")
                        .withResources("configmaps")
                        .withVerbs("get", "list")
                        .build());
        bindRole("a", "Role", "reader", serviceAccount(ROBOT));

        assertThat(robot.configMaps().inNamespace("a").withName("settings").get()).isNotNull();
        assertThat(robot.configMaps().inNamespace("a").list().getItems()).hasSize(1);
        forbidden(
                () -> robot.configMaps().inNamespace("a").resource(configMap("other")).create(),
                "configmaps is forbidden: User \""
                        + USER
                        + "\" cannot create resource \"configmaps\" in API group \"\" in the"
                        + " namespace \"a\"");
        forbidden(
                () -> robot.configMaps().inNamespace("a").withName("settings").edit(c -> c),
                "configmaps \"settings\" is forbidden: User \""
                        + USER
                        + "\" cannot patch resource \"configmaps\" in API group \"\" in the"
                        + " namespace \"a\"");
        forbidden(
                () -> robot.configMaps().inNamespace("a").delete(),
                "configmaps is forbidden: User \""
                        + USER
                        + "\" cannot deletecollection resource \"configmaps\" in API group \"\" in"
                        + " the namespace \"a\"");
        forbidden(
                () -> robot.configMaps().inNamespace("b").withName("settings").get(),
                "configmaps \"settings\" is forbidden: User \""
                        + USER
                        + "\" cannot get resource \"configmaps\" in API group \"\" in the namespace"
                        + " \"b\"");
        forbidden(
                () -> robot.configMaps().inAnyNamespace().list(),
                "configmaps is forbidden: User \""
                        + USER
                        + "\" cannot list resource \"configmaps\" in API group \"\" at the cluster"
                        + " scope");
        forbiddenWatch(
                () -> robot.configMaps().inNamespace("a").watch(new Ignore<>()),
                "configmaps is forbidden: User \""
                        + USER
                        + "\" cannot watch resource \"configmaps\" in API group \"\" in the"
                        + " namespace \"a\"");
    }

    @Test
    void
            aClusterRoleGrantsEverywhereThroughAClusterRoleBindingAndInOneNamespaceThroughARoleBinding() {
        admin.nodes()
                .resource(new NodeBuilder().withNewMetadata().withName("n1").endMetadata().build())
                .create();
        admin.configMaps().inNamespace("a").resource(configMap("settings")).create();
        admin.configMaps().inNamespace("b").resource(configMap("settings")).create();
        clusterRole(
                "node-reader",
                new PolicyRuleBuilder()
                        .withApiGroups("")
                        .withResources("nodes")
                        .withVerbs("get", "list", "watch")
                        .build());
        bindCluster("node-reader", serviceAccount(ROBOT));
        clusterRole(
                "configmap-reader",
                new PolicyRuleBuilder()
                        .withApiGroups("")
                        .withResources("configmaps")
                        .withVerbs("get")
                        .build());
        bindRole("b", "ClusterRole", "configmap-reader", serviceAccount(ROBOT));

        assertThat(robot.nodes().withName("n1").get()).isNotNull();
        assertThat(robot.nodes().list().getItems()).hasSize(1);
        assertThat(robot.configMaps().inNamespace("b").withName("settings").get()).isNotNull();
        forbidden(
                () -> robot.configMaps().inNamespace("a").withName("settings").get(),
                "configmaps \"settings\" is forbidden: User \""
                        + USER
                        + "\" cannot get resource \"configmaps\" in API group \"\" in the namespace"
                        + " \"a\"");
        forbidden(
                () -> robot.nodes().withName("n1").delete(),
                "nodes \"n1\" is forbidden: User \""
                        + USER
                        + "\" cannot delete resource \"nodes\" in API group \"\" at the cluster"
                        + " scope");
    }

    @Test
    void resourceNamesAllowOnlyTheObjectsTheyNameAndSoNoListOrCreate() throws Exception {
        admin.configMaps().inNamespace("a").resource(configMap("settings")).create();
        admin.configMaps().inNamespace("a").resource(configMap("secret-ish")).create();
        role(
                "a",
                "one",
                new PolicyRuleBuilder()
                        .withApiGroups("")
                        .withResources("configmaps")
                        .withResourceNames("settings")
                        .withVerbs("get", "list", "watch", "create")
                        .build());
        bindRole("a", "Role", "one", serviceAccount(ROBOT));

        assertThat(robot.configMaps().inNamespace("a").withName("settings").get()).isNotNull();
        forbidden(
                () -> robot.configMaps().inNamespace("a").withName("secret-ish").get(),
                "configmaps \"secret-ish\" is forbidden: User \""
                        + USER
                        + "\" cannot get resource \"configmaps\" in API group \"\" in the namespace"
                        + " \"a\"");
        forbidden(
                () -> robot.configMaps().inNamespace("a").list(),
                "configmaps is forbidden: User \""
                        + USER
                        + "\" cannot list resource \"configmaps\" in API group \"\" in the"
                        + " namespace \"a\"");
        forbidden(
                () -> robot.configMaps().inNamespace("a").resource(configMap("settings2")).create(),
                "configmaps is forbidden: User \""
                        + USER
                        + "\" cannot create resource \"configmaps\" in API group \"\" in the"
                        + " namespace \"a\"");
        // a watch of one object selects it by name, which its resourceNames allow, as client-go's
        // single-object informers do
        robot.configMaps().inNamespace("a").withName("settings").watch(new Ignore<>()).close();
        forbiddenWatch(
                () ->
                        robot.configMaps()
                                .inNamespace("a")
                                .withName("secret-ish")
                                .watch(new Ignore<>()),
                "configmaps \"secret-ish\" is forbidden: User \""
                        + USER
                        + "\" cannot watch resource \"configmaps\" in API group \"\" in the"
                        + " namespace \"a\"");
    }

    @Test
    void aSubresourceIsGrantedApartFromItsResource() throws Exception {
        admin.pods()
                .inNamespace("a")
                .resource(
                        new PodBuilder()
                                .withNewMetadata()
                                .withName("web")
                                .endMetadata()
                                .withNewSpec()
                                .endSpec()
                                .build())
                .create();
        admin.pods()
                .inNamespace("a")
                .resource(
                        new PodBuilder()
                                .withNewMetadata()
                                .withName("db")
                                .endMetadata()
                                .withNewSpec()
                                .endSpec()
                                .build())
                .create();
        clusterRole(
                "evictor",
                new PolicyRuleBuilder()
                        .withApiGroups("")
                        .withResources("pods/eviction")
                        .withVerbs("create")
                        .build(),
                new PolicyRuleBuilder()
                        .withApiGroups("")
                        .withResources("*/status")
                        .withVerbs("get")
                        .build());
        bindCluster("evictor", serviceAccount(ROBOT));

        assertThat(robot.pods().inNamespace("a").withName("web").evict()).isTrue();
        forbidden(
                () -> robot.pods().inNamespace("a").withName("db").delete(),
                "pods \"db\" is forbidden: User \""
                        + USER
                        + "\" cannot delete resource \"pods\" in API group \"\" in the namespace"
                        + " \"a\"");
        forbidden(
                () -> robot.pods().inNamespace("a").withName("db").get(),
                "pods \"db\" is forbidden: User \""
                        + USER
                        + "\" cannot get resource \"pods\" in API group \"\" in the namespace"
                        + " \"a\"");
        assertThat(
                        get("/api/v1/namespaces/a/pods/db/status", "Bearer " + server.token(ROBOT))
                                .statusCode())
                .as("get */status")
                .isEqualTo(200);
    }

    @Test
    void wildcardsMatchAnyGroupResourceAndVerb() {
        admin.apps()
                .deployments()
                .inNamespace("a")
                .resource(
                        new DeploymentBuilder()
                                .withNewMetadata()
                                .withName("web")
                                .endMetadata()
                                .withNewSpec()
                                .withNewSelector()
                                .addToMatchLabels("app", "web")
                                .endSelector()
                                .withNewTemplate()
                                .withNewMetadata()
                                .addToLabels("app", "web")
                                .endMetadata()
                                .withNewSpec()
                                .endSpec()
                                .endTemplate()
                                .endSpec()
                                .build())
                .create();
        clusterRole(
                "viewer",
                new PolicyRuleBuilder()
                        .withApiGroups("*")
                        .withResources("*")
                        .withVerbs("get", "list")
                        .build());
        clusterRole(
                "apps-admin",
                new PolicyRuleBuilder()
                        .withApiGroups("apps")
                        .withResources("*")
                        .withVerbs("*")
                        .build());
        bindCluster("viewer", serviceAccount(ROBOT));
        bindRole("a", "ClusterRole", "apps-admin", serviceAccount(ROBOT));

        assertThat(robot.apps().deployments().inNamespace("a").withName("web").get()).isNotNull();
        assertThat(robot.nodes().list().getItems()).isEmpty();
        assertThat(robot.apps().deployments().inNamespace("a").withName("web").delete()).hasSize(1);
        forbidden(
                () -> robot.configMaps().inNamespace("a").resource(configMap("x")).create(),
                "configmaps is forbidden: User \""
                        + USER
                        + "\" cannot create resource \"configmaps\" in API group \"\" in the"
                        + " namespace \"a\"");
    }

    @Test
    void groupsAndUsersAreSubjectsToo() {
        admin.configMaps().inNamespace("tools").resource(configMap("settings")).create();
        role(
                "tools",
                "reader",
                new PolicyRuleBuilder()
                        .withApiGroups("")
                        .withResources("configmaps")
                        .withVerbs("get")
                        .build());
        // every ServiceAccount of the namespace, by the group its tokens carry
        bindRole(
                "tools",
                "Role",
                "reader",
                new SubjectBuilder()
                        .withKind("Group")
                        .withApiGroup("rbac.authorization.k8s.io")
                        .withName("system:serviceaccounts:tools")
                        .build());
        assertThat(robot.configMaps().inNamespace("tools").withName("settings").get()).isNotNull();
        try (KubernetesClient other =
                server.client("other", ServiceAccount.of("elsewhere", "robot"))) {
            forbidden(
                    () -> other.configMaps().inNamespace("tools").withName("settings").get(),
                    "configmaps \"settings\" is forbidden: User"
                            + " \"system:serviceaccount:elsewhere:robot\" cannot get resource"
                            + " \"configmaps\" in API group \"\" in the namespace \"tools\"");
            bindRole(
                    "tools",
                    "Role",
                    "reader",
                    new SubjectBuilder()
                            .withKind("User")
                            .withApiGroup("rbac.authorization.k8s.io")
                            .withName("system:serviceaccount:elsewhere:robot")
                            .build(),
                    "by-user");
            assertThat(other.configMaps().inNamespace("tools").withName("settings").get())
                    .as("the rules follow each write of RBAC")
                    .isNotNull();
        }
    }

    @Test
    void aBindingWhoseRoleIsMissingSaysSo() {
        bindCluster("nope", serviceAccount(ROBOT));
        forbidden(
                () -> robot.nodes().list(),
                "nodes is forbidden: User \""
                        + USER
                        + "\" cannot list resource \"nodes\" in API group \"\" at the cluster scope"
                        + ": RBAC: clusterrole.rbac.authorization.k8s.io \"nope\" not found");
        // and a binding deleted no longer grants
        clusterRole(
                "nope",
                new PolicyRuleBuilder()
                        .withApiGroups("")
                        .withResources("nodes")
                        .withVerbs("list")
                        .build());
        assertThat(robot.nodes().list().getItems()).isEmpty();
        admin.rbac().clusterRoleBindings().withName("nope").delete();
        forbidden(
                () -> robot.nodes().list(),
                "nodes is forbidden: User \""
                        + USER
                        + "\" cannot list resource \"nodes\" in API group \"\" at the cluster"
                        + " scope");
    }

    @Test
    void discoveryIsForTheAuthenticatedAndAnUnknownTokenIsUnauthorized() throws Exception {
        assertThat(get("/apis", "Bearer " + server.token(ROBOT)).statusCode()).isEqualTo(200);
        assertThat(get("/version", null).statusCode()).as("public info, for anyone").isEqualTo(200);
        HttpResponse<String> anonymous = get("/apis", null);
        assertThat(anonymous.statusCode()).isEqualTo(403);
        assertThat(anonymous.body())
                .contains(
                        "\"message\":\"forbidden: User \\\"system:anonymous\\\" cannot get path"
                                + " \\\"/apis\\\"\"",
                        "\"reason\":\"Forbidden\"");
        HttpResponse<String> anonymousList = get("/api/v1/nodes", null);
        assertThat(anonymousList.statusCode()).isEqualTo(403);
        assertThat(anonymousList.body())
                .contains(
                        "nodes is forbidden: User \\\"system:anonymous\\\" cannot list resource"
                                + " \\\"nodes\\\"");
        HttpResponse<String> unknown = get("/api/v1/nodes", "Bearer not-a-token");
        assertThat(unknown.statusCode()).isEqualTo(401);
        assertThat(unknown.body()).contains("\"reason\":\"Unauthorized\"");
    }

    @Test
    void requestAttributesAreReadAsKubeApiserverReadsThem() {
        RequestAttributes watch =
                RequestAttributes.of(
                        "GET",
                        "/apis/config.openshift.io/v1/featuregates?fieldSelector=metadata.name%3Dcluster&watch=true");
        assertThat(
                        List.of(
                                watch.verb(),
                                watch.group(),
                                watch.resource(),
                                watch.name(),
                                watch.namespace()))
                .containsExactly("watch", "config.openshift.io", "featuregates", "cluster", "");
        assertThat(RbacAuthorizer.forbiddenMessage(ServiceAccount.UPSHIFT.user(), watch, ""))
                .isEqualTo(
                        "featuregates.config.openshift.io \"cluster\" is forbidden: User"
                            + " \"system:serviceaccount:openshift-cluster-version:upshift\" cannot"
                            + " watch resource \"featuregates\" in API group"
                            + " \"config.openshift.io\" at the cluster scope");
        RequestAttributes namespace = RequestAttributes.of("GET", "/api/v1/namespaces/upshift");
        assertThat(
                        List.of(
                                namespace.verb(),
                                namespace.resource(),
                                namespace.name(),
                                namespace.namespace()))
                .containsExactly("get", "namespaces", "upshift", "upshift");
        RequestAttributes status =
                RequestAttributes.of(
                        "PUT", "/apis/config.openshift.io/v1/clusterversions/version/status");
        assertThat(List.of(status.verb(), status.resourceAndSubresource(), status.name()))
                .containsExactly("update", "clusterversions/status", "version");
        RequestAttributes oldWatch =
                RequestAttributes.of("GET", "/api/v1/watch/namespaces/a/pods/web");
        assertThat(
                        List.of(
                                oldWatch.verb(),
                                oldWatch.resource(),
                                oldWatch.namespace(),
                                oldWatch.name()))
                .containsExactly("watch", "pods", "a", "web");
        RequestAttributes discovery = RequestAttributes.of("GET", "/apis/apps/v1");
        assertThat(discovery.resourceRequest()).isFalse();
        assertThat(RequestAttributes.of("DELETE", "/api/v1/namespaces/a/configmaps").verb())
                .isEqualTo("deletecollection");
    }

    private HttpResponse<String> get(String path, String authorization) throws Exception {
        HttpRequest.Builder r =
                HttpRequest.newBuilder(URI.create(server.url().replaceAll("/$", "") + path));
        if (authorization != null) r.header("Authorization", authorization);
        return server.httpClient().send(r.build(), HttpResponse.BodyHandlers.ofString());
    }

    static void forbidden(ThrowableAssert.ThrowingCallable call, String message) {
        assertThatThrownBy(call)
                .isInstanceOfSatisfying(
                        KubernetesClientException.class,
                        e -> {
                            assertThat(e.getCode()).as(e.getMessage()).isEqualTo(403);
                            assertThat(e.getStatus().getReason()).isEqualTo("Forbidden");
                            assertThat(e.getStatus().getMessage()).isEqualTo(message);
                        });
    }

    /**
     * A refused watch: fabric8's client reads no body from a refused websocket upgrade, so the
     * message is the server's log's.
     */
    private void forbiddenWatch(ThrowableAssert.ThrowingCallable call, String message) {
        assertThatThrownBy(call)
                .isInstanceOfSatisfying(
                        KubernetesClientException.class,
                        e -> assertThat(e.getCode()).isEqualTo(403));
        List<String> refusals = server.dispatcher().accessRefusals();
        assertThat(refusals.get(refusals.size() - 1)).isEqualTo(message);
    }

    private static ConfigMap configMap(String name) {
        return new ConfigMapBuilder()
                .withNewMetadata()
                .withName(name)
                .endMetadata()
                .addToData("k", "v")
                .build();
    }

    private void role(String namespace, String name, PolicyRule... rules) {
        admin.rbac()
                .roles()
                .inNamespace(namespace)
                .resource(
                        new RoleBuilder()
                                .withNewMetadata()
                                .withName(name)
                                .endMetadata()
                                .withRules(rules)
                                .build())
                .create();
    }

    private void clusterRole(String name, PolicyRule... rules) {
        admin.rbac()
                .clusterRoles()
                .resource(
                        new ClusterRoleBuilder()
                                .withNewMetadata()
                                .withName(name)
                                .endMetadata()
                                .withRules(rules)
                                .build())
                .create();
    }

    private void bindRole(String namespace, String kind, String role, Subject subject) {
        bindRole(namespace, kind, role, subject, role);
    }

    private void bindRole(
            String namespace, String kind, String role, Subject subject, String name) {
        admin.rbac()
                .roleBindings()
                .inNamespace(namespace)
                .resource(
                        new RoleBindingBuilder()
                                .withNewMetadata()
                                .withName(name)
                                .endMetadata()
                                .withNewRoleRef()
                                .withApiGroup("rbac.authorization.k8s.io")
                                .withKind(kind)
                                .withName(role)
                                .endRoleRef()
                                .withSubjects(subject)
                                .build())
                .create();
    }

    private void bindCluster(String role, Subject subject) {
        admin.rbac()
                .clusterRoleBindings()
                .resource(
                        new ClusterRoleBindingBuilder()
                                .withNewMetadata()
                                .withName(role)
                                .endMetadata()
                                .withNewRoleRef()
                                .withApiGroup("rbac.authorization.k8s.io")
                                .withKind("ClusterRole")
                                .withName(role)
                                .endRoleRef()
                                .withSubjects(subject)
                                .build())
                .create();
    }

    private static Subject serviceAccount(ServiceAccount account) {
        return new SubjectBuilder()
                .withKind("ServiceAccount")
                .withName(account.name())
                .withNamespace(account.namespace())
                .build();
    }

    private static final class Ignore<T> implements Watcher<T> {
        @Override
        public void eventReceived(Action action, T resource) {}

        @Override
        public void onClose(WatcherException cause) {}
    }
}
