package dev.sidecarwait.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;

import javax.net.ssl.SSLException;
import javax.net.ssl.SSLHandshakeException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Whose alert the JDK's words name (issue #54: an empty TLS 1.3 Certificate from the server read as "the server ended
 * TLS with alert close_notify (0)"). The JDK words an alert it received "Received fatal alert: NAME", and one it
 * raises itself "(NAME) reason" (sun/security/ssl/Alert.java, TransportContext.fatal; an empty TLS 1.3 Certificate is
 * CertificateMessage.java's fatal(Alert.BAD_CERTIFICATE, "Empty server certificate chain")): only the first is the server's
 * (-1: this side's failure, no alert of the server's). No server here can send an empty TLS 1.3 Certificate (every
 * real one refuses to), so the rule is held on the JDK's own wordings, each as its source writes it.
 */
class JdkAlertWordsTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "(certificate_required) Empty server certificate chain | -1",
            "(bad_certificate) Empty server certificate chain | -1",
            "(decode_error) Unexpected handshake message: certificate | -1",
            "(close_notify) Received close_notify during handshake | -1",
            "Received fatal alert: handshake_failure | 40",
            "Received fatal alert: certificate_unknown | 46",
            "Received fatal alert: close_notify | 0",
            "Received fatal close_notify alert | 0",
            "Unknown alert description (-5) | 251"})
    void onlyAnAlertReceivedIsTheServers(String words, int alert) {
        assertEquals(alert, JdkTlsEngine.failure(new SSLHandshakeException(words)).alert(), words);
        assertEquals(alert, JdkTlsEngine.failure(new SSLException(words)).alert(), words);
    }
}
