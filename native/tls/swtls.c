/*
 * sidecar-wait's TLS client over Mbed TLS, with no I/O of its own: the caller (tls/MbedTls.java) moves the bytes
 * between the socket and this engine, so the socket, its deadline and the wording of every failure stay in Java,
 * as for a plain connection. Each function returns 0 or more on success and an Mbed TLS error code (negative) else.
 * Not thread-safe (no MBEDTLS_THREADING_C: PSA's key store is global): the caller makes one call at a time.
 */
#define MBEDTLS_ALLOW_PRIVATE_ACCESS /* as the library's own sources: ssl_misc.h reads its structs' fields */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include "mbedtls/ssl.h"
#include "mbedtls/x509_crt.h"
#include "mbedtls/pk.h"
#include "mbedtls/oid.h"
#include "mbedtls/error.h"
#include "mbedtls/entropy.h"
#include "mbedtls/ctr_drbg.h"
#include "psa/crypto.h"
#include "ssl_misc.h" /* the library's own: the handshake's record of a CertificateRequest (client_auth) */

/* Certificates trusted and the client's own identity, parsed once and shared by every connection of the run. */
typedef struct {
    mbedtls_x509_crt ca;
    int cas;
    mbedtls_x509_crt own;
    mbedtls_pk_context key;
    int has_key;
    mbedtls_entropy_context entropy;
    mbedtls_ctr_drbg_context drbg;
} swtls_trust;

/* Longer than any path the library verifies (MBEDTLS_X509_MAX_INTERMEDIATE_CA, 8, and the two ends). */
#define SWTLS_MOST_PATH 12

typedef struct {
    mbedtls_ssl_context ssl;
    mbedtls_ssl_config conf;
    mbedtls_entropy_context entropy;
    mbedtls_ctr_drbg_context drbg;
    const char *alpn[2];
    char alpn_name[16];
    unsigned char in[16384]; /* received, not yet taken by the engine */
    size_t in_len, in_off;
    unsigned char *out;      /* records to send */
    size_t out_len, out_cap;
    int asked;               /* the server asked for a client certificate */
    int judge;               /* the server's certificate was just verified: the caller judges it before going on */
    const mbedtls_x509_crt *dated; /* the chain's certificate nearest the leaf that is expired or not yet valid */
    int dated_depth;
    const mbedtls_x509_crt *path[SWTLS_MOST_PATH]; /* the path verified, by depth (0 the server's own) */
    int path_len;
} swtls_conn;

void swtls_conn_free(swtls_conn *c);

swtls_trust *swtls_trust_new(void) {
    if (psa_crypto_init() != PSA_SUCCESS) {
        return NULL;
    }
    swtls_trust *t = calloc(1, sizeof *t);
    if (t == NULL) {
        return NULL;
    }
    mbedtls_x509_crt_init(&t->ca);
    mbedtls_x509_crt_init(&t->own);
    mbedtls_pk_init(&t->key);
    mbedtls_entropy_init(&t->entropy);
    mbedtls_ctr_drbg_init(&t->drbg);
    if (mbedtls_ctr_drbg_seed(&t->drbg, mbedtls_entropy_func, &t->entropy, NULL, 0) != 0) {
        free(t);
        return NULL;
    }
    return t;
}

/* One trusted certificate (DER). One the library cannot parse (an algorithm left out) is skipped by the caller, as
 * OpenSSL skips what it cannot read in a bundle. */
int swtls_trust_add(swtls_trust *t, const unsigned char *der, size_t len) {
    int r = mbedtls_x509_crt_parse_der(&t->ca, der, len);
    if (r == 0) {
        t->cas++;
    }
    return r;
}

/* The client's certificate chain, one DER certificate per call, leaf first. */
int swtls_own_cert(swtls_trust *t, const unsigned char *der, size_t len) {
    return mbedtls_x509_crt_parse_der(&t->own, der, len);
}

/* The client's private key (DER: PKCS#8, PKCS#1 RSA or SEC1 EC), which must match its certificate: 0, or a
 * negative code (1: it does not match). */
