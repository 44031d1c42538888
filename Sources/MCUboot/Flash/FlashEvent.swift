/// Something a `FlashSession` reports as it goes, for a user interface to show.
public enum FlashEvent: Equatable, Sendable {
    /// The bootloader's image list, before the upload.
    case imageList([MCUbootSlotInfo])
    /// The bootloader does not implement the image list (or refused it); the upload goes on.
    case imageListUnavailable(rc: Int)
    /// A request is sent again: its answer was lost, garbled or did not come in time.
    case retry(command: String, attempt: Int, reason: String)
    /// The bootloader acknowledged up to this point.
    case progress(FlashProgress)
    /// The last upload answer (off == image size), as the bootloader sent it.
    case uploadComplete(response: CBORValue, progress: FlashProgress)
    /// The bootloader answered the reset request (rc 0: it reboots into the image).
    case resetAnswered(rc: Int)
    /// All done.
    case finished
    /// Stopped; nothing more will be sent.
    case failed(FlashError)
}
