/// One anchor of a `TDoAProblem`: `problem.groups[group]`, and within it `anchors[index]`, or
/// the group's reference when `index` is nil.
public struct TDoAAnchorID: Sendable, Equatable, Hashable, CustomStringConvertible {
    public var group: Int
    /// Index into the group's `anchors`; nil: the group's reference.
    public var index: Int?

    public init(group: Int, index: Int?) {
        self.group = group
        self.index = index
    }

    public static func reference(group: Int) -> TDoAAnchorID { TDoAAnchorID(group: group, index: nil) }

    public var isReference: Bool { index == nil }

    public var description: String { index.map { "g\(group).a\($0)" } ?? "g\(group).ref" }
}
