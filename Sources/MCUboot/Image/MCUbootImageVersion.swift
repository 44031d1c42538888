/// `struct image_version` (MCUboot `bootutil/image.h`): major, minor, revision, build number.
public struct MCUbootImageVersion: Equatable, Sendable, CustomStringConvertible {
    public var major: UInt8
    public var minor: UInt8
    public var revision: UInt16
    public var build: UInt32

    /// "1.2.3" or "1.2.3.4", the form MCUboot's image list reports (bs_list_img_ver).
    public var description: String {
        "\(major).\(minor).\(revision)" + (build != 0 ? ".\(build)" : "")
    }
}
