/// What an app implements to hear from a `NearbySession`, modelled on `NISessionDelegate`.
public protocol NearbySessionDelegate: AnyObject {
    /// New measurements of the accessory, one object per procedure.
    func session(_ session: NearbySession, didUpdate nearbyObjects: [NearbyObject])
    /// The session ended for good; run a new session to range again.
    func session(_ session: NearbySession, didInvalidateWith error: NearbyError)
    /// The app went to the background: Channel Sounding pauses (iOS 27 ranges only in the foreground).
    func sessionWasSuspended(_ session: NearbySession)
    /// The app is in the foreground again and ranging resumed.
    func sessionSuspensionEnded(_ session: NearbySession)
    /// The direction fusion's convergence changed (camera assistance only): what the user
    /// should do to get a direction.
    func session(_ session: NearbySession, didUpdateAlgorithmConvergence convergence: NearbyAlgorithmConvergence, for object: NearbyObject?)
}

extension NearbySessionDelegate {
    public func sessionWasSuspended(_ session: NearbySession) {}
    public func sessionSuspensionEnded(_ session: NearbySession) {}
    public func session(_ session: NearbySession, didUpdateAlgorithmConvergence convergence: NearbyAlgorithmConvergence, for object: NearbyObject?) {}
}
