/// The project's version, as the accessory's Device Information Service reports it (Firmware
/// Revision String): raised with each release of the toolkit.
public enum ProjectVersion {
    public static let text = "0.11.0"
}
