/// What an app implements to hear from a Channel Sounding session, modelled on Core
/// Bluetooth's `CBPeripheralDelegate` additions in iOS 27.
public protocol PeripheralDelegate: AnyObject {
    /// Called once per procedure: results with the distance, or nil and an error when the
    /// measurement failed.
    func peripheral(_ peripheral: Peripheral, didReceive results: ChannelSoundingProcedureResults?, error: ChannelSoundingError?)
    /// Called when the session ends: cancelled (nil), or failed (the error).
    func peripheral(_ peripheral: Peripheral, didCompleteChannelSoundingSession error: ChannelSoundingError?)
}
