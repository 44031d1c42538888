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
        // The byte layer every codec stands on.
        .target(name: "WireFormat"),
        // The accessory firmware (standard library only); Float.squareRoot() needs libm's sqrtf on Linux.
        .target(name: "ReflectorFirmware", dependencies: ["WireFormat"], linkerSettings: [.linkedLibrary("m", .when(platforms: [.linux]))]),
        // The UWB DL-TDoA anchor (standard library only).
        .target(name: "AnchorFirmware", dependencies: ["WireFormat"], linkerSettings: [.linkedLibrary("m", .when(platforms: [.linux]))]),
        // The firmware test image's harness.
        .target(name: "FirmwareHarness", dependencies: ["ReflectorFirmware", "WireFormat"]),
        // The Linux side of scripts/firmware-test.
        .executableTarget(name: "firmware-vectors", dependencies: ["FirmwareHarness", "ReflectorFirmware"]),
        // HCI transports and captures.
        .target(name: "HCITransport", dependencies: ["WireFormat", "ReflectorFirmware"]),
        // libserialport (Debian's libserialport-dev) for real serial ports.
        .systemLibrary(name: "CSerialPort", pkgConfig: "libserialport", providers: [.apt(["libserialport-dev"])]),
        // posix_openpt and termios for pseudo-terminals (libserialport cannot open a pty).
        .target(name: "CPty"),
        // P-256, AES-128, AES-CMAC and the CSPRNG from OpenSSL 3's libcrypto, for the host's SMP only (never the firmware).
        .target(name: "CCrypto", linkerSettings: [.linkedLibrary("crypto")]),
        // MCUboot serial recovery (SMP over the console framing) and image checks.
        .target(name: "MCUboot", dependencies: ["WireFormat"]),
        // Serial ports and ptys, with timeouts on every read.
        .target(name: "SerialTransport", dependencies: ["CSerialPort", "CPty", "HCITransport", "ReflectorFirmware", "MCUboot"]),
        // A bootloader that speaks MCUboot serial recovery on SerialTransport's pty, for the flash tests.
        .executableTarget(name: "mcuboot-test-bootloader", dependencies: ["MCUboot", "SerialTransport"]),
        // The emulator's mathematics.
        .target(name: "EmulatorMath"),
        // The simulated air.
        .target(name: "RadioWorld", dependencies: ["EmulatorMath", "RangingEstimation", "ReflectorFirmware"]),
        // Distance from CS tones.
        .target(name: "RangingEstimation", dependencies: ["EmulatorMath"]),
        // The host stack that the phone's and the accessory's hosts stand on.
        .target(name: "BLEHost", dependencies: ["ReflectorFirmware", "CCrypto"]),
        // The phone in process.
        .target(name: "PhoneEmulation", dependencies: ["BLEHost", "RadioWorld", "RangingEstimation", "ReflectorFirmware", "HCITransport", "EmulatorMath"]),
        // What every Nearby Interaction session shares (NearbyError).
        .target(name: "NearbyInteraction"),
        // Nearby Interaction over Channel Sounding.
        .target(name: "NearbyEmulation", dependencies: ["NearbyInteraction", "PhoneEmulation", "RadioWorld", "RangingEstimation", "EmulatorMath", "ReflectorFirmware"]),
        // UWB DL-TDoA on the phone.
        .target(name: "DLTDoA", dependencies: ["NearbyInteraction", "AnchorFirmware", "RangingEstimation", "EmulatorMath"]),
        // The emulated controller served as a virtual dev board.
        .target(name: "VirtualBoard", dependencies: ["BLEHost", "EmulatorMath", "RadioWorld", "ReflectorFirmware", "HCITransport"]),
        // What the test targets share.
        .target(name: "TestSupport", dependencies: ["EmulatorMath", "WireFormat"]),
        // SVG charts.
        .target(name: "SVGCharts", dependencies: ["EmulatorMath"]),
        // The live view: its HTTP server and event stream (POSIX sockets, poll()), and its page (page.html, page.css, page.js).
        .target(name: "LiveView", resources: [.copy("Page/page.html"), .copy("Page/page.css"), .copy("Page/page.js")]),
        // The tool's JSON (the linear parser with exact integers, the key-level reader, the streaming writer) and ToolError.
        .target(name: "ToolJSON"),
        // The configuration files the tool reads: board profiles, bonds, security material, plan configurations, scenarios, deployments.
        .target(name: "ToolFiles", dependencies: ["ToolJSON", "RangingEstimation", "ReflectorFirmware", "BLEHost", "DLTDoA", "EmulatorMath", "SerialTransport"]),
        // Captures and vendors' step-data logs, read by content, into CS procedures.
        .target(name: "Captures", dependencies: ["ToolJSON", "HCITransport", "BLEHost", "ReflectorFirmware", "MCUboot", "WireFormat"]),
        // A distance per captured procedure, with the estimator chosen by name.
        .target(name: "CaptureEstimation", dependencies: ["Captures", "ToolJSON", "RangingEstimation", "PhoneEmulation", "BLEHost", "ReflectorFirmware"]),
        // The tool's logic, Foundation allowed.
        .target(name: "ReflectorTools", dependencies: ["ReflectorFirmware", "HCITransport", "SerialTransport", "MCUboot",
                                                      "EmulatorMath", "RadioWorld", "RangingEstimation", "BLEHost",
                                                      "PhoneEmulation", "NearbyEmulation", "DLTDoA", "VirtualBoard", "SVGCharts", "LiveView",
                                                      "ToolJSON", "ToolFiles", "Captures", "CaptureEstimation"]),
        // The command-line tool.
        .executableTarget(name: "reflector-emu", dependencies: ["ReflectorTools"]),
        // Benchmarks (`swift run -c release bench ...`).
        .executableTarget(name: "bench", dependencies: ["ReflectorFirmware", "AnchorFirmware", "HCITransport", "SerialTransport",
                                                        "EmulatorMath", "RadioWorld", "RangingEstimation", "PhoneEmulation", "DLTDoA",
                                                        "ReflectorTools", "VirtualBoard", "ToolJSON", "ToolFiles"]),
        // Fuzzing (scripts/fuzz): with -sanitize=fuzzer reflector-fuzz runs libFuzzer, built normally it replays the corpus.
        .target(name: "CFuzzing"),
        .target(name: "FuzzTargets", dependencies: ["ReflectorFirmware", "AnchorFirmware", "FirmwareHarness", "HCITransport", "MCUboot", "EmulatorMath",
                                                    "RadioWorld", "BLEHost", "PhoneEmulation", "DLTDoA", "ReflectorTools", "VirtualBoard", "LiveView",
                                                    "ToolJSON", "ToolFiles", "Captures", "CaptureEstimation"]),
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
        .testTarget(name: "DLTDoATests", dependencies: ["DLTDoA", "AnchorFirmware", "EmulatorMath", "NearbyInteraction", "TestSupport"]),
        .testTarget(name: "VirtualBoardTests", dependencies: ["VirtualBoard", "BLEHost", "HCITransport", "PhoneEmulation", "RadioWorld", "RangingEstimation", "ReflectorFirmware"]),
        .testTarget(name: "ReflectorToolsTests", dependencies: ["ReflectorTools", "ToolJSON", "ToolFiles", "Captures", "CaptureEstimation", "SVGCharts", "VirtualBoard", "PhoneEmulation", "TestSupport"], exclude: ["Golden"]),
        .testTarget(name: "SVGChartsTests", dependencies: ["SVGCharts", "TestSupport"], exclude: ["Golden"]),
        .testTarget(name: "HCITransportTests", dependencies: ["HCITransport", "ReflectorFirmware", "WireFormat", "EmulatorMath", "TestSupport"]),
        .testTarget(name: "SerialTransportTests", dependencies: ["SerialTransport", "HCITransport", "ReflectorFirmware", "TestSupport"]),
        .testTarget(name: "MCUbootTests", dependencies: ["MCUboot", "SerialTransport", "EmulatorMath", "TestSupport"]),
        .testTarget(name: "TestSupportTests", dependencies: ["TestSupport", "EmulatorMath"]),
        .testTarget(name: "FuzzTargetsTests", dependencies: ["FuzzTargets"]),
        .testTarget(name: "ToolJSONTests", dependencies: ["ToolJSON", "EmulatorMath", "TestSupport"]),
        .testTarget(name: "ToolFilesTests", dependencies: ["ToolFiles", "ToolJSON", "ReflectorFirmware", "BLEHost", "TestSupport"]),
        .testTarget(name: "CapturesTests", dependencies: ["Captures", "CaptureEstimation"]),
        .testTarget(name: "LiveViewTests", dependencies: ["LiveView", "TestSupport", "EmulatorMath"]),
        .testTarget(name: "BLEHostTests", dependencies: ["BLEHost", "ReflectorFirmware", "EmulatorMath", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
