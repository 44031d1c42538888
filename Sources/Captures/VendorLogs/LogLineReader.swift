/// A vendor log's reader: told each line in turn, then where the file ended. `read` is the one
/// loop around every such reader: the first line it cannot read stops it, named, and what it
/// read before stays.
protocol LogLineReader {
    var procedures: LoggedProcedures { get set }
    mutating func line(_ number: Int, _ text: Substring) throws(LogLineError)
    mutating func end(lastLine: Int) throws(LogLineError)
}

extension LogLineReader {
    /// Every line of `bytes` through this reader; the procedures it read, and its error if any.
    consuming func read(_ bytes: [UInt8]) -> CaptureProcedures {
        let lines = LogLines(bytes)
        do throws(LogLineError) {
            for (number, text) in lines { try line(number, text) }
            try end(lastLine: lines.lastLine)
        } catch {
            procedures.fail(error)
        }
        return procedures.capture
    }
}
