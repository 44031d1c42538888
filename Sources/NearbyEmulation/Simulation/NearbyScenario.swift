import EmulatorMath
import PhoneEmulation
/// Everything that decides a Nearby Interaction emulation run: the world (true phone and
/// accessory motion), the radio between them, what the app asks for (camera assistance, the
/// motion hint), and what happens to the app and the radio over time (background intervals,
/// coexistence load changes). Times are world seconds from the session's start.
public struct NearbyScenario: Sendable {
    /// A span of world time, seconds.
    public struct Interval: Sendable, Equatable {
        public var start: Double
        public var end: Double
        public init(start: Double, end: Double) {
            self.start = start
            self.end = end
        }
    }

    /// From `time` on, the radio carries `load`.
    public struct LoadChange: Sendable, Equatable {
        public var time: Double
        public var load: CoexistenceLoad
        public init(time: Double, load: CoexistenceLoad) {
            self.time = time
            self.load = load
        }
    }

    public var world: NearbyWorld
    /// How long the run lasts, seconds.
    public var duration: Double
    /// The pair and the radio channel (its geometry's distance is replaced by the world's).
    public var setup: LoopbackSetup
    /// Seeds the camera's drift and the fusion (the Air has its own seed in `setup`).
    public var seed: UInt64
    public var cameraAssistance: Bool
    /// What the app tells the session about the accessory's motion (nil: never calls `updateMotionState`).
    public var motionHint: MotionActivityState?
    /// When the app is in the background.
    public var background: [Interval]
    public var loadChanges: [LoadChange]
    /// Whether the emulated phone has Channel Sounding (an N1 chip).
    public var phoneSupportsChannelSounding: Bool

    public init(world: NearbyWorld, duration: Double, setup: LoopbackSetup = LoopbackSetup(), seed: UInt64 = 1,
                cameraAssistance: Bool = true, motionHint: MotionActivityState? = nil, background: [Interval] = [],
                loadChanges: [LoadChange] = [], phoneSupportsChannelSounding: Bool = true) {
        self.world = world
        self.duration = duration
        self.setup = setup
        self.seed = seed
        self.cameraAssistance = cameraAssistance
        self.motionHint = motionHint
        self.background = background
        self.loadChanges = loadChanges
        self.phoneSupportsChannelSounding = phoneSupportsChannelSounding
    }

    /// The accessory's place in the default scenarios: on a shelf, 0.9 m up, at the origin.
    public static let accessoryPlace = Vector3(0, 0, 0.9)

    /// The default: a stationary accessory, the user starting `distance` m from it, swaying
    /// the phone, walking a quarter circle around it and swaying again (`PhoneMotion.defaultWalk`).
    public static func defaultWalk(distance: Double = 3, setup: LoopbackSetup = LoopbackSetup(), seed: UInt64 = 1) -> NearbyScenario {
        let world = NearbyWorld(phone: .defaultWalk(around: accessoryPlace, distance: distance), accessory: .stationary(accessoryPlace))
        return NearbyScenario(world: world, duration: 14, setup: setup, seed: seed)
    }
}
