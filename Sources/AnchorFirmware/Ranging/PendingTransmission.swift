/// A frame the engine has committed to send: which one and its RMARKER time (local clock).
struct PendingTransmission: Equatable, Sendable {
    enum Kind: Equatable, Sendable { case poll, response, final }
    var kind: Kind
    var round: UInt8
    var time: UWBTimestamp
}