int swtls_own_key(swtls_trust *t, const unsigned char *der, size_t len) {
    int r = mbedtls_pk_parse_key(&t->key, der, len, NULL, 0, mbedtls_ctr_drbg_random, &t->drbg);
    if (r != 0) {
        return r;
    }
    if (mbedtls_pk_check_pair(&t->own.pk, &t->key, mbedtls_ctr_drbg_random, &t->drbg) != 0) {
        return 1;
    }
    t->has_key = 1;
    return 0;
}

static int send_to_buffer(void *ctx, const unsigned char *buf, size_t len) {
    swtls_conn *c = ctx;
    if (c->out_len + len > c->out_cap) {
        size_t cap = (c->out_len + len) * 2;
        unsigned char *grown = realloc(c->out, cap);
        if (grown == NULL) {
            return MBEDTLS_ERR_SSL_ALLOC_FAILED;
        }
        c->out = grown;
        c->out_cap = cap;
    }
    memcpy(c->out + c->out_len, buf, len);
    c->out_len += len;
    return (int) len;
}

/* Called by the library for each certificate of the server's chain as verified, the leaf (depth 0) last, with that
 * certificate's own flags, left as the library found them. The path is kept for the caller's own rules (name
 * constraints among them: native/tls/name-constraints.patch). */
static int note_verified(void *ctx, mbedtls_x509_crt *crt, int depth, uint32_t *flags) {
    swtls_conn *c = ctx;
    if (depth >= 0 && depth < SWTLS_MOST_PATH) {
        c->path[depth] = crt;
    }
    if (depth + 1 > c->path_len) {
        c->path_len = depth + 1;
    }
    if (*flags & (MBEDTLS_X509_BADCERT_EXPIRED | MBEDTLS_X509_BADCERT_FUTURE)) {
        c->dated = crt;
        c->dated_depth = depth;
    }
    if (depth == 0) {
        c->judge = 1;
    }
    return 0;
}

static int receive_from_buffer(void *ctx, unsigned char *buf, size_t len) {
    swtls_conn *c = ctx;
    size_t left = c->in_len - c->in_off;
    if (left == 0) {
        return MBEDTLS_ERR_SSL_WANT_READ;
    }
    size_t n = len < left ? len : left;
    memcpy(buf, c->in + c->in_off, n);
    c->in_off += n;
    return (int) n;
}

/* The key exchange's groups, P-256 first: the one group every TLS 1.3 server must take (RFC 8446, 9.1), so the one key
 * share the client sends is taken without a second round trip, and in Mbed TLS making its key costs a fraction of
 * X25519's (its generator's multiples are tables in the library; X25519's ladder has none). */
static const uint16_t groups[] = {MBEDTLS_SSL_IANA_TLS_GROUP_SECP256R1, MBEDTLS_SSL_IANA_TLS_GROUP_X25519,
                                  MBEDTLS_SSL_IANA_TLS_GROUP_SECP384R1, MBEDTLS_SSL_IANA_TLS_GROUP_NONE};

/* A connection to a server: server_name is sent (SNI) unless NULL (an IP address); verify 0 skips verification
 * (--insecure), else the chain is checked as it arrives and swtls_handshake stops there for the caller to judge it
 * (swtls_verify_result, swtls_peer) before anything of the client's identity is sent; alpn is one protocol or NULL. */
