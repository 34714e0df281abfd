package dev.sidecarwait.tls;

/**
 * One TLS connection's state machine, with no I/O of its own: {@link TlsConnection} moves its records to and from
 * the socket. Two implementations: the JDK's SSLEngine on the JVM ({@link JdkTls}), Mbed TLS in the native binary
 * (MbedTls, which the native image substitutes for it).
 */
public interface TlsEngine extends AutoCloseable {

    /** Returned by {@link #handshake} and {@link #read} when the engine needs bytes from the server. */
    int NEEDS_INPUT = -2;

    /** Advances the handshake: 0 once finished, NEEDS_INPUT; throws when it failed. */
    int handshake() throws TlsException;

    /** What the server sent, all of which the engine takes before it asks for more. */
    void feed(byte[] bytes, int length) throws TlsException;

    /** Records waiting to be sent, up to {@code into.length}: how many were copied (0: none). */
    int take(byte[] into) throws TlsException;

    /** Application bytes to send; they wait as records for {@link #take}. */
    void write(byte[] bytes, int offset, int length) throws TlsException;

    /** Application bytes received into {@code into} from {@code offset}, up to {@code length}: how many, -1 at the
     * server's close, or NEEDS_INPUT. */
    int read(byte[] into, int offset, int length) throws TlsException;

    /** After the handshake. */
    Handshaken result();

    @Override
    void close();
}
