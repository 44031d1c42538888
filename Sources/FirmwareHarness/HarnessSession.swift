#if !FIRMWARE_IMAGE
import ReflectorFirmware
#endif

/// The firmware test image's side of the conversation, fed one received octet at a time:
/// Configuration, Security and Receptions frames make up a vector (each may be sent again to
/// replace it); Run runs it (`VectorRunner`) and ends the session. Anything refused is answered
/// with an Error frame and the session goes on, so hostile input never hangs or traps it.
public struct HarnessSession {
    private var decoder = FrameDecoder()
    private var configuration: (CSConfiguration, AntennaConfiguration, ProcedureSchedule, Int)?
    private var security: SecurityMaterial?
    private var receptions: ReceptionPool?
    /// Whether Run has been answered with Done.
    public private(set) var isDone = false
    /// What the run measured.
    public var stats = WorkStats()

    public init() {}

    public mutating func receive<Sink: FrameSink, Meter: WorkMeter>(_ byte: UInt8, sink: inout Sink, meter: inout Meter) {
        guard !isDone, let event = decoder.push(byte) else { return }
        switch event {
        case .rejected(let error, let type, let detail):
            Self.sendError(error, type: type, detail: detail, to: &sink)
        case .frame(let type, let payload):
            handle(type: type, payload: payload, sink: &sink, meter: &meter)
        }
    }

    private mutating func handle<Sink: FrameSink, Meter: WorkMeter>(type: UInt8, payload: [UInt8], sink: inout Sink, meter: inout Meter) {
        do throws(PayloadError) {
            switch FrameType(rawValue: type) {
            case .configuration: configuration = try TestVector.decodeConfiguration(payload)
            case .security: security = try SecurityMaterial(payload: payload)
            case .receptions: receptions = try ReceptionPool(payload: payload)
            case .run:
                guard let (c, aci, schedule, procedures) = configuration, let security, let receptions else {
                    Self.sendError(.incompleteVector, type: type, detail: 0, to: &sink)
                    return
                }
                let vector = TestVector(configuration: c, antennaConfiguration: aci, schedule: schedule,
                                        procedures: procedures, security: security, receptions: receptions)
                VectorRunner.run(vector, sink: &sink, meter: &meter, stats: &stats)
                isDone = true
            default:
                Self.sendError(.unknownType, type: type, detail: 0, to: &sink)
            }
        } catch {
            Self.sendError(.badPayload, type: type, detail: UInt16(truncatingIfNeeded: error.offset), to: &sink)
        }
    }

    static func sendError<Sink: FrameSink>(_ error: HarnessError, type: UInt8, detail: UInt16, to sink: inout Sink) {
        FrameFormat.write(type: FrameType.error.rawValue,
                          payload: [error.rawValue, type, UInt8(truncatingIfNeeded: detail), UInt8(truncatingIfNeeded: detail >> 8)],
                          to: &sink)
    }
}
