/*
 * Mbed TLS 3.6 configured for sidecar-wait's one use: a TLS client that verifies a server (MBEDTLS_CONFIG_FILE, in
 * place of the library's full default). TLS 1.2 and 1.3; ECDHE with ECDSA or RSA certificates; AES-GCM (every TLS
 * 1.3 server has TLS_AES_128_GCM_SHA256, and TLS 1.2 servers the ECDHE GCM suites); P-256, P-384 and X25519; RSA
 * PKCS#1 v1.5 and PSS signatures with SHA-256, -384 and -512 (no SHA-1: no certificate a server may present today
 * is signed with it); X.509 parsing, the server's name sent (SNI), ALPN (gRPC's h2). No server side, no session
 * resumption, no CBC suites, no files read by the library (the caller hands it DER), no networking of its own (the
 * caller moves the bytes), no threads. Each of these cuts is measured in docs/native.md (What TLS costs).
 */
#define MBEDTLS_HAVE_ASM
#define MBEDTLS_HAVE_TIME
#define MBEDTLS_HAVE_TIME_DATE
#define MBEDTLS_PLATFORM_C
#define MBEDTLS_ERROR_C
#define MBEDTLS_ENTROPY_C
#define MBEDTLS_CTR_DRBG_C
#define MBEDTLS_PSA_CRYPTO_C
#define MBEDTLS_USE_PSA_CRYPTO
/* Every buffer handed to PSA is this process's own memory, shared with no one: without this, each PSA call copies its
 * input and output into fresh heap buffers (CVE-2024-28960's defence for shared memory), and each record written made
 * and unmade a 20 KiB mapping (docs/native-journal.md, The TLS attempts' CPU). */
#define MBEDTLS_PSA_ASSUME_EXCLUSIVE_BUFFERS
#define MBEDTLS_MD_C
#define MBEDTLS_SHA256_C
#define MBEDTLS_SHA384_C
#define MBEDTLS_SHA512_C
#define MBEDTLS_AES_C
#define MBEDTLS_GCM_C
#define MBEDTLS_CIPHER_C
#define MBEDTLS_BIGNUM_C
#define MBEDTLS_ECP_C
#define MBEDTLS_ECP_DP_SECP256R1_ENABLED
#define MBEDTLS_ECP_DP_SECP384R1_ENABLED
#define MBEDTLS_ECP_DP_CURVE25519_ENABLED
/* the NIST curves' own reduction: a P-256 handshake in 5 ms instead of 12 (3 kB of code; docs/native.md) */
#define MBEDTLS_ECP_NIST_OPTIM
#define MBEDTLS_ECDH_C
#define MBEDTLS_ECDSA_C
#define MBEDTLS_RSA_C
#define MBEDTLS_PKCS1_V15
#define MBEDTLS_PKCS1_V21
#define MBEDTLS_ASN1_PARSE_C
#define MBEDTLS_ASN1_WRITE_C
#define MBEDTLS_OID_C
#define MBEDTLS_PK_C
#define MBEDTLS_PK_PARSE_C
#define MBEDTLS_PK_PARSE_EC_EXTENDED
#define MBEDTLS_X509_USE_C
#define MBEDTLS_X509_CRT_PARSE_C
#define MBEDTLS_X509_RSASSA_PSS_SUPPORT
#define MBEDTLS_SSL_TLS_C
#define MBEDTLS_SSL_CLI_C
#define MBEDTLS_SSL_PROTO_TLS1_2
#define MBEDTLS_SSL_PROTO_TLS1_3
#define MBEDTLS_SSL_TLS1_3_COMPATIBILITY_MODE
#define MBEDTLS_SSL_TLS1_3_KEY_EXCHANGE_MODE_EPHEMERAL_ENABLED
#define MBEDTLS_KEY_EXCHANGE_ECDHE_RSA_ENABLED
#define MBEDTLS_KEY_EXCHANGE_ECDHE_ECDSA_ENABLED
#define MBEDTLS_SSL_SERVER_NAME_INDICATION
#define MBEDTLS_SSL_ALPN
#define MBEDTLS_SSL_EXTENDED_MASTER_SECRET
#define MBEDTLS_SSL_KEEP_PEER_CERTIFICATE
#define MBEDTLS_HKDF_C
