package io.upshift.operator.cvo;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.upshift.core.payload.Manifest;
import io.upshift.core.payload.ManifestReader;
import org.junit.jupiter.api.Test;

/** Readiness judged from what the task wrote, not from a cache that has not seen the write yet. */
class ReadinessTest {

    static GenericKubernetesResource deployment(String uid, long generation, long observedGeneration) {
        return Serialization.unmarshal("{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"metadata\":{\"name\":\"web\",\"namespace\":\"ns\",\"uid\":\"" + uid
                + "\",\"generation\":" + generation + "},\"spec\":{\"replicas\":1},\"status\":{\"observedGeneration\":" + observedGeneration
                + ",\"replicas\":1,\"updatedReplicas\":1,\"availableReplicas\":1,\"conditions\":[{\"type\":\"Available\",\"status\":\"True\"}]}}",
                GenericKubernetesResource.class);
    }

    @Test
    void aDeploymentJustChangedIsNotReadyWhileTheCacheStillHoldsItsPreviousGeneration() throws Exception {
        Manifest m = ManifestReader.read("0000_50_test_01_deployment.yaml",
                "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  namespace: ns\nspec:\n  replicas: 1\n").get(0);
        GenericKubernetesResource cachedBefore = deployment("u1", 1, 1); // rolled out, as it was before the write
        GenericKubernetesResource written = deployment("u1", 2, 1);      // the patch's response: new spec, old status

        assertThat(Readiness.check(m, cachedBefore)).isNull(); // what a stale cache alone would say
        assertThat(Readiness.check(m, Readiness.observed(cachedBefore, written)).reason()).isEqualTo("WorkloadNotAvailable");
        assertThat(Readiness.observed(null, written)).isSameAs(written);
        assertThat(Readiness.observed(deployment("u0", 5, 5), written)).isSameAs(written); // another object by that name

        GenericKubernetesResource rolledOut = deployment("u1", 2, 2); // the cache caught up: judge from it
        assertThat(Readiness.observed(rolledOut, written)).isSameAs(rolledOut);
        assertThat(Readiness.check(m, Readiness.observed(rolledOut, written))).isNull();
        assertThat(Readiness.observed(cachedBefore, null)).isSameAs(cachedBefore); // nothing written: the cache
    }
}
