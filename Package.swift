// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "reflector-emu",
    products: [
        .library(name: "WireFormat", targets: ["WireFormat"]),
        .library(name: "ReflectorFirmware", targets: ["ReflectorFirmware"]),
        .library(name: "AnchorFirmware", targets: ["AnchorFirmware"]),
        .executable(name: "reflector-emu", targets: ["reflector-emu"]),
    ],
    targets: [
        // The byte layer every codec stands on: ByteReader/ByteWriter with the byte order as a
        // parameter, and DecodeError. Standard library only, builds for Cortex-M with Embedded Swift.
        .target(name: "WireFormat"),
        // The accessory firmware: standard library only, builds for Cortex-M with Embedded Swift.
        // It re-exports WireFormat (its codecs' API is WireFormat's reader, writer and DecodeError).
        // Float.squareRoot() lowers to sqrtf, which lives in libm on Linux (newlib on a board).
        .target(name: "ReflectorFirmware", dependencies: ["WireFormat"], linkerSettings: [.linkedLibrary("m", .when(platforms: [.linux]))]),
        // The UWB DL-TDoA anchor: standard library only, builds for Cortex-M with Embedded Swift.
        .target(name: "AnchorFirmware", dependencies: ["WireFormat"], linkerSettings: [.linkedLibrary("m", .when(platforms: [.linux]))]),
        // The firmware test image's harness: the framed test vectors (configuration, security
        // material, receptions), the radio that replays them, and the runner that plans and runs
        // the steps and reports them. Standard library only: the same sources are linked into
        // the Cortex-M33 image (scripts/firmware-build) and into firmware-vectors on Linux.
        .target(name: "FirmwareHarness", dependencies: ["ReflectorFirmware", "WireFormat"]),
        // The Linux side of scripts/firmware-test: runs a vector through FirmwareHarness exactly
        // as the image does, and generates the committed vector set.
        .executableTarget(name: "firmware-vectors", dependencies: ["FirmwareHarness", "ReflectorFirmware"]),
        // HCI transports and captures: H4 framing, btsnoop files. They carry ReflectorFirmware's
        // HCIPacket, the one HCI packet model (the firmware parses and builds it too).
        .target(name: "HCITransport", dependencies: ["WireFormat", "ReflectorFirmware"]),
        // libserialport (Debian's libserialport-dev) for real serial ports.
        .systemLibrary(name: "CSerialPort", pkgConfig: "libserialport", providers: [.apt(["libserialport-dev"])]),
        // posix_openpt and termios for pseudo-terminals (libserialport cannot open a pty).
        .target(name: "CPty"),
        // P-256 (key generation, public-key validation, ECDH), AES-128 and AES-CMAC and the CSPRNG
        // over OpenSSL 3's libcrypto (Debian's libssl-dev), for the host's LE Secure Connections
        // toolbox (BLEHost/SMP/Crypto). Host side only: the firmware modules never link it.
        .target(name: "CCrypto", linkerSettings: [.linkedLibrary("crypto")]),
        // MCUboot serial recovery (SMP over the console framing) and image checks: pure protocol,
        // no I/O; it flashes over any ByteLink.
        .target(name: "MCUboot", dependencies: ["WireFormat"]),
        // Serial ports and ptys, with timeouts on every read: carrying H4 for HCI, and as
        // MCUboot's ByteLink (SerialByteLink) for flashing.
        .target(name: "SerialTransport", dependencies: ["CSerialPort", "CPty", "HCITransport", "ReflectorFirmware", "MCUboot"]),
        // A bootloader that speaks MCUboot serial recovery on SerialTransport's pty, for the flash tests.
        .executableTarget(name: "mcuboot-test-bootloader", dependencies: ["MCUboot", "SerialTransport"]),
        // The emulator's mathematics: complex numbers, the one 3-D vector, small matrices and
        // solvers, the FFT, the seeded generators and the one quantile definition.
        .target(name: "EmulatorMath"),
        // The simulated air: channel models (free space, reflections, TGn), noise, LO phases,
        // crystal offsets, antennas and trajectories; a RadioPort for each controller.
        .target(name: "RadioWorld", dependencies: ["EmulatorMath", "ReflectorFirmware"]),
        // Distance from CS tones: phase slope, IFFT, ESPRIT, path combining, the Cramer-Rao bound.
        .target(name: "RangingEstimation", dependencies: ["EmulatorMath"]),
        // The host stack that the phone's and the accessory's hosts stand on: the general LE HCI
        // codecs (HCI/), the initiator's host (InitiatorHost), the controller probe and the host's
        // HCI commands, and the LE Secure Connections toolbox of SMP (SMP/Crypto: P-256 ECDH,
        // e, ah, c1, s1, AES-CMAC, f4, f5, f6, g2) on CCrypto.
        .target(name: "BLEHost", dependencies: ["EmulatorMath", "RangingEstimation", "ReflectorFirmware", "CCrypto"]),
        // The phone in process: the loopback of two controllers and two hosts over the air, and
        // the Core Bluetooth-like sessions (CentralManager, Peripheral) on top of it.
        .target(name: "PhoneEmulation", dependencies: ["BLEHost", "RadioWorld", "RangingEstimation", "ReflectorFirmware", "HCITransport", "EmulatorMath"]),
        // Nearby Interaction over Channel Sounding: the session API, direction fusion, the
        // world (phone and accessory motion, camera tracking) and its simulation.
        .target(name: "NearbyInteraction"),
        .target(name: "NearbyEmulation", dependencies: ["NearbyInteraction", "PhoneEmulation", "RadioWorld", "RangingEstimation", "EmulatorMath", "ReflectorFirmware"]),
        // UWB DL-TDoA on the phone: the session, the receiver (frames to rounds to measurements),
        // the position solver and tracker, and the simulated deployment of anchor firmware.
        .target(name: "DLTDoA", dependencies: ["NearbyInteraction", "AnchorFirmware", "RangingEstimation", "EmulatorMath"]),
        // The emulated controller served as a virtual dev board: generic HCI around the CS
        // controller, the emulated peer in the air, procedures on the wall clock.
        .target(name: "VirtualBoard", dependencies: ["BLEHost", "EmulatorMath", "RadioWorld", "ReflectorFirmware", "HCITransport"]),
        // What the test targets share: seeded draws, hex literals, temporary directories, and the
        // StreamDecoderVerifier that feeds incremental decoders their input in every split.
        .target(name: "TestSupport", dependencies: ["EmulatorMath"]),
        // SVG charts: line and scatter charts, stacked panels and heat maps, with 1-2-5 ticks,
        // escaping and locale-free numbers; EmulatorMath only for its one quantile definition.
        .target(name: "SVGCharts", dependencies: ["EmulatorMath"]),
        // The tool's logic, Foundation allowed: CLI/ (the Command protocol, option tables that drive
        // parsing and help, ToolError, the one JSON writer, output, progress bars), Files/ (the
        // JSON parser and the readers of configuration files), Capture/ (btsnoop capture analysis
        // and procedure estimation), Commands/<command>/ (each command's options, run, report, plot).
        .target(name: "ReflectorTools", dependencies: ["ReflectorFirmware", "HCITransport", "SerialTransport", "MCUboot",
                                                      "EmulatorMath", "RadioWorld", "RangingEstimation", "BLEHost",
                                                      "PhoneEmulation", "NearbyEmulation", "DLTDoA", "VirtualBoard", "SVGCharts"]),
        // The command-line tool: main.swift is the table of commands; the rest is ReflectorTools.
        .executableTarget(name: "reflector-emu", dependencies: ["ReflectorTools"]),
        // Benchmarks (`swift run -c release bench ...`): planning, loopback, accuracy, DL-TDoA,
        // framing, serving, and the tool's plan JSON writing (hence ReflectorTools).
        .executableTarget(name: "bench", dependencies: ["ReflectorFirmware", "AnchorFirmware", "HCITransport", "SerialTransport",
                                                        "EmulatorMath", "RadioWorld", "RangingEstimation", "PhoneEmulation", "DLTDoA",
                                                        "ReflectorTools", "VirtualBoard"]),
        // Fuzzing (scripts/fuzz): a libFuzzer target for every decoder of outside bytes. Built
        // with -sanitize=fuzzer,address -DFUZZING, reflector-fuzz runs libFuzzer (its entry point
        // declared by CFuzzing); built normally, it replays the committed corpus, as
        // FuzzTargetsTests do. Every call into ReflectorTools goes through FuzzTargets/ToolsAdapter.swift.
        .target(name: "CFuzzing"),
        .target(name: "FuzzTargets", dependencies: ["ReflectorFirmware", "AnchorFirmware", "FirmwareHarness", "HCITransport", "MCUboot", "EmulatorMath",
                                                    "RadioWorld", "BLEHost", "PhoneEmulation", "DLTDoA", "ReflectorTools", "VirtualBoard"]),
        .executableTarget(name: "reflector-fuzz", dependencies: ["FuzzTargets", "CFuzzing"]),
        .testTarget(name: "WireFormatTests", dependencies: ["WireFormat"]),
        .testTarget(name: "ReflectorFirmwareTests", dependencies: ["ReflectorFirmware", "EmulatorMath", "TestSupport"]),
        .testTarget(name: "AnchorFirmwareTests", dependencies: ["AnchorFirmware"]),
        .testTarget(name: "FirmwareHarnessTests", dependencies: ["FirmwareHarness", "ReflectorFirmware"]),
        .testTarget(name: "EmulatorMathTests", dependencies: ["EmulatorMath"]),
        .testTarget(name: "RadioWorldTests", dependencies: ["RadioWorld", "EmulatorMath", "ReflectorFirmware"]),
        .testTarget(name: "RangingEstimationTests", dependencies: ["RangingEstimation", "EmulatorMath", "TestSupport"]),
        .testTarget(name: "PhoneEmulationTests", dependencies: ["PhoneEmulation", "BLEHost", "EmulatorMath", "RadioWorld", "RangingEstimation", "ReflectorFirmware"]),
        .testTarget(name: "NearbyEmulationTests", dependencies: ["NearbyEmulation", "EmulatorMath", "PhoneEmulation", "RadioWorld"]),
        .testTarget(name: "DLTDoATests", dependencies: ["DLTDoA", "AnchorFirmware", "EmulatorMath", "NearbyInteraction"]),
        .testTarget(name: "VirtualBoardTests", dependencies: ["VirtualBoard", "BLEHost", "HCITransport", "PhoneEmulation", "RadioWorld", "RangingEstimation", "ReflectorFirmware"]),
        .testTarget(name: "ReflectorToolsTests", dependencies: ["ReflectorTools", "SVGCharts", "VirtualBoard", "TestSupport"]),
        .testTarget(name: "SVGChartsTests", dependencies: ["SVGCharts", "TestSupport"]),
        .testTarget(name: "HCITransportTests", dependencies: ["HCITransport", "ReflectorFirmware", "WireFormat", "EmulatorMath", "TestSupport"]),
        .testTarget(name: "SerialTransportTests", dependencies: ["SerialTransport", "HCITransport", "ReflectorFirmware", "TestSupport"]),
        .testTarget(name: "MCUbootTests", dependencies: ["MCUboot", "SerialTransport", "EmulatorMath", "TestSupport"]),
        .testTarget(name: "TestSupportTests", dependencies: ["TestSupport", "EmulatorMath"]),
        .testTarget(name: "FuzzTargetsTests", dependencies: ["FuzzTargets"]),
        .testTarget(name: "BLEHostTests", dependencies: ["BLEHost", "ReflectorFirmware", "EmulatorMath", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