swtls_conn *swtls_conn_new(swtls_trust *t, const char *server_name, int verify, const char *alpn) {
    swtls_conn *c = calloc(1, sizeof *c);
    if (c == NULL) {
        return NULL;
    }
    mbedtls_ssl_init(&c->ssl);
    mbedtls_ssl_config_init(&c->conf);
    mbedtls_entropy_init(&c->entropy);
    mbedtls_ctr_drbg_init(&c->drbg);
    if (mbedtls_ctr_drbg_seed(&c->drbg, mbedtls_entropy_func, &c->entropy, NULL, 0) != 0) {
        goto fail;
    }
    if (mbedtls_ssl_config_defaults(&c->conf, MBEDTLS_SSL_IS_CLIENT, MBEDTLS_SSL_TRANSPORT_STREAM,
                                    MBEDTLS_SSL_PRESET_DEFAULT) != 0) {
        goto fail;
    }
    mbedtls_ssl_conf_rng(&c->conf, mbedtls_ctr_drbg_random, &c->drbg);
    mbedtls_ssl_conf_groups(&c->conf, groups);
    mbedtls_ssl_conf_authmode(&c->conf, verify ? MBEDTLS_SSL_VERIFY_OPTIONAL : MBEDTLS_SSL_VERIFY_NONE);
    mbedtls_ssl_conf_verify(&c->conf, note_verified, c);
    if (t->cas > 0) {
        mbedtls_ssl_conf_ca_chain(&c->conf, &t->ca, NULL);
    }
    if (t->has_key && mbedtls_ssl_conf_own_cert(&c->conf, &t->own, &t->key) != 0) {
        goto fail;
    }
    if (alpn != NULL) {
        snprintf(c->alpn_name, sizeof c->alpn_name, "%s", alpn);
        c->alpn[0] = c->alpn_name;
        c->alpn[1] = NULL;
        if (mbedtls_ssl_conf_alpn_protocols(&c->conf, c->alpn) != 0) {
            goto fail;
        }
    }
    if (mbedtls_ssl_setup(&c->ssl, &c->conf) != 0) {
        goto fail;
    }
    /* NULL: no SNI, and the library's own name check is off; the caller checks the name (tls/ServerName.java) */
    if (mbedtls_ssl_set_hostname(&c->ssl, server_name) != 0) {
        goto fail;
    }
    mbedtls_ssl_set_bio(&c->ssl, c, send_to_buffer, receive_from_buffer, NULL);
    return c;
fail:
    swtls_conn_free(c);
    return NULL;
}

/* mbedtls_ssl_handshake's loop, step by step: to note whether the server asked for a client certificate (in TLS 1.3
 * a server that refuses the client says so only after the client's side of the handshake is done), and to return 1
 * once the server's certificate has been verified (the step's checks of key usage included), so the caller judges
 * it before the client's certificate and signature are sent; called again, the handshake goes on. 0 once over. */
int swtls_handshake(swtls_conn *c) {
    while (!mbedtls_ssl_is_handshake_over(&c->ssl)) {
        int r = mbedtls_ssl_handshake_step(&c->ssl);
        if (c->ssl.handshake != NULL && c->ssl.handshake->client_auth) {
            c->asked = 1;
        }
        if (r != 0) {
            return r;
        }
        if (c->judge) {
            c->judge = 0;
            return 1;
        }
    }
    return 0;
}

/* The caller refused the server's certificate (after swtls_handshake returned 1): a fatal alert, waiting to be taken. */
int swtls_refuse(swtls_conn *c, int alert) {
    return mbedtls_ssl_send_alert_message(&c->ssl, MBEDTLS_SSL_ALERT_LEVEL_FATAL, (unsigned char) alert);
}

int swtls_asked_for_certificate(swtls_conn *c) {
    return c->asked;
}

/* Bytes from the socket, taken only once the engine has used all it was given (it said WANT_READ). */
int swtls_feed(swtls_conn *c, const unsigned char *bytes, size_t len) {
    if (c->in_off < c->in_len || len > sizeof c->in) {
        return MBEDTLS_ERR_SSL_BAD_INPUT_DATA;
    }
    memcpy(c->in, bytes, len);
    c->in_len = len;
    c->in_off = 0;
    return 0;
}

/* Up to cap bytes of records waiting to be sent; how many were copied. */
int swtls_take(swtls_conn *c, unsigned char *dst, size_t cap) {
    size_t n = c->out_len < cap ? c->out_len : cap;
    memcpy(dst, c->out, n);
    memmove(c->out, c->out + n, c->out_len - n);
    c->out_len -= n;
    return (int) n;
}

/* All of bytes, as records waiting to be taken. */
int swtls_write(swtls_conn *c, const unsigned char *bytes, size_t len) {
    size_t done = 0;
    while (done < len) {
        int r = mbedtls_ssl_write(&c->ssl, bytes + done, len - done);
        if (r < 0) {
            return r;
        }
        done += (size_t) r;
    }
    return (int) done;
}

/* Application bytes: how many, 0 at the server's close_notify, or an error (WANT_READ: feed it more). */
int swtls_read(swtls_conn *c, unsigned char *dst, size_t cap) {
    int r = mbedtls_ssl_read(&c->ssl, dst, cap);
    return r == MBEDTLS_ERR_SSL_PEER_CLOSE_NOTIFY ? 0 : r;
}

