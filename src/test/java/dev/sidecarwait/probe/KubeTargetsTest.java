package dev.sidecarwait.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** k8s:// URLs as users write them, and every contradiction refused before the wait with what to write instead. */
class KubeTargetsTest {

    private static KubeQuery query(String url) {
        return ((Target.Kube) Target.parse(url)).query();
    }

    @Test
    void typesAsKubectlSpellsThemNamesAndParameters() {
        assertEquals(new KubeQuery("jobs.batch", ObjectKind.JOB, "migrate", null, null, null, "True", 1, false),
                query("k8s://jobs.batch/migrate"));
        assertEquals(new KubeQuery("job", ObjectKind.JOB, "migrate", null, "shop", null, "True", 1, true),
                query("k8s://job/migrate?namespace=shop&absent=ready"));
        assertEquals(ObjectKind.SERVICE, query("k8s://svc/orders-db?endpoints=2").kind());
        assertEquals(2, query("k8s://svc/orders-db?endpoints=2").endpoints());
        assertEquals("app=db,tier in (a,b)", query("k8s://pods?selector=app%3Ddb%2Ctier%20in%20(a%2Cb)").selector());
        assertEquals(ObjectKind.STATEFULSET, query("k8s://STS/db").kind());
        KubeQuery certificate = query("k8s://certificates.cert-manager.io/web-tls?condition=Ready&status=false");
        assertEquals(ObjectKind.OTHER, certificate.kind());
        assertEquals("False", certificate.status());
        assertEquals("job/migrate", query("k8s://job/migrate").shown());
        assertEquals("k8s", Target.parse("k8s://job/migrate").kind());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "k8s://job|name the object",
        "k8s:///migrate|the object's type and name",
        "k8s://job/Migrate|is not an object's name",
        "k8s://job/a/b|is not an object's name",
        "k8s://job/migrate?selector=app%3Ddb|not both",
        "k8s://job?selector=app%3Ddb|?selector= picks pods",
        "k8s://certificates.cert-manager.io/web|name the condition that means ready",
        "k8s://job/migrate?absent=yes|?absent= is ready",
        "k8s://svc/db?absent=ready|?absent= goes with a Job",
        "k8s://job/migrate?endpoints=2|?endpoints= goes with a Service",
        "k8s://svc/db?endpoints=0|from 1 to 99999",
        "k8s://job/migrate?status=True|?status= goes with ?condition=",
        "k8s://job/migrate?namespace=Shop_1|?namespace= is a namespace's name",
        "k8s://job/migrate?ns=shop|takes no parameter 'ns'",
        "k8s://job/migrate#x|the object's type and name",
        "k8s://user:pw@job/migrate|sends no user or password",
        "k8s://j_b/migrate|is not a resource type",
    })
    void refusedWithWhatToWriteInstead(String url, String says) {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> Target.parse(url));
        assertTrue(refused.getMessage().contains(says), refused.getMessage());
        assertTrue(!refused.getMessage().contains("pw"), refused.getMessage());
    }
}
