/// The capture reading of `reflector-emu estimate` (Captures: btsnoop records to CS
/// procedures, a phone's RAS session from its ACL traffic, then distances), through
/// `CaptureCalls` only.
///
/// Input: one flag octet (bit 0: read the same file as the reflector's capture too; bits 1–2:
/// the estimator; bit 3: the default role is the reflector; bits 4–5: inline PCT unknown, on,
/// off), then a btsnoop file.
///
/// Checks: every problem and every procedure points inside the file, in file order.
enum CaptureTarget {
    static let target = FuzzTarget("capture", "reflector-emu estimate's capture reading: btsnoop file to procedures and distances", seeds: seeds) { bytes in
        var input = FuzzInput(bytes)
        let flags = input.byte()
        let file = input.rest()
        let inlinePCT: Bool? = [nil, true, false, nil][Int(flags >> 4 & 3)]
        let read = CaptureCalls.estimate(capture: file, reflector: flags & 1 != 0 ? file : nil, estimator: Int(flags >> 1 & 3),
                                         defaultRoleIsReflector: flags & 8 != 0, inlinePCT: inlinePCT)
        require(read.problemOffsets.allSatisfy { $0 >= 0 && $0 <= file.count }, "a problem offset outside the file")
        require(read.procedureOffsets.allSatisfy { $0 >= 0 && $0 < file.count }, "a procedure offset outside the file")
        require(read.problemOffsets == read.problemOffsets.sorted(), "problems out of file order")
        require(read.procedureOffsets == read.procedureOffsets.sorted(), "procedures out of file order")
        require(read.estimates == read.procedureOffsets.count, "not one estimate per procedure")
    }

    static func seeds() -> [[UInt8]] {
        BTSnoopTarget.seeds().flatMap { [[0] + $0, [0x11] + $0, [0x2B] + $0] }
            + [false, true].compactMap { PhoneRASSeed.capture(onDemand: $0) }.map { [0] + $0 }
    }
}
