package dev.sidecarwait.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sidecarwait.servers.TestCa;
import dev.sidecarwait.wire.ProbeFailure;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The in-cluster configuration as client-go finds it, and each thing missing said with what to change. */
class ApiServerTest {

    @TempDir
    Path dir;

    private Map<String, String> pod() throws Exception {
        TestCa ca = TestCa.create(dir, "kubernetes CA");
        Files.writeString(dir.resolve("token"), "header.payload.signature\n");
        Map<String, String> env = new HashMap<>(Map.of("KUBERNETES_SERVICE_HOST", "10.96.0.1", "KUBERNETES_SERVICE_PORT", "443",
                ApiServer.TOKEN_FILE, dir.resolve("token").toString(), ApiServer.CA_FILE, ca.cert.toString(), "POD_NAMESPACE", "shop"));
        return env;
    }

    @Test
    void readsTheServiceTheTokenTheCaAndTheNamespace() throws Exception {
        ApiServer api = ApiServer.inCluster(pod()::get);
        assertEquals("10.96.0.1:443", api.authority());
        assertEquals("shop", api.namespace());
        assertEquals("header.payload.signature", api.token());
        Files.writeString(dir.resolve("token"), "rotated.payload.signature");
        assertEquals("rotated.payload.signature", api.token(), "the token is read again for every request");
        Map<String, String> ipv6 = pod();
        ipv6.put("KUBERNETES_SERVICE_HOST", "fd00:10:96::1");
        assertEquals("[fd00:10:96::1]:443", ApiServer.inCluster(ipv6::get).authority());
    }

    @Test
    void whatIsMissingIsSaidWithWhatToChange() throws Exception {
        Map<String, String> outside = pod();
        outside.remove("KUBERNETES_SERVICE_HOST");
        assertTrue(assertThrows(IllegalArgumentException.class, () -> ApiServer.inCluster(outside::get)).getMessage()
                .contains("not a Kubernetes pod"));
        Map<String, String> port = pod();
        port.put("KUBERNETES_SERVICE_PORT", "https");
        assertTrue(assertThrows(IllegalArgumentException.class, () -> ApiServer.inCluster(port::get)).getMessage()
                .contains("KUBERNETES_SERVICE_PORT 'https' is not a port number"));
        Map<String, String> unmounted = pod();
        unmounted.put(ApiServer.TOKEN_FILE, dir.resolve("none").toString());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> ApiServer.inCluster(unmounted::get)).getMessage()
                .contains("automountServiceAccountToken: false"));
        Map<String, String> noCa = pod();
        Files.writeString(dir.resolve("empty.crt"), "");
        noCa.put(ApiServer.CA_FILE, dir.resolve("empty.crt").toString());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> ApiServer.inCluster(noCa::get)).getMessage()
                .contains("the API server's CA " + dir.resolve("empty.crt")));
    }

    @Test
    void aTokenTooLargeOrNotOneWordIsRefusedAndNeverShown() throws Exception {
        ApiServer api = ApiServer.inCluster(pod()::get);
        Files.writeString(dir.resolve("token"), "x".repeat(ApiServer.MAX_TOKEN + 1));
        assertTrue(assertThrows(ProbeFailure.class, api::token).getMessage().contains("is over 65536 bytes"));
        Files.writeString(dir.resolve("token"), "secret part\u001b[2J");
        ProbeFailure notAWord = assertThrows(ProbeFailure.class, api::token);
        assertTrue(notAWord.getMessage().contains("empty or not one word"), notAWord.getMessage());
        assertTrue(!notAWord.getMessage().contains("secret"), notAWord.getMessage());
    }
}
