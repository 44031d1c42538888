/// Numbers as the tool's messages print ranges and values: whole numbers without a point
/// ("149"), others in Swift's shortest form ("0.1").
public enum NumberText {
    public static func plain(_ v: Double) -> String {
        v == v.rounded() && v.magnitude < 1e15 ? String(Int64(v)) : String(v)
    }
}
