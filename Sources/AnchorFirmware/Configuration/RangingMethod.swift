/// How the anchors of a cluster range each other (UCI `DL_TDOA_RANGING_METHOD` 0x3D: 0 SS-TWR,
/// 1 DS-TWR, the default). Double-sided adds the initiator's Final DTM, whose reply times let
/// both responders and tags cancel the clock offsets (FiRa MAC 2.0 5.9.13.2, "Final DTM present").
public enum RangingMethod: UInt8, Equatable, Sendable {
    case singleSided = 0
    case doubleSided = 1
}
