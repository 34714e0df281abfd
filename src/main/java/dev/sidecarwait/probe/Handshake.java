package dev.sidecarwait.probe;

import dev.sidecarwait.wire.ProbeFailure;
import dev.sidecarwait.wire.Wire;

/** The smallest exchange that tells a real, ready server from a proxy or a server still starting. */
interface Handshake {

    /** The user a check introduces itself as, where the protocol asks for one; it needs no account. */
    String THROWAWAY_USER = "sidecar-wait";

    /** Returns what the server said, for messages, when it is ready; throws, saying what was seen, when not. */
    String exchange(Wire wire, Target.Server target) throws ProbeFailure;

    /**
     * As {@link #exchange(Wire, Target.Server)}, where the protocol may ask for TLS midway: {@code upgrade} makes the
     * connection TLS (null over a Unix socket, where none is used).
     */
    default String exchange(Wire wire, Target.Server target, Upgrade upgrade) throws ProbeFailure {
        return exchange(wire, target);
    }
}
