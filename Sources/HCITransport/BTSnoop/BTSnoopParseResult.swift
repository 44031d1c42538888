/// What `BTSnoopReader.parse(_:)` found: the header (if it was valid), every complete record up
/// to the first problem, and that problem. A capture cut off mid-record, as when a tool is
/// killed while writing, still yields all the records it finished.
public struct BTSnoopParseResult: Sendable, Equatable {
    public var header: BTSnoopFileHeader?
    public var records: [BTSnoopRecord]
    /// `nil` when the whole file was read.
    public var error: BTSnoopError?

    public init(header: BTSnoopFileHeader?, records: [BTSnoopRecord], error: BTSnoopError?) {
        self.header = header
        self.records = records
        self.error = error
    }
}
