package io.upshift.cli.demo;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodList;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudgetList;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.upshift.core.pools.Disruptions;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The embedded API server with what node drains need and it lacks: the Eviction subresource
 * ({@code POST .../pods/<name>/eviction} deletes the pod unless a PodDisruptionBudget covering it allows no
 * disruption now, which answers 429 as Kubernetes does), and listing pods by {@code fieldSelector=spec.nodeName}.
 */
public final class EvictingDispatcher extends KubernetesCrudDispatcher {
    private static final Pattern EVICTION = Pattern.compile("/api/v1/namespaces/([^/]+)/pods/([^/]+)/eviction");

    private static final Pattern NODE_SELECTOR = Pattern.compile("/api/v1/pods\\?fieldSelector=spec\\.nodeName%3D([^&]+)");

    @Override
    public MockResponse dispatch(RecordedRequest request) {
        if ("POST".equals(request.getMethod())) {
            Matcher m = EVICTION.matcher(request.getPath().split("\\?")[0]);
            if (m.matches()) return evict(m.group(1), m.group(2));
        }
        if ("GET".equals(request.getMethod())) {
            Matcher m = NODE_SELECTOR.matcher(request.getPath());
            if (m.matches()) return podsOn(m.group(1));
        }
        return super.dispatch(request);
    }

    private MockResponse podsOn(String node) {
        PodList all = Serialization.unmarshal(handleGet("/api/v1/pods").getBody().readUtf8(), PodList.class);
        all.setItems(all.getItems().stream().filter(p -> p.getSpec() != null && node.equals(p.getSpec().getNodeName())).toList());
        return new MockResponse().setResponseCode(200).setBody(Serialization.asJson(all));
    }

    private synchronized MockResponse evict(String namespace, String name) {
        List<Pod> pods = Serialization.unmarshal(handleGet("/api/v1/namespaces/" + namespace + "/pods").getBody().readUtf8(), PodList.class).getItems();
        Pod pod = pods.stream().filter(p -> p.getMetadata().getName().equals(name)).findFirst().orElse(null);
        if (pod == null) return status(404, "NotFound", "pods \"" + name + "\" not found");
        MockResponse budgets = handleGet("/apis/policy/v1/namespaces/" + namespace + "/poddisruptionbudgets");
        if (budgets.code() == 200) {
            for (PodDisruptionBudget pdb : Serialization.unmarshal(budgets.getBody().readUtf8(), PodDisruptionBudgetList.class).getItems()) {
                if (Disruptions.covers(pdb, pod) && Disruptions.allowed(pdb, pods) == 0) {
                    return status(429, "TooManyRequests", "Cannot evict pod as it would violate the pod's disruption budget.");
                }
            }
        }
        handleDelete("/api/v1/namespaces/" + namespace + "/pods/" + name);
        return new MockResponse().setResponseCode(201).setBody("{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Success\",\"code\":201}");
    }

    private static MockResponse status(int code, String reason, String message) {
        return new MockResponse().setResponseCode(code).setBody("{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"reason\":\""
                + reason + "\",\"code\":" + code + ",\"message\":\"" + message.replace("\"", "\\\"") + "\"}");
    }
}
