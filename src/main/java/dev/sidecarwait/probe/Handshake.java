package dev.sidecarwait.probe;

import dev.sidecarwait.wire.ProbeFailure;
import dev.sidecarwait.wire.Wire;

/** The smallest exchange that tells a real, ready server from a proxy or a server still starting. */
interface Handshake {

    /** The user a check introduces itself as, where the protocol asks for one; it needs no account. */
    String THROWAWAY_USER = "sidecar-wait";

    /** Returns what the server said, for messages, when it is ready; throws, saying what was seen, when not. */
    String exchange(Wire wire, Target.Server target) throws ProbeFailure;
}
