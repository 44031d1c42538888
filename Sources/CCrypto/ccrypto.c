// The LE Secure Connections primitives over OpenSSL 3 (see include/ccrypto.h). A C shim because
// Swift cannot pass the OSSL_PKEY_PARAM_* string macros to OSSL_PARAM_BLD. EC_GROUP/EC_POINT
// (not deprecated in OpenSSL 3) do the point arithmetic and checks; EVP does keys and ECDH.
#include "ccrypto.h"

#include <string.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/obj_mac.h>
#include <openssl/param_build.h>
#include <openssl/rand.h>

static const char *curve_name = "prime256v1";

/// The point X || Y on P-256, or NULL with *status set: each coordinate < p, on the curve, not at infinity.
static EC_POINT *checked_point(const EC_GROUP *group, const uint8_t public_key[64], BN_CTX *ctx, int *status) {
    *status = CCRYPTO_FAILURE;
    BIGNUM *p = BN_CTX_get(ctx), *x = BN_CTX_get(ctx), *y = BN_CTX_get(ctx);
    if (y == NULL || !EC_GROUP_get_curve(group, p, NULL, NULL, ctx)) return NULL;
    if (BN_bin2bn(public_key, 32, x) == NULL || BN_bin2bn(public_key + 32, 32, y) == NULL) return NULL;
    EC_POINT *point = EC_POINT_new(group);
    if (point == NULL) return NULL;
    *status = CCRYPTO_INVALID_PUBLIC_KEY;
    if (BN_cmp(x, p) >= 0 || BN_cmp(y, p) >= 0
        || !EC_POINT_set_affine_coordinates(group, point, x, y, ctx)
        || EC_POINT_is_on_curve(group, point, ctx) != 1
        || EC_POINT_is_at_infinity(group, point)) {
        EC_POINT_free(point);
        ERR_clear_error(); // libcrypto queued why; the status says it
        return NULL;
    }
    *status = CCRYPTO_OK;
    return point;
}

/// The private scalar, or NULL with *status set (0 or >= n is invalid).
static BIGNUM *checked_scalar(const EC_GROUP *group, const uint8_t private_key[32], int *status) {
    *status = CCRYPTO_FAILURE;
    BIGNUM *d = BN_bin2bn(private_key, 32, NULL);
    if (d == NULL) return NULL;
    const BIGNUM *n = EC_GROUP_get0_order(group);
    if (BN_is_zero(d) || BN_cmp(d, n) >= 0) {
        BN_clear_free(d);
        *status = CCRYPTO_INVALID_PRIVATE_KEY;
        return NULL;
    }
    *status = CCRYPTO_OK;
    return d;
}

static int write_point(const EC_GROUP *group, const EC_POINT *point, uint8_t out[64], BN_CTX *ctx) {
    BIGNUM *x = BN_CTX_get(ctx), *y = BN_CTX_get(ctx);
    if (y == NULL || !EC_POINT_get_affine_coordinates(group, point, x, y, ctx)) return CCRYPTO_FAILURE;
    if (BN_bn2binpad(x, out, 32) != 32 || BN_bn2binpad(y, out + 32, 32) != 32) return CCRYPTO_FAILURE;
    return CCRYPTO_OK;
}

/// An EVP_PKEY of P-256 from the public key (04 || X || Y) and, when given, the private scalar.
static EVP_PKEY *make_pkey(const uint8_t public_key[64], const BIGNUM *d) {
    uint8_t encoded[65];
    encoded[0] = 0x04;
    memcpy(encoded + 1, public_key, 64);
    EVP_PKEY *pkey = NULL;
    OSSL_PARAM *params = NULL;
    EVP_PKEY_CTX *pctx = NULL;
    OSSL_PARAM_BLD *bld = OSSL_PARAM_BLD_new();
    if (bld == NULL) goto done;
    if (!OSSL_PARAM_BLD_push_utf8_string(bld, OSSL_PKEY_PARAM_GROUP_NAME, curve_name, 0)) goto done;
    if (!OSSL_PARAM_BLD_push_octet_string(bld, OSSL_PKEY_PARAM_PUB_KEY, encoded, sizeof encoded)) goto done;
    if (d != NULL && !OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_PRIV_KEY, d)) goto done;
    params = OSSL_PARAM_BLD_to_param(bld);
    if (params == NULL) goto done;
    pctx = EVP_PKEY_CTX_new_from_name(NULL, "EC", NULL);
    if (pctx == NULL || EVP_PKEY_fromdata_init(pctx) <= 0) goto done;
    if (EVP_PKEY_fromdata(pctx, &pkey, d != NULL ? EVP_PKEY_KEYPAIR : EVP_PKEY_PUBLIC_KEY, params) <= 0) pkey = NULL;
done:
    EVP_PKEY_CTX_free(pctx);
    OSSL_PARAM_free(params);
    OSSL_PARAM_BLD_free(bld);
    return pkey;
}

int ccrypto_p256_public_key(const uint8_t private_key[32], uint8_t public_key[64]) {
    int status = CCRYPTO_FAILURE;
    EC_GROUP *group = EC_GROUP_new_by_curve_name(NID_X9_62_prime256v1);
    BN_CTX *ctx = BN_CTX_new();
    BIGNUM *d = NULL;
    EC_POINT *q = NULL;
    if (group == NULL || ctx == NULL) goto done;
    BN_CTX_start(ctx);
    d = checked_scalar(group, private_key, &status);
    if (d == NULL) goto done;
    status = CCRYPTO_FAILURE;
    q = EC_POINT_new(group);
    if (q == NULL || !EC_POINT_mul(group, q, d, NULL, NULL, ctx)) goto done;
    status = write_point(group, q, public_key, ctx);
done:
    if (ctx != NULL) BN_CTX_end(ctx);
    EC_POINT_free(q);
    BN_clear_free(d);
    BN_CTX_free(ctx);
    EC_GROUP_free(group);
    return status;
}

