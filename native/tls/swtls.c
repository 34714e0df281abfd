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

/* One trusted certificate (DER). A certificate the library cannot parse (an algorithm left out) is skipped by the
 * caller, as OpenSSL skips what it cannot read in a bundle. */
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

/* A connection to a server: server_name is sent (SNI) unless NULL (an IP address); verify 0 skips verification
 * (--insecure), else the chain is checked and the result kept for swtls_verify_result (the handshake goes on, so
 * the caller can say what was wrong); alpn is one protocol or NULL. */
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
    mbedtls_ssl_conf_authmode(&c->conf, verify ? MBEDTLS_SSL_VERIFY_OPTIONAL : MBEDTLS_SSL_VERIFY_NONE);
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

/* mbedtls_ssl_handshake's loop, step by step, to note whether the server asked for a client certificate: in TLS 1.3
 * a server that refuses the client says so only after the client's side of the handshake is done. */
int swtls_handshake(swtls_conn *c) {
    while (!mbedtls_ssl_is_handshake_over(&c->ssl)) {
        int r = mbedtls_ssl_handshake_step(&c->ssl);
        if (c->ssl.handshake != NULL && c->ssl.handshake->client_auth) {
            c->asked = 1;
        }
        if (r != 0) {
            return r;
        }
    }
    return 0;
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

static size_t common_name(const mbedtls_x509_name *name, char *buf, size_t cap) {
    for (; name != NULL; name = name->next) {
        if (MBEDTLS_OID_CMP(MBEDTLS_OID_AT_CN, &name->oid) == 0) {
            size_t n = name->val.len < cap - 1 ? name->val.len : cap - 1;
            memcpy(buf, name->val.p, n);
            buf[n] = 0;
            return n;
        }
    }
    buf[0] = 0;
    return 0;
}

/* The server's certificate as lines of text (tls/PeerCertificate.java reads them): the subject's CN, the issuer's
 * CN, not before, not after (YYYYMMDDhhmmss, UTC), then one line per subject alternative name, "DNS:name" or
 * "IP:" and its bytes in hex. The length written, or -1 when there is none or it does not fit. */
int swtls_peer(swtls_conn *c, char *buf, size_t cap) {
    const mbedtls_x509_crt *crt = mbedtls_ssl_get_peer_cert(&c->ssl);
    if (crt == NULL) {
        return -1;
    }
    char subject[256], issuer[256];
    common_name(&crt->subject, subject, sizeof subject);
    common_name(&crt->issuer, issuer, sizeof issuer);
    const mbedtls_x509_time *a = &crt->valid_from, *b = &crt->valid_to;
    int n = snprintf(buf, cap, "%s\n%s\n%04d%02d%02d%02d%02d%02d\n%04d%02d%02d%02d%02d%02d\n", subject, issuer,
                     a->year, a->mon, a->day, a->hour, a->min, a->sec, b->year, b->mon, b->day, b->hour, b->min, b->sec);
    if (n < 0 || (size_t) n >= cap) {
        return -1;
    }
    for (const mbedtls_x509_sequence *san = &crt->subject_alt_names; san != NULL && san->buf.p != NULL; san = san->next) {
        int tag = san->buf.tag & MBEDTLS_ASN1_TAG_VALUE_MASK;
        size_t len = san->buf.len;
        if (tag == MBEDTLS_X509_SAN_DNS_NAME && len < 256 && (size_t) n + len + 6 < cap) {
            n += snprintf(buf + n, cap - n, "DNS:%.*s\n", (int) len, (const char *) san->buf.p);
        } else if (tag == MBEDTLS_X509_SAN_IP_ADDRESS && (len == 4 || len == 16) && (size_t) n + 2 * len + 5 < cap) {
            n += snprintf(buf + n, cap - n, "IP:");
            for (size_t i = 0; i < len; i++) {
                n += snprintf(buf + n, cap - n, "%02x", san->buf.p[i]);
            }
            n += snprintf(buf + n, cap - n, "\n");
        }
    }
    return n;
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
