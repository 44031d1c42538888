/// The round-trip timing input of one procedure: for each mode-1 or mode-3 step both sides
/// timed, ToA_ToD_Initiator − ToD_ToA_Reflector, which is twice the time of flight plus the
/// radios' errors (Core 6.0 Vol 6 Part H, the CS_SYNC exchange of a mode-1/3 step; the fields
/// as Vol 4 Part E §7.7.65.44 reports them: 0.5 ns units, 0x8000 "not available"). Kept apart from `ToneSet`: timing and phase are different
/// measurements of the same procedure, and a procedure may have either or both.
///
/// A step is left out, and counted, when either side's Packet_Quality says the CS Access Address
/// was not received cleanly (bit errors or not found: a timestamp from a corrupted correlation
/// is no timestamp; Nordic's `cs_de` keeps only AA-check-passed steps too), when either side
/// reported its time as not available, or when the reflector's data for the step is missing.
public struct RoundTripTimes: Sendable, Equatable {
    /// One step's round trip.
    public struct Sample: Sendable, Equatable {
        /// CS channel index of the step.
        public var channel: UInt8
        /// ToA_ToD_Initiator − ToD_ToA_Reflector, in units of 0.5 ns.
        public var halfNanoseconds: Int32

        public init(channel: UInt8, halfNanoseconds: Int32) {
            self.channel = channel
            self.halfNanoseconds = halfNanoseconds
        }

        /// The round trip in seconds.
        @inline(__always) public var seconds: Double { Double(halfNanoseconds) * 0.5e-9 }
    }

    /// Why timed steps were left out.
    public struct Rejections: Sendable, Equatable {
        /// A side's access-address check found bit errors or no packet.
        public var accessAddress = 0
        /// A side reported its time as not available (0x8000).
        public var notAvailable = 0
        /// The reflector's data for the step was missing or of another mode.
        public var unpaired = 0

        public init(accessAddress: Int = 0, notAvailable: Int = 0, unpaired: Int = 0) {
            self.accessAddress = accessAddress
            self.notAvailable = notAvailable
            self.unpaired = unpaired
        }

        public var total: Int { accessAddress + notAvailable + unpaired }
    }

    public var samples: [Sample]
    public var rejected: Rejections

    public init(samples: [Sample] = [], rejected: Rejections = Rejections()) {
        self.samples = samples
        self.rejected = rejected
    }

    /// No timed steps at all (a mode-2 procedure).
    public static let none = RoundTripTimes()

    /// Whether the procedure timed any step, usable or not.
    public var hasTimedSteps: Bool { !samples.isEmpty || rejected.total > 0 }
}