int ccrypto_p256_generate(uint8_t private_key[32], uint8_t public_key[64]) {
    int status = CCRYPTO_FAILURE;
    BIGNUM *d = NULL;
    EVP_PKEY *pkey = EVP_PKEY_Q_keygen(NULL, NULL, "EC", curve_name);
    if (pkey == NULL) goto done;
    if (!EVP_PKEY_get_bn_param(pkey, OSSL_PKEY_PARAM_PRIV_KEY, &d)) goto done;
    if (BN_bn2binpad(d, private_key, 32) != 32) goto done;
    status = ccrypto_p256_public_key(private_key, public_key);
done:
    BN_clear_free(d);
    EVP_PKEY_free(pkey);
    return status;
}

int ccrypto_p256_check_public_key(const uint8_t public_key[64]) {
    int status = CCRYPTO_FAILURE;
    EC_GROUP *group = EC_GROUP_new_by_curve_name(NID_X9_62_prime256v1);
    BN_CTX *ctx = BN_CTX_new();
    if (group != NULL && ctx != NULL) {
        BN_CTX_start(ctx);
        EC_POINT *point = checked_point(group, public_key, ctx, &status);
        EC_POINT_free(point);
        BN_CTX_end(ctx);
    }
    BN_CTX_free(ctx);
    EC_GROUP_free(group);
    return status;
}

int ccrypto_p256_ecdh(const uint8_t private_key[32], const uint8_t peer_public_key[64], uint8_t dh_key[32]) {
    int status = ccrypto_p256_check_public_key(peer_public_key);
    if (status != CCRYPTO_OK) return status;
    uint8_t own_public[64];
    status = ccrypto_p256_public_key(private_key, own_public);
    if (status != CCRYPTO_OK) return status;
    status = CCRYPTO_FAILURE;
    BIGNUM *d = BN_bin2bn(private_key, 32, NULL);
    EVP_PKEY *own = NULL, *peer = NULL;
    EVP_PKEY_CTX *dctx = NULL;
    size_t length = 32;
    if (d == NULL) goto done;
    own = make_pkey(own_public, d);
    peer = make_pkey(peer_public_key, NULL);
    if (own == NULL || peer == NULL) goto done;
    dctx = EVP_PKEY_CTX_new_from_pkey(NULL, own, NULL);
    if (dctx == NULL || EVP_PKEY_derive_init(dctx) <= 0) goto done;
    if (EVP_PKEY_derive_set_peer_ex(dctx, peer, 1) <= 0) { ERR_clear_error(); status = CCRYPTO_INVALID_PUBLIC_KEY; goto done; }
    if (EVP_PKEY_derive(dctx, dh_key, &length) <= 0 || length != 32) goto done;
    status = CCRYPTO_OK;
done:
    EVP_PKEY_CTX_free(dctx);
    EVP_PKEY_free(peer);
    EVP_PKEY_free(own);
    BN_clear_free(d);
    return status;
}

int ccrypto_aes128_encrypt(const uint8_t key[16], const uint8_t plaintext[16], uint8_t ciphertext[16]) {
    int status = CCRYPTO_FAILURE, written = 0, final_length = 0;
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    if (ctx == NULL) return status;
    if (EVP_EncryptInit_ex(ctx, EVP_aes_128_ecb(), NULL, key, NULL) == 1
        && EVP_CIPHER_CTX_set_padding(ctx, 0) == 1
        && EVP_EncryptUpdate(ctx, ciphertext, &written, plaintext, 16) == 1 && written == 16
        && EVP_EncryptFinal_ex(ctx, ciphertext + written, &final_length) == 1 && final_length == 0) {
        status = CCRYPTO_OK;
    }
    EVP_CIPHER_CTX_free(ctx);
    return status;
}

int ccrypto_aes_cmac(const uint8_t key[16], const uint8_t *message, size_t length, uint8_t mac[16]) {
    int status = CCRYPTO_FAILURE;
    size_t written = 0;
    static const uint8_t empty[1] = {0};
    EVP_MAC *algorithm = EVP_MAC_fetch(NULL, "CMAC", NULL);
    EVP_MAC_CTX *ctx = algorithm != NULL ? EVP_MAC_CTX_new(algorithm) : NULL;
    OSSL_PARAM params[] = {
        OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_CIPHER, "AES-128-CBC", 0),
        OSSL_PARAM_construct_end(),
    };
    if (ctx != NULL
        && EVP_MAC_init(ctx, key, 16, params) == 1
        && EVP_MAC_update(ctx, message != NULL ? message : empty, length) == 1
        && EVP_MAC_final(ctx, mac, &written, 16) == 1 && written == 16) {
        status = CCRYPTO_OK;
    }
    EVP_MAC_CTX_free(ctx);
    EVP_MAC_free(algorithm);
    return status;
}

int ccrypto_random(uint8_t *buffer, size_t length) {
    if (length == 0) return CCRYPTO_OK;
    if (length > (size_t)2147483647) return CCRYPTO_FAILURE;
    return RAND_bytes(buffer, (int)length) == 1 ? CCRYPTO_OK : CCRYPTO_FAILURE;
}
