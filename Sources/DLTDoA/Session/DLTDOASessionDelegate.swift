import NearbyInteraction
/// What an app implements to hear from a `DLTDOASession`, modelled on `NISessionDelegate`'s
/// DL-TDOA callback.
public protocol DLTDOASessionDelegate: AnyObject {
    /// Measurements of the messages heard since the last call.
    func session(_ session: DLTDOASession, didUpdateDLTDOA measurements: [DLTDOAMeasurement])
    /// The session ended for good.
    func session(_ session: DLTDOASession, didInvalidateWith error: NearbyError)
}