/* The alert the server sent, after an MBEDTLS_ERR_SSL_FATAL_ALERT_MESSAGE. */
int swtls_alert(swtls_conn *c) {
    return c->ssl.in_msg[1];
}

unsigned int swtls_verify_result(swtls_conn *c) {
    return (unsigned int) mbedtls_ssl_get_verify_result(&c->ssl);
}

const char *swtls_version(swtls_conn *c) {
    return mbedtls_ssl_get_version(&c->ssl);
}

const char *swtls_alpn(swtls_conn *c) {
    return mbedtls_ssl_get_alpn_protocol(&c->ssl);
}

enum { PEER_SUBJECT_CN = 1, PEER_ISSUER_CN = 2, PEER_NOT_BEFORE = 3, PEER_NOT_AFTER = 4, PEER_DNS = 5, PEER_IP = 6,
       DATED_DEPTH = 7, DATED_CN = 8, DATED_NOT_BEFORE = 9, DATED_NOT_AFTER = 10 };

/* One field: its type, its length (two bytes, big-endian) and its bytes as the certificate holds them, written when
 * it fits in cap; *n counts what all the fields need either way. A value too long for the length is left out. */
static void field(unsigned char *buf, size_t cap, size_t *n, int type, const unsigned char *value, size_t len) {
    if (len > 0xffff) {
        return;
    }
    if (*n + 3 + len <= cap) {
        buf[*n] = (unsigned char) type;
        buf[*n + 1] = (unsigned char) (len >> 8);
        buf[*n + 2] = (unsigned char) len;
        memcpy(buf + *n + 3, value, len);
    }
    *n += 3 + len;
}

static void time_field(unsigned char *buf, size_t cap, size_t *n, int type, const mbedtls_x509_time *t) {
    unsigned char value[7] = {(unsigned char) (t->year >> 8), (unsigned char) t->year, (unsigned char) t->mon,
                              (unsigned char) t->day, (unsigned char) t->hour, (unsigned char) t->min,
                              (unsigned char) t->sec};
    field(buf, cap, n, type, value, sizeof value);
}

static void common_name(unsigned char *buf, size_t cap, size_t *n, int type, const mbedtls_x509_name *name) {
    for (; name != NULL; name = name->next) {
        if (MBEDTLS_OID_CMP(MBEDTLS_OID_AT_CN, &name->oid) == 0) {
            field(buf, cap, n, type, name->val.p, name->val.len);
            return;
        }
    }
}

/* The server's certificate as typed fields (tls/PeerCertificate.java reads them; nothing in them is text to be
 * split): the subject's and the issuer's CN as their bytes, not before and not after (year in two bytes, month,
 * day, hour, minute, second; UTC), then each DNS name and IP address (4 or 16 bytes) of its subject alternative
 * names; and where the chain's check found a certificate expired or not yet valid, the one nearest the leaf: its
 * depth (one byte: 0 the leaf, 1 its issuer...), CN and validity. Returns the length all the fields need, written only if that is at most cap (else the caller asks again
 * with room for them), or -1 when there is no certificate. */
int swtls_peer(swtls_conn *c, unsigned char *buf, size_t cap) {
    const mbedtls_x509_crt *crt = mbedtls_ssl_is_handshake_over(&c->ssl) ? mbedtls_ssl_get_peer_cert(&c->ssl)
                                  : c->ssl.session_negotiate != NULL ? c->ssl.session_negotiate->peer_cert : NULL;
    if (crt == NULL) {
        return -1;
    }
    size_t n = 0;
    common_name(buf, cap, &n, PEER_SUBJECT_CN, &crt->subject);
    common_name(buf, cap, &n, PEER_ISSUER_CN, &crt->issuer);
    time_field(buf, cap, &n, PEER_NOT_BEFORE, &crt->valid_from);
    time_field(buf, cap, &n, PEER_NOT_AFTER, &crt->valid_to);
    for (const mbedtls_x509_sequence *san = &crt->subject_alt_names; san != NULL && san->buf.p != NULL; san = san->next) {
        int tag = san->buf.tag & MBEDTLS_ASN1_TAG_VALUE_MASK;
        if (tag == MBEDTLS_X509_SAN_DNS_NAME) {
            field(buf, cap, &n, PEER_DNS, san->buf.p, san->buf.len);
        } else if (tag == MBEDTLS_X509_SAN_IP_ADDRESS) {
            field(buf, cap, &n, PEER_IP, san->buf.p, san->buf.len);
        }
        if (n > 0x7fffffff - 0x20010) {
            return -1; /* no certificate the library parsed comes near */
        }
    }
    if (c->dated != NULL) {
        unsigned char depth = (unsigned char) (c->dated_depth > 255 ? 255 : c->dated_depth);
        field(buf, cap, &n, DATED_DEPTH, &depth, 1);
        common_name(buf, cap, &n, DATED_CN, &c->dated->subject);
        time_field(buf, cap, &n, DATED_NOT_BEFORE, &c->dated->valid_from);
        time_field(buf, cap, &n, DATED_NOT_AFTER, &c->dated->valid_to);
    }
    return (int) n;
}

