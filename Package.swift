// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "reflector-emu",
    products: [
        .library(name: "ReflectorFirmware", targets: ["ReflectorFirmware"]),
        .library(name: "AnchorFirmware", targets: ["AnchorFirmware"]),
        .executable(name: "reflector-emu", targets: ["reflector-emu"]),
    ],
    targets: [
        // The accessory firmware: standard library only, builds for Cortex-M with Embedded Swift.
        // Float.squareRoot() lowers to sqrtf, which lives in libm on Linux (newlib on a board).
        .target(name: "ReflectorFirmware", linkerSettings: [.linkedLibrary("m", .when(platforms: [.linux]))]),
        // The UWB DL-TDoA anchor: standard library only, builds for Cortex-M with Embedded Swift.
        .target(name: "AnchorFirmware", linkerSettings: [.linkedLibrary("m", .when(platforms: [.linux]))]),
        // HCI transports and captures: H4 framing, btsnoop files.
        .target(name: "HCITransport"),
        // libserialport (Debian's libserialport-dev) for real serial ports.
        .systemLibrary(name: "CSerialPort", pkgConfig: "libserialport", providers: [.apt(["libserialport-dev"])]),
        // posix_openpt and termios for pseudo-terminals (libserialport cannot open a pty).
        .target(name: "CPty"),
        // Serial ports and ptys carrying H4, with timeouts on every read.
        .target(name: "SerialTransport", dependencies: ["CSerialPort", "CPty", "HCITransport"]),
        // MCUboot serial recovery (SMP over the console framing) and image checks.
        .target(name: "MCUboot"),
        // A bootloader that speaks MCUboot serial recovery on a pty, for the flash tests.
        .executableTarget(name: "mcuboot-test-bootloader", dependencies: ["MCUboot", "SerialTransport"]),
        // The emulator's mathematics: complex numbers, the one 3-D vector, small matrices and
        // solvers, the FFT, the seeded generators and the one quantile definition.
        .target(name: "EmulatorMath"),
        // The simulated air: channel models (free space, reflections, TGn), noise, LO phases,
        // crystal offsets, antennas and trajectories; a RadioPort for each controller.
        .target(name: "RadioWorld", dependencies: ["EmulatorMath", "ReflectorFirmware"]),
        // Distance from CS tones: phase slope, IFFT, ESPRIT, path combining, the Cramer-Rao bound.
        .target(name: "RangingEstimation", dependencies: ["EmulatorMath"]),
        // The host stack that the phone's and the accessory's hosts stand on: today the
        // initiator's host (InitiatorHost), the controller probe and the host's HCI commands.
        .target(name: "BLEHost", dependencies: ["EmulatorMath", "RangingEstimation", "ReflectorFirmware", "HCITransport"]),
        // The phone in process: the loopback of two controllers and two hosts over the air, and
        // the Core Bluetooth-like sessions (CentralManager, Peripheral) on top of it.
        .target(name: "PhoneEmulation", dependencies: ["BLEHost", "RadioWorld", "RangingEstimation", "ReflectorFirmware", "HCITransport", "EmulatorMath"]),
        // Nearby Interaction over Channel Sounding: the session API, direction fusion, the
        // world (phone and accessory motion, camera tracking) and its simulation.
        .target(name: "NearbyEmulation", dependencies: ["PhoneEmulation", "RadioWorld", "RangingEstimation", "EmulatorMath", "ReflectorFirmware"]),
        // UWB DL-TDoA on the phone: the session, the receiver (frames to rounds to measurements),
        // the position solver and tracker, and the simulated deployment of anchor firmware.
        .target(name: "DLTDoA", dependencies: ["NearbyEmulation", "AnchorFirmware", "RangingEstimation", "EmulatorMath"]),
        // The emulated controller served as a virtual dev board: generic HCI around the CS
        // controller, the emulated peer in the air, procedures on the wall clock.
        .target(name: "VirtualBoard", dependencies: ["BLEHost", "PhoneEmulation", "RadioWorld", "ReflectorFirmware", "HCITransport"]),
        // What the test targets share: seeded draws, hex literals, temporary directories, and the
        // StreamDecoderVerifier that feeds incremental decoders their input in every split.
        .target(name: "TestSupport", dependencies: ["EmulatorMath"]),
        // The tool's logic: commands, options, files, captures, reports and plots. Foundation is allowed here.
        .target(name: "ReflectorTools", dependencies: ["ReflectorFirmware", "HCITransport", "SerialTransport", "MCUboot",
                                                      "EmulatorMath", "RadioWorld", "RangingEstimation", "BLEHost",
                                                      "PhoneEmulation", "NearbyEmulation", "DLTDoA", "VirtualBoard"]),
        .executableTarget(name: "reflector-emu", dependencies: ["ReflectorTools"]),
        .executableTarget(name: "bench", dependencies: ["ReflectorFirmware", "AnchorFirmware", "HCITransport", "SerialTransport",
                                                        "EmulatorMath", "RadioWorld", "RangingEstimation", "PhoneEmulation", "DLTDoA"]),
        // Fuzzing (scripts/fuzz): a libFuzzer target for every decoder of outside bytes. Built
        // with -sanitize=fuzzer,address -DFUZZING, reflector-fuzz runs libFuzzer (its entry point
        // declared by CFuzzing); built normally, it replays the committed corpus, as
        // FuzzTargetsTests do. Every call into ReflectorTools goes through FuzzTargets/ToolsAdapter.swift.
        .target(name: "CFuzzing"),
        .target(name: "FuzzTargets", dependencies: ["ReflectorFirmware", "AnchorFirmware", "HCITransport", "MCUboot", "EmulatorMath",
                                                    "RadioWorld", "BLEHost", "PhoneEmulation", "DLTDoA", "ReflectorTools"]),
        .executableTarget(name: "reflector-fuzz", dependencies: ["FuzzTargets", "CFuzzing"]),
        .testTarget(name: "ReflectorFirmwareTests", dependencies: ["ReflectorFirmware", "EmulatorMath", "TestSupport"]),
        .testTarget(name: "AnchorFirmwareTests", dependencies: ["AnchorFirmware"]),
        .testTarget(name: "EmulatorMathTests", dependencies: ["EmulatorMath"]),
        .testTarget(name: "RadioWorldTests", dependencies: ["RadioWorld", "EmulatorMath", "ReflectorFirmware"]),
        .testTarget(name: "RangingEstimationTests", dependencies: ["RangingEstimation", "EmulatorMath", "TestSupport"]),
        .testTarget(name: "PhoneEmulationTests", dependencies: ["PhoneEmulation", "BLEHost", "EmulatorMath", "RadioWorld", "RangingEstimation", "ReflectorFirmware"]),
        .testTarget(name: "NearbyEmulationTests", dependencies: ["NearbyEmulation", "EmulatorMath", "PhoneEmulation", "RadioWorld"]),
        .testTarget(name: "DLTDoATests", dependencies: ["DLTDoA", "AnchorFirmware", "EmulatorMath", "NearbyEmulation"]),
        .testTarget(name: "VirtualBoardTests", dependencies: ["VirtualBoard", "BLEHost", "HCITransport", "PhoneEmulation", "RadioWorld", "RangingEstimation", "ReflectorFirmware"]),
        .testTarget(name: "ReflectorToolsTests", dependencies: ["ReflectorTools", "TestSupport"]),
        .testTarget(name: "HCITransportTests", dependencies: ["HCITransport", "EmulatorMath", "TestSupport"]),
        .testTarget(name: "SerialTransportTests", dependencies: ["SerialTransport", "HCITransport", "TestSupport"]),
        .testTarget(name: "MCUbootTests", dependencies: ["MCUboot", "EmulatorMath", "TestSupport"]),
        .testTarget(name: "TestSupportTests", dependencies: ["TestSupport", "EmulatorMath"]),
        .testTarget(name: "FuzzTargetsTests", dependencies: ["FuzzTargets"]),
    ],
    swiftLanguageModes: [.v6]
)
