// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "reflector-emu",
    products: [
        .library(name: "ReflectorFirmware", targets: ["ReflectorFirmware"]),
        .executable(name: "reflector-emu", targets: ["reflector-emu"]),
    ],
    targets: [
        // The accessory firmware: standard library only, builds for Cortex-M with Embedded Swift.
        // Float.squareRoot() lowers to sqrtf, which lives in libm on Linux (newlib on a board).
        .target(name: "ReflectorFirmware", linkerSettings: [.linkedLibrary("m", .when(platforms: [.linux]))]),
        // Tool support: configuration files, reports. Foundation is allowed here.
        .target(name: "ReflectorTools", dependencies: ["ReflectorFirmware"]),
        .executableTarget(name: "reflector-emu", dependencies: ["ReflectorTools"]),
        .executableTarget(name: "bench", dependencies: ["ReflectorFirmware"]),
        .testTarget(name: "ReflectorFirmwareTests", dependencies: ["ReflectorFirmware"]),
        .testTarget(name: "ReflectorToolsTests", dependencies: ["ReflectorTools"]),
    ],
    swiftLanguageModes: [.v6]
)