/* The index-th certificate (DER) of the Certificate message the library is reading or has just read, as the server
 * sent it (TLS 1.2's list, or TLS 1.3's with each entry's extensions), found within the message's bounds: 0, or -1. */
static int sent_certificate(swtls_conn *c, int index, const unsigned char **der, size_t *len) {
    const unsigned char *m = c->ssl.in_msg;
    size_t n = c->ssl.in_hslen;
    if (m == NULL || c->ssl.in_msgtype != MBEDTLS_SSL_MSG_HANDSHAKE || n < 4 || m[0] != MBEDTLS_SSL_HS_CERTIFICATE) {
        return -1;
    }
    int tls13 = c->ssl.tls_version == MBEDTLS_SSL_VERSION_TLS1_3;
    size_t at = 4;
    if (tls13) {
        if (at + 1 > n) {
            return -1;
        }
        at += 1 + m[at]; /* certificate_request_context */
    }
    if (at + 3 > n) {
        return -1;
    }
    size_t list = ((size_t) m[at] << 16) | ((size_t) m[at + 1] << 8) | m[at + 2];
    at += 3;
    if (list > n - at) {
        return -1;
    }
    size_t end = at + list;
    for (int i = 0; at + 3 <= end; i++) {
        size_t one = ((size_t) m[at] << 16) | ((size_t) m[at + 1] << 8) | m[at + 2];
        at += 3;
        if (one > end - at) {
            return -1;
        }
        if (i == index) {
            *der = m + at;
            *len = one;
            return 0;
        }
        at += one;
        if (tls13) {
            if (at + 2 > end) {
                return -1;
            }
            size_t extensions = ((size_t) m[at] << 8) | m[at + 1];
            at += 2;
            if (extensions > end - at) {
                return -1;
            }
            at += extensions;
        }
    }
    return -1;
}

/* One certificate (DER) of the server's: of the path the library verified (which 0; index the depth, 0 the server's
 * own, the trust anchor last when it reached one), or as the server sent it (which 1; index its place). Returns its
 * length, copied into buf only when it fits in cap; -1 when there is no such certificate; -2 when the path was too
 * long to keep (the caller refuses it). */
int swtls_certificate(swtls_conn *c, int which, int index, unsigned char *buf, size_t cap) {
    const unsigned char *der;
    size_t len;
    if (which == 0) {
        if (c->path_len > SWTLS_MOST_PATH) {
            return -2;
        }
        if (index < 0 || index >= c->path_len || c->path[index] == NULL) {
            return -1;
        }
        der = c->path[index]->raw.p;
        len = c->path[index]->raw.len;
    } else if (index < 0 || sent_certificate(c, index, &der, &len) != 0) {
        return -1;
    }
    if (len > 0x7fffffff) {
        return -1;
    }
    if (len <= cap) {
        memcpy(buf, der, len);
    }
    return (int) len;
}

void swtls_error(int code, char *buf, size_t cap) {
#if defined(MBEDTLS_ERROR_C)
    mbedtls_strerror(code, buf, cap);
#else
    snprintf(buf, cap, "Mbed TLS error -0x%04X", (unsigned int) -code);
#endif
}

void swtls_conn_free(swtls_conn *c) {
    if (c != NULL) {
        mbedtls_ssl_free(&c->ssl);
        mbedtls_ssl_config_free(&c->conf);
        mbedtls_ctr_drbg_free(&c->drbg);
        mbedtls_entropy_free(&c->entropy);
        free(c->out);
        free(c);
    }
}
