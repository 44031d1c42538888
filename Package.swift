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
        .target(name: "ReflectorFirmware"),
        .executableTarget(name: "reflector-emu", dependencies: ["ReflectorFirmware"]),
        .executableTarget(name: "bench", dependencies: ["ReflectorFirmware"]),
        .testTarget(name: "ReflectorFirmwareTests", dependencies: ["ReflectorFirmware"]),
    ],
    swiftLanguageModes: [.v6]
)
