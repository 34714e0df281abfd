package dev.sidecarwait.probe;

import dev.sidecarwait.tls.TlsMode;
import dev.sidecarwait.wire.ProbeFailure;
import dev.sidecarwait.wire.Wire;

/**
 * Turns a plain connection into TLS, for protocols that ask for TLS in plain text first (PostgreSQL's SSLRequest,
 * MySQL's SSL request, NATS's INFO with tls_required): the same connection, now through TLS, under the same deadline.
 */
interface Upgrade {

    Wire toTls(TlsMode mode) throws ProbeFailure;
}
