package dev.sidecarwait.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sidecarwait.tls.TlsMode;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TargetTest {

    @Test
    void parsesHttpWithPathQueryAndDefaultPort() {
        Target.Http t = assertInstanceOf(Target.Http.class, Target.parse("http://localhost:15020/healthz/ready"));
        assertEquals("localhost", t.host());
        assertEquals(15020, t.port());
        assertEquals("/healthz/ready", t.path());

        Target.Http q = assertInstanceOf(Target.Http.class, Target.parse("HTTP://example.test/ready?full=1"));
        assertEquals(80, q.port());
        assertEquals("/ready?full=1", q.path());

        assertEquals("/", ((Target.Http) Target.parse("http://localhost:1")).path());
    }

    @Test
    void parsesIpv6LiteralsAndTcp() {
        Target.Http v6 = (Target.Http) Target.parse("http://[::1]:15021/healthz/ready");
        assertEquals("::1", v6.host());
        Target.Tcp tcp = assertInstanceOf(Target.Tcp.class, Target.parse("tcp://127.0.0.1:5432"));
        assertEquals(5432, tcp.port());
        assertEquals(5432, Target.parse("tcp://db:5432/").port());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "redis://cache | REDIS | 6379",
            "redis://cache:6380/0 | REDIS | 6380",
            "postgres://db | POSTGRES | 5432",
            "postgresql://db:6543/orders?sslmode=disable | POSTGRES | 6543",
            "mysql://[::1] | MYSQL | 3306",
            "grpc://orders:50051 | GRPC | 50051",
            "kafka://broker | KAFKA | 9092",
            "amqp://rabbit/orders-vhost | AMQP | 5672",
            "nats://nats:4333 | NATS | 4333"})
    void parsesServersWithTheirDefaultPorts(String text, Protocol protocol, int port) {
        Target.Server server = assertInstanceOf(Target.Server.class, Target.parse(text));
        assertEquals(protocol, server.protocol());
        assertEquals(port, server.port());
        assertEquals(protocol.scheme, server.kind());
    }

    @Test
    void aGrpcTargetsPathIsTheServiceTheOthersIgnoreTheirs() {
        assertEquals("grpc.health.v1.Health", ((Target.Server) Target.parse("grpc://[::1]:9000/grpc.health.v1.Health")).path());
        assertEquals("", ((Target.Server) Target.parse("grpc://127.0.0.1:9000")).path());
        assertEquals("", ((Target.Server) Target.parse("grpc://127.0.0.1:9000/")).path());
        assertEquals("", ((Target.Server) Target.parse("amqp://rabbit:5672/orders")).path());
    }

    @Test
    void tlsSchemesAreTheirPlainProbeOverTlsVerifiedByDefault() {
        Target.Http https = (Target.Http) Target.parse("https://vault:8200/v1/sys/health");
        assertEquals(new Target.Http("vault", 8200, "/v1/sys/health", "https://vault:8200/v1/sys/health", null, TlsMode.VERIFY_FULL, null), https);
        assertEquals(443, Target.parse("https://keycloak/health/ready").port());
        assertEquals("https", https.kind());
        assertEquals(new Target.Tls("es", 9200, "tls://es:9200"), Target.parse("tls://es:9200"));
        Target.Server rediss = (Target.Server) Target.parse("rediss://cache");
        assertEquals(List.of(Protocol.REDIS, 6379, TlsMode.VERIFY_FULL, "rediss"), List.of(rediss.protocol(), rediss.port(), rediss.tls(), rediss.kind()));
        assertEquals(5671, Target.parse("amqps://rabbit").port());
        assertEquals(TlsMode.VERIFY_FULL, ((Target.Server) Target.parse("grpcs://orders:443/orders.Orders")).tls());
        assertEquals("orders.Orders", ((Target.Server) Target.parse("grpcs://orders:443/orders.Orders")).path());
        assertTrue(Target.parse("https://x/").usesTls() && !Target.parse("http://x/").usesTls());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "postgres://db/orders | OFF", "postgres://db/orders?sslmode=disable | OFF", "postgres://db/orders?sslmode=allow | OFF",
            "postgres://db/orders?sslmode=prefer | PREFER", "postgres://db/orders?application_name=x&sslmode=require | REQUIRE",
            "postgresql://db/orders?sslmode=verify-ca | VERIFY_CA", "postgres://db/orders?sslmode=require&sslmode=verify-full | VERIFY_FULL",
            "mysql://db/orders | OFF", "mysql://db/orders?ssl-mode=DISABLED | OFF", "mysql://db/orders?ssl-mode=preferred | PREFER",
            "mysql://db/orders?sslMode=REQUIRED | REQUIRE", "mysql://db/orders?ssl-mode=VERIFY_CA | VERIFY_CA",
            "mysql://db/orders?ssl-mode=VERIFY_IDENTITY | VERIFY_FULL", "redis://cache?sslmode=require | OFF"})
    void databaseUrlsAskForTlsAsTheirClientsSpellIt(String url, TlsMode mode) {
        assertEquals(mode, ((Target.Server) Target.parse(url)).tls());
    }

    @Test
    void aDnsTargetIsANameAlone() {
        assertEquals(new Target.Dns("orders-db", "dns://orders-db"), Target.parse("dns://orders-db"));
        assertEquals(new Target.Dns("db-0.db", "dns://db-0.db/"), Target.parse("dns://db-0.db/"));
        assertEquals("::1", Target.parse("dns://[::1]").host());
        assertEquals("dns", Target.parse("dns://orders-db").kind());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "redis://cache:99999 | port '99999' is not a number from 1 to 65535",
            "ftp://localhost/ | scheme 'ftp' is not supported",
            "tls://nats | a tls:// target needs a port",
            "tls://nats:4222/x | a tls:// target takes no path",
            "grpcs://orders | a grpcs:// target needs a port",
            "postgres://db/orders?sslmode=verify | sslmode 'verify' is not one of disable, allow, prefer, require, verify-ca, verify-full",
            "postgres:///orders?host=/cloudsql/p:r:i&sslmode=on | sslmode 'on' is not one of",
            "mysql://db/orders?ssl-mode=ON | ssl-mode 'ON' is not one of DISABLED, PREFERRED, REQUIRED, VERIFY_CA, VERIFY_IDENTITY",
            "localhost:15020 | no scheme",
            "/healthz/ready | no scheme",
            "http://localhost:70000/ | port '70000' is not a number from 1 to 65535",
            "http://localhost:0/ | port '0' is not a number from 1 to 65535",
            "http://localhost:abc/ | port 'abc' is not a number",
            "http://:80/ | no host",
            "tcp://localhost | needs a port",
            "tcp://localhost:1/path | takes no path",
            "http://local host/ | the host 'local host' holds ' ', which no host name holds",
            "grpc://orders | a grpc:// target needs a port",
            "grpc://orders:50051/a.B?x=1 | takes a service name and nothing else",
            "grpc://orders:50051/a/b | is not a gRPC service name",
            "http://admin:s3c@ret@localhost:15020/healthz/ready | an '@' in a user or password is written %40",
            "tcp://admin@db:5432 | a tcp:// URL here sends no user or password",
            "kafka://token@broker | a kafka:// URL here sends no user or password",
            "dns://orders-db:53 | a dns:// target is a name and nothing else",
            "dns://orders-db: | a dns:// target is a name and nothing else",
            "dns://[::1]: | a dns:// target is a name and nothing else",
            "dns://orders-db/x | a dns:// target is a name and nothing else",
            "dns://orders-db?a=1 | a dns:// target is a name and nothing else",
            "dns://user@orders-db | a dns:// URL here sends no user or password",
            "file://vault/secrets/db | a file:// target is an absolute path after three slashes",
            "file:relative/db | a file:// target is an absolute path after three slashes",
            "file:/// | a file:// target is an absolute path after three slashes",
            "file:/. | a file:// target is an absolute path after three slashes",
            "unix:///a/.. | a unix:// target is an absolute path after three slashes",
            "http+unix://%2F%2E/x | names the socket's absolute path",
            "file:///vault/secrets/db?x=1 | takes no query or fragment",
            "file://user@/vault/secrets/db | a file:// URL here sends no user or password",
            "file://vault@host/secrets/db | a file:// URL here sends no user or password",
            "unix://run/agent.sock | a unix:// target is an absolute path after three slashes",
            "unix:///run/agent.sock#x | takes no query or fragment",
            "http+unix:///v1.0/healthz | names the socket's absolute path, percent-encoded, as its host",
            "http+unix://dapr.socket/v1.0/healthz | names the socket's absolute path, percent-encoded, as its host",
            "postgres://db/orders?host=/cloudsql/p:r:i | give PostgreSQL's host once",
            "postgres:///orders?host=/cloudsql/p:r:i&port=0 | port '0' is not a number from 1 to 65535",
            "postgres:///orders?host=/cloudsql/p:r:i&port=5x | port '5x' is not a number from 1 to 65535",
            "postgres:///orders | no host",
            "postgres://db/orders?host=db2 | ?host= names a socket directory",
            "http+unix://%2Fshared%2Fdapr.socket/v1.0/healthz#top | takes no fragment"})
    void refusesWithAReason(String text, String reason) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Target.parse(text));
        assertTrue(e.getMessage().contains(reason), e.getMessage());
    }
}
