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
        // HCI transports and captures: H4 framing, btsnoop files (and, later, serial ports).
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
        // The phone and the world: host driver, estimation, iOS-like sessions, the simulated air.
        .target(name: "HostEmulator", dependencies: ["ReflectorFirmware", "AnchorFirmware", "HCITransport"]),
        // Tool support: configuration files, reports. Foundation is allowed here.
        .target(name: "ReflectorTools", dependencies: ["ReflectorFirmware", "HostEmulator", "HCITransport", "SerialTransport", "MCUboot"]),
        .executableTarget(name: "reflector-emu", dependencies: ["ReflectorTools"]),
        .executableTarget(name: "bench", dependencies: ["ReflectorFirmware", "AnchorFirmware", "HostEmulator", "HCITransport", "SerialTransport"]),
        .testTarget(name: "ReflectorFirmwareTests", dependencies: ["ReflectorFirmware"]),
        .testTarget(name: "AnchorFirmwareTests", dependencies: ["AnchorFirmware"]),
        .testTarget(name: "ReflectorToolsTests", dependencies: ["ReflectorTools"]),
        .testTarget(name: "HostEmulatorTests", dependencies: ["HostEmulator"]),
        .testTarget(name: "HCITransportTests", dependencies: ["HCITransport"]),
        .testTarget(name: "SerialTransportTests", dependencies: ["SerialTransport"]),
        .testTarget(name: "MCUbootTests", dependencies: ["MCUboot"]),
    ],
    swiftLanguageModes: [.v6]
)
