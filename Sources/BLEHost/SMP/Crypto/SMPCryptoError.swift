/// Why a P-256 operation of the LE Secure Connections toolbox refused its input or could not
/// run. The other functions of the toolbox take typed values of their exact sizes and cannot
/// fail; nothing here traps on outside input: a peer's bad public key is one of these.
public enum SMPCryptoError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A P-256 public key is not a point of the curve (a coordinate ≥ p, off the curve, or
    /// the point at infinity): the "invalid curve" check of LE Secure Connections.
    case invalidPublicKey
    /// A P-256 private key is 0 or not below the group order n.
    case invalidPrivateKey
    /// libcrypto failed (allocation, a missing algorithm, the random generator): which operation.
    case backendFailed(String)

    public var description: String {
        switch self {
        case .invalidPublicKey: return "the P-256 public key is not a point of the curve"
        case .invalidPrivateKey: return "the P-256 private key is not in [1, n-1]"
        case let .backendFailed(operation): return "libcrypto failed: \(operation)"
        }
    }

    /// The error for a CCrypto status (CCRYPTO_INVALID_PUBLIC_KEY -1, CCRYPTO_INVALID_PRIVATE_KEY -2).
    static func from(status: Int32, _ operation: String) -> SMPCryptoError {
        switch status {
        case -1: return .invalidPublicKey
        case -2: return .invalidPrivateKey
        default: return .backendFailed(operation)
        }
    }
}
