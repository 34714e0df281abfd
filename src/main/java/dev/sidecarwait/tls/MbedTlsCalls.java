package dev.sidecarwait.tls;

import org.graalvm.nativeimage.c.function.CFunction;
import org.graalvm.nativeimage.c.function.CLibrary;
import org.graalvm.nativeimage.c.type.CCharPointer;
import org.graalvm.word.PointerBase;

/**
 * The calls into native/tls/swtls.c (its comments say what each does), linked from scripts/native.sh's libswtls.a.
 * Native image only: the JVM never loads this class. Not thread-safe: the caller holds its client's lock.
 */
@CLibrary("swtls")
final class MbedTlsCalls {

    private MbedTlsCalls() {
    }

    @CFunction
    static native PointerBase swtls_trust_new();

    @CFunction
    static native int swtls_trust_add(PointerBase trust, CCharPointer der, long length);

    @CFunction
    static native int swtls_own_cert(PointerBase trust, CCharPointer der, long length);

    @CFunction
    static native int swtls_own_key(PointerBase trust, CCharPointer der, long length);

    @CFunction
    static native PointerBase swtls_conn_new(PointerBase trust, CCharPointer serverName, int verify, CCharPointer alpn);

    @CFunction
    static native int swtls_handshake(PointerBase connection);

    @CFunction
    static native int swtls_feed(PointerBase connection, CCharPointer bytes, long length);

    @CFunction
    static native int swtls_take(PointerBase connection, CCharPointer into, long capacity);

    @CFunction
    static native int swtls_write(PointerBase connection, CCharPointer bytes, long length);

    @CFunction
    static native int swtls_read(PointerBase connection, CCharPointer into, long capacity);

    @CFunction
    static native int swtls_alert(PointerBase connection);

    @CFunction
    static native int swtls_verify_result(PointerBase connection);

    @CFunction
    static native CCharPointer swtls_version(PointerBase connection);

    @CFunction
    static native CCharPointer swtls_alpn(PointerBase connection);

    @CFunction
    static native int swtls_peer(PointerBase connection, CCharPointer into, long capacity);

    @CFunction
    static native int swtls_certificate(PointerBase connection, int which, int index, CCharPointer into, long capacity);

    @CFunction
    static native void swtls_error(int code, CCharPointer into, long capacity);

    @CFunction
    static native int swtls_refuse(PointerBase connection, int alert);

    @CFunction
    static native int swtls_asked_for_certificate(PointerBase connection);

    @CFunction
    static native void swtls_conn_free(PointerBase connection);
}
