package dev.sidecarwait.nativeimage;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sidecarwait.SidecarWaitProcess;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The binary's TLS is Mbed TLS alone: the JDK's (javax.net.ssl, its providers, java.security.cert), which the JVM
 * uses, is not in it (it would cost 10.8 MB: docs/native.md). Read from the binary's own bytes: a type in the image
 * keeps its name there.
 */
@Tag(SidecarWaitProcess.PROCESS_TAG)
class TlsInTheBinaryTest {

    @Test
    @Tag(SidecarWaitProcess.NATIVE_ONLY_TAG)
    void theBinaryHoldsMbedTlsAndNotTheJdksTls() throws Exception {
        String binary = new String(Files.readAllBytes(SidecarWaitProcess.BINARY), StandardCharsets.ISO_8859_1);
        List<String> present = List.of("dev.sidecarwait.tls.MbedTls", "dev.sidecarwait.tls.MbedTlsEngine",
                "dev.sidecarwait.tls.TlsConnection");
        List<String> absent = List.of("dev.sidecarwait.tls.JdkTls", "dev.sidecarwait.tls.JdkTlsEngine", "javax.net.ssl.SSLEngine",
                "sun.security.ssl.SSLEngineImpl", "java.security.cert.CertificateFactory", "sun.security.validator.PKIXValidator");
        assertEquals(present, present.stream().filter(binary::contains).toList(), "Mbed TLS's classes are in the binary");
        assertEquals(List.of(), absent.stream().filter(binary::contains).toList(), "none of the JDK's TLS is");
    }
}
