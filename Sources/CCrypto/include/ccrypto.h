#ifndef CCRYPTO_H
#define CCRYPTO_H
#include <stddef.h>
#include <stdint.h>

/// The LE Secure Connections primitives over OpenSSL 3's libcrypto (host side only; the
/// firmware modules never link it). Every integer, key and coordinate is big-endian (most
/// significant octet first), as the Core specification writes them; SMP's little-endian air
/// order is the Swift layer's business.
///
/// Every function returns CCRYPTO_OK (0) or one of the negative codes below.
#define CCRYPTO_OK 0
/// A public key is not a point of P-256: a coordinate >= p, off the curve, or the point at infinity.
#define CCRYPTO_INVALID_PUBLIC_KEY (-1)
/// A private key is 0 or >= n, the order of the group.
#define CCRYPTO_INVALID_PRIVATE_KEY (-2)
/// libcrypto failed (allocation, a missing algorithm, the random generator).
#define CCRYPTO_FAILURE (-3)

/// A new P-256 key pair from libcrypto's CSPRNG: the private key (32 octets) and the public
/// key X || Y (64 octets, each coordinate 32 octets).
int ccrypto_p256_generate(uint8_t private_key[32], uint8_t public_key[64]);

/// The public key X || Y of a private key (for fixed test keys).
int ccrypto_p256_public_key(const uint8_t private_key[32], uint8_t public_key[64]);

/// Whether X || Y is a valid P-256 public key: both coordinates < p, the point on the curve,
/// not the point at infinity. CCRYPTO_OK or CCRYPTO_INVALID_PUBLIC_KEY.
int ccrypto_p256_check_public_key(const uint8_t public_key[64]);

/// ECDH (EVP_PKEY_derive): the X coordinate of private_key * peer (32 octets), the DHKey of
/// LE Secure Connections. The peer key is validated first.
int ccrypto_p256_ecdh(const uint8_t private_key[32], const uint8_t peer_public_key[64], uint8_t dh_key[32]);

/// AES-128 of one block (ECB, no padding).
int ccrypto_aes128_encrypt(const uint8_t key[16], const uint8_t plaintext[16], uint8_t ciphertext[16]);

/// AES-CMAC (RFC 4493) with a 128-bit key over `length` octets (EVP_MAC "CMAC", AES-128-CBC).
int ccrypto_aes_cmac(const uint8_t key[16], const uint8_t *message, size_t length, uint8_t mac[16]);

/// `length` octets from libcrypto's CSPRNG (RAND_bytes).
int ccrypto_random(uint8_t *buffer, size_t length);

#endif
