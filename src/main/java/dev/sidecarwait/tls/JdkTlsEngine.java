package dev.sidecarwait.tls;

import java.nio.ByteBuffer;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLException;

/** The JDK's SSLEngine as a {@link TlsEngine}: records in and out through buffers, as Mbed TLS's. */
final class JdkTlsEngine implements TlsEngine {

    private final SSLEngine engine;
    private final JdkChainRecorder recorder;
    private final JdkKeyRecorder keys;
    private ByteBuffer netIn; // read mode: what the server sent, not yet unwrapped
    private ByteBuffer netOut; // write mode: records to send
    private ByteBuffer appIn; // write mode: application bytes unwrapped, not yet read
    private boolean started;

    JdkTlsEngine(SSLEngine engine, JdkChainRecorder recorder, JdkKeyRecorder keys) {
        this.engine = engine;
        this.recorder = recorder;
        this.keys = keys;
        int packet = engine.getSession().getPacketBufferSize();
        netIn = ByteBuffer.allocate(packet).flip();
        netOut = ByteBuffer.allocate(packet);
        appIn = ByteBuffer.allocate(engine.getSession().getApplicationBufferSize());
    }

    @Override
    public int handshake() throws TlsException {
        try {
            if (!started) {
                engine.beginHandshake();
                started = true;
            }
            while (true) {
                switch (engine.getHandshakeStatus()) {
                    case NEED_TASK -> {
                        Runnable task;
                        while ((task = engine.getDelegatedTask()) != null) {
                            task.run();
                        }
                    }
                    case NEED_WRAP -> wrap(ByteBuffer.allocate(0));
                    case NEED_UNWRAP, NEED_UNWRAP_AGAIN -> {
                        if (unwrap().getStatus() == SSLEngineResult.Status.BUFFER_UNDERFLOW) {
                            return NEEDS_INPUT;
                        }
                    }
                    default -> {
                        return 0;
                    }
                }
            }
        } catch (SSLException e) {
            throw recorder.refusal != null ? TlsException.refused(recorder.refusal) : failure(e);
        } catch (RuntimeException e) {
            throw unexpected(e);
        }
    }

    @Override
    public void feed(byte[] bytes, int length) {
        netIn.compact();
        if (netIn.remaining() < length) {
            netIn = ByteBuffer.allocate(netIn.position() + length).put(netIn.flip());
        }
        netIn.put(bytes, 0, length).flip();
    }

    @Override
    public int take(byte[] into) {
        netOut.flip();
        int n = Math.min(into.length, netOut.remaining());
        netOut.get(into, 0, n);
        netOut.compact();
        return n;
    }

    @Override
    public void write(byte[] bytes, int offset, int length) throws TlsException {
        try {
            ByteBuffer source = ByteBuffer.wrap(bytes, offset, length);
            while (source.hasRemaining()) {
                wrap(source);
            }
        } catch (SSLException e) {
            throw failure(e);
        }
    }

    @Override
    public int read(byte[] into, int offset, int length) throws TlsException {
        try {
            if (appIn.position() == 0) {
                if (engine.isInboundDone()) {
                    return -1;
                }
                SSLEngineResult result = unwrap();
                if (result.getStatus() == SSLEngineResult.Status.CLOSED) {
                    return -1;
                }
                if (result.getStatus() == SSLEngineResult.Status.BUFFER_UNDERFLOW) {
                    return NEEDS_INPUT;
                }
                if (engine.getHandshakeStatus() == SSLEngineResult.HandshakeStatus.NEED_WRAP) {
                    wrap(ByteBuffer.allocate(0)); // a key update's answer
                }
            }
            appIn.flip();
            int n = Math.min(length, appIn.remaining());
            appIn.get(into, offset, n);
            appIn.compact();
            return n;
        } catch (SSLException e) {
            throw failure(e);
        } catch (RuntimeException e) {
            throw unexpected(e);
        }
    }

    private void wrap(ByteBuffer source) throws SSLException {
        while (true) {
            SSLEngineResult result = engine.wrap(source, netOut);
            if (result.getStatus() != SSLEngineResult.Status.BUFFER_OVERFLOW) {
                return;
            }
            netOut = ByteBuffer.allocate(netOut.capacity() * 2).put(netOut.flip());
        }
    }

    private SSLEngineResult unwrap() throws SSLException {
        while (true) {
            SSLEngineResult result = engine.unwrap(netIn, appIn);
            if (result.getStatus() != SSLEngineResult.Status.BUFFER_OVERFLOW) {
                if (result.getHandshakeStatus() == SSLEngineResult.HandshakeStatus.NEED_TASK) {
                    Runnable task;
                    while ((task = engine.getDelegatedTask()) != null) {
                        task.run();
                    }
                }
                return result;
            }
            appIn = ByteBuffer.allocate(appIn.capacity() * 2).put(appIn.flip());
        }
    }

    /**
     * Only an alert received is the server's: the JDK words its own ("(certificate_required) Empty server
     * certificate chain") without these words, and those stay this side's (sun/security/ssl/Alert.java).
     */
    static TlsException failure(SSLException e) {
        String message = String.valueOf(e.getMessage());
        String prefix = "Received fatal alert: ";
        int at = message.indexOf(prefix);
        if (at >= 0) {
            return new TlsException(TlsFailures.alertNumber(message.substring(at + prefix.length()).trim()), message);
        }
        java.util.regex.Matcher unknown = UNKNOWN_ALERT.matcher(message);
        if (unknown.find()) {
            return new TlsException(Integer.parseInt(unknown.group(1)) & 0xff, message); // the JDK prints the byte signed
        }
        return new TlsException(message.contains("Received fatal close_notify alert") ? 0 : -1, message);
    }

    /** An engine that broke on what the server sent (the JDK's SSLEngine is not meant to throw so): this side's failure. */
    private static TlsException unexpected(RuntimeException e) {
        return new TlsException(-1, "the JDK's TLS engine failed on the server's bytes (" + e.getClass().getSimpleName() + ")");
    }

    /** The JDK's words for an alert it has no name for: "Unknown alert description (-5)" for 251. */
    private static final java.util.regex.Pattern UNKNOWN_ALERT = java.util.regex.Pattern.compile("Unknown alert description \\((-?\\d{1,3})\\)");

    @Override
    public Handshaken result() {
        String alpn = engine.getApplicationProtocol();
        return new Handshaken(engine.getSession().getProtocol(), alpn == null || alpn.isEmpty() ? null : alpn,
                recorder.leaf == null ? null : JdkCertificates.peer(recorder.leaf), recorder.finding, keys.asked);
    }

    @Override
    public void close() {
        engine.closeOutbound();
    }
}
