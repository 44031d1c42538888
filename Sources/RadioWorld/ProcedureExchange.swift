import ReflectorFirmware

/// Runs one CS procedure between two controllers over their radios, in the order the air
/// imposes within every step: the initiator sends, the reflector answers, the initiator measures.
/// Both controllers plan the procedure themselves; a step they disagree on ends it (a bug,
/// never expected, reported as false).
package enum ProcedureExchange {
    /// Returns whether both plans agreed to the end, and the end time of the last step.
    package static func run<I: RadioPort, R: RadioPort>(
        initiator: inout CSController<AES128>, reflector: inout CSController<AES128>, initiatorRadio: inout I, reflectorRadio: inout R
    ) -> (agreed: Bool, end: UInt64) {
        initiator.beginProcedure()
        reflector.beginProcedure()
        var end: UInt64 = 0
        var agreed = true
        while let step = initiator.nextStep() {
            guard let mirror = reflector.nextStep(), mirror == step else {
                agreed = false
                break
            }
            initiator.transmit(step, radio: &initiatorRadio)
            reflector.run(step, radio: &reflectorRadio)
            initiator.receive(step, radio: &initiatorRadio)
            end = max(end, initiator.startTime(of: step) + UInt64(step.durationMicroseconds))
        }
        if agreed && reflector.nextStep() != nil { agreed = false }
        initiator.endProcedure()
        reflector.endProcedure()
        return (agreed, end)
    }
}
