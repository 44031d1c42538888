/// A block cipher that encrypts one 128-bit block under a 128-bit key: the seam between the CS
/// DRBG and whatever performs AES-128 on the device (Core 6.0 Vol 3 Part H §2.2.1, the security
/// function e, on which Vol 6 Part E §3.1 builds the CS DRBG).
///
/// The table-driven `AES128` is the default. A board can use its AES ECB peripheral instead,
/// as Zephyr's controller does behind `hal/ecb.h` (`ecb_encrypt(key, clear, cipher_le,
/// cipher_be)`, implemented per SoC in `hal/nrf5/ecb.c`): `init(key:)` keeps the key, and
/// `encrypt` loads it with each block, starts the peripheral and waits for the result. Values
/// are most significant octet first (`Block128`), as the spec's sample data writes them; a
/// peripheral that takes little-endian octets reverses them on the way in and out.
///
/// `CSDRBG`, `CSRandomBits`, `ProcedurePlanner` and `CSController` take the cipher as a type
/// parameter, never as an existential, so a board's cipher is specialised into the per-step
/// path (which must not allocate or dispatch dynamically).
public protocol BlockCipher: Sendable {
    /// Prepares to encrypt under `key`: a software cipher expands its key schedule here, once.
    init(key: Block128)
    /// e(key, block).
    func encrypt(_ block: Block128) -> Block128
}
