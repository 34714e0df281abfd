package dev.sidecarwait.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.InputStream;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Every URL of issue #56's corpus (src/test/resources/urls/go-net-url.json: what Go's net/url and net/http, which
 * pilot-agent reads its --url with, make of each) beside this project's answer: attempted with Go's host, port and
 * request target (GO), attempted otherwise ("host port target"), or refused with a reason ("refused: words of the
 * reason"). Every answer that is not Go's says why.
 */
class UrlCorpusTest {

    private static final String GO = "go";

    /** URL, answer, why it is not Go's ("" when it is). */
    private static final String[][] ANSWERS = {
        {"http://my_service:8080/health", GO, ""},
        {"http://cache_1:6379/", GO, ""},
        {"http://_acme-challenge.example.com/", GO, ""},
        {"http://bücher.example:8080/", "xn--bcher-kva.example 8080 /",
            "the same request: Go's Hostname() keeps the Unicode and its client looks up the punycode, as here"},
        {"http://xn--bcher-kva.example:8080/", GO, ""},
        {"http://LOCALHOST:15021/healthz/ready", GO, ""},
        {"http://localhost.:15021/healthz/ready", GO, ""},
        {"http://local host:1/", "refused: the host 'local host' holds ' '", ""},
        {"http://a..b/", "refused: the host 'a..b' has an empty label", "Go fails at the lookup; refused before it"},
        {"http://-leading.example/", "refused: starts or ends with '-'", "Go's resolver refuses the name; refused before"},
        {"http://trailing-.example/", "refused: starts or ends with '-'", "Go's resolver refuses the name; refused before"},
        {"http://%6Cocalhost:15021/", "refused: the host '%6Cocalhost' is percent-encoded", ""},
        {"http://exa%20mple.com/", "refused: is percent-encoded", ""},
        {"http://example.com\\@evil.com/", "refused: a '\\' is not allowed before the path", ""},
        {"http://127.0.0.1:15021/healthz/ready", GO, ""},
        {"http://127.1:15021/", "refused: an IPv4 address in a form resolvers do not take",
            "Go looks '127.1' up as a name and finds none; refused before, saying what to write"},
        {"http://0x7f.0.0.1:15021/", "refused: an IPv4 address in a form resolvers do not take",
            "Go looks it up as a name and finds none; refused before"},
        {"http://017700000001:15021/", "refused: an IPv4 address in a form resolvers do not take",
            "Go looks it up as a name and finds none; refused before"},
        {"http://2130706433:15021/", "refused: an IPv4 address in a form resolvers do not take",
            "Go looks it up as a name and finds none; refused before"},
        {"http://[::1]:15021/healthz/ready", GO, ""},
        {"http://[::ffff:127.0.0.1]:15021/", GO, ""},
        {"http://[fe80::1%25eth0]:15021/", GO, ""},
        {"http://[fe80::1%eth0]:15021/", "refused: an IPv6 zone is written after %25", ""},
        {"http://[::1/", "refused: no ']' after the IPv6 address", ""},
        {"http://::1:15021/", "refused: an IPv6 address is written in brackets",
            "Go reads host '::1' and port 15021 from it; brackets are how an address with colons is written"},
        {"http://localhost:/healthz/ready", GO, ""},
        {"http://localhost:0/", "refused: port '0' is not a number from 1 to 65535", "Go dials port 0 and fails"},
        {"http://localhost:01/", GO, ""},
        {"http://localhost:65535/", GO, ""},
        {"http://localhost:65536/", "refused: port '65536' is not a number from 1 to 65535", "Go fails at the dial"},
        {"http://localhost:-1/", "refused: port '-1' is not a number from 1 to 65535", ""},
        {"http://localhost:8o8o/", "refused: port '8o8o' is not a number from 1 to 65535", ""},
        {"http://localhost:15021:15021/", "refused: more than one port after the host",
            "Go reads host 'localhost:15021', which no resolver finds"},
        {"https://localhost/healthz/ready", GO, ""},
        {"http://user:pass@localhost:15672/api/health/checks/alarms", GO, ""},
        {"http://user@localhost:1/", GO, ""},
        {"http://:pass@localhost:1/", GO, ""},
        {"http://us%40er:p%3Ass@localhost:1/", GO, ""},
        {"http://user:p@ss@localhost:1/", "refused: an '@' in a user or password is written %40",
            "Go splits at the last '@'; a password with a raw '@' is a mistake to point at, not to guess"},
        {"http://localhost:15021", GO, ""},
        {"http://localhost:15021?x=1", GO, ""},
        {"http://localhost:15021/a%20b", GO, ""},
        {"http://localhost:15021/a b", GO, ""},
        {"http://localhost:15021/ünïcode", GO, ""},
        {"http://localhost:15021/a/../b", GO, ""},
        {"http://localhost:15021/healthz/ready?probe=1&x=%zz", GO, ""},
        {"http://localhost:15021/healthz/ready#frag", GO, ""},
        {"http://localhost:15021/%", "refused: a '%' in the path starts no escape", ""},
        {"HTTP://localhost:15021/healthz/ready", GO, ""},
        {"Https://localhost/", GO, ""},
        {"http:/localhost:15021/", "refused: no host: 'http:' is followed by '//' and the host",
            "Go parses it with no host and its request fails"},
        {"http:localhost:15021/", "refused: no host: 'http:' is followed by '//' and the host",
            "Go parses it with no host and its request fails"},
        {"//localhost:15021/", "refused: no scheme", "Go's client refuses a URL without a scheme"},
        {"localhost:15021/healthz/ready", "refused: no scheme", "Go reads 'localhost' as the scheme; its client refuses it"},
        {"http://", "refused: no host", "Go parses it and its request fails"},
        {"http:///healthz/ready", "refused: no host", "Go parses it and its request fails"},
        {"ftp://localhost/", "refused: scheme 'ftp' is not supported", "Go's client refuses the scheme at the request"},
        {" http://localhost:15021/", "localhost 15021 /",
            "spaces around a value are a copy-and-paste slip (YAML, a shell variable); trimmed, as every setting is"},
        {"http://localhost:15021/ ", "localhost 15021 /", "trimmed: Go sends the trailing space as /%20"},
    };

    @Test
    void everyUrlOfTheCorpusHasAnAnswerAndEveryDifferenceFromGoItsReason() throws Exception {
        Map<String, String[]> answers = new LinkedHashMap<>();
        for (String[] answer : ANSWERS) {
            answers.put(answer[0], answer);
        }
        JsonNode corpus;
        try (InputStream in = UrlCorpusTest.class.getResourceAsStream("/urls/go-net-url.json")) {
            corpus = new ObjectMapper().readTree(in);
        }
        assertEquals(59, corpus.size());
        assertEquals(corpus.size(), answers.size());
        for (JsonNode go : corpus) {
            String url = go.get("url").asText();
            String[] answer = answers.get(url);
            assertTrue(answer != null, "no answer for " + url);
            check(go, url, answer[1], answer[2]);
        }
    }

    private static void check(JsonNode go, String url, String answer, String why) {
        boolean goAttempts = go.path("request_ok").asBoolean() && !go.path("hostname").asText("").isEmpty()
                && go.path("scheme").asText("").matches("https?");
        if (answer.startsWith("refused: ")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Target.parse(url), url);
            assertTrue(e.getMessage().contains(answer.substring("refused: ".length())), url + ": " + e.getMessage());
            assertTrue(!goAttempts || !why.isEmpty(), url + ": Go attempts it; say why it is refused");
            return;
        }
        Target.Http http = (Target.Http) Target.parse(url);
        String expected = answer.equals(GO) ? go.get("hostname").asText() + " " + goPort(go) + " " + go.get("request_uri").asText() : answer;
        assertEquals(expected, http.host() + " " + http.port() + " " + http.path(), url);
        assertTrue(answer.equals(GO) == why.isEmpty(), url + ": an answer that is not Go's says why, and only then");
        assertEquals(go.path("sends_basic_auth").asBoolean(), http.basic() != null, url);
        assertFalse(http.text().contains("pass"), http.text());
    }

    private static String goPort(JsonNode go) {
        String port = go.path("port").asText("");
        return port.isEmpty() ? go.get("scheme").asText().equals("https") ? "443" : "80" : String.valueOf(Integer.parseInt(port));
    }
}
