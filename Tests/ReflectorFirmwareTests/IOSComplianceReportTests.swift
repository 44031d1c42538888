import Testing
@testable import ReflectorFirmware

/// The iOS 27 accessory check (WWDC26 session 369).
struct IOSComplianceReportTests {
    static let v63 = IOSComplianceReport.bluetoothVersion63

    @Test func projectReflectorIsCompliant() {
        for n in 1...4 {
            let r = IOSComplianceReport(capabilities: .projectReflector(antennas: n), bluetoothVersion: Self.v63)
            #expect(r.isCompliant)
            #expect(r.unmet.isEmpty)
            #expect(r.supportsTFCS100 && r.supportsTFCS120)
            #expect(!r.tFCSMetOnlyByMandatory150)
            let strict = IOSComplianceReport(capabilities: .projectReflector(antennas: n), bluetoothVersion: Self.v63, tFCSPolicy: .optionalBitRequired)
            #expect(strict.isCompliant)
        }
    }

    @Test func olderBluetoothVersionFails() {
        let r = IOSComplianceReport(capabilities: .projectReflector(), bluetoothVersion: 0x10)
        #expect(r.unmet == [.bluetooth63])
    }

    @Test func missingInlinePCTFails() {
        var c = CSCapabilities.projectReflector()
        c.subfeatures.remove(.inlinePCTReflector)
        #expect(IOSComplianceReport(capabilities: c, bluetoothVersion: Self.v63).unmet == [.inlinePCT])
    }

    @Test func missingReflectorRoleFails() {
        var c = CSCapabilities.projectReflector()
        c.roles = [.initiator]
        #expect(IOSComplianceReport(capabilities: c, bluetoothVersion: Self.v63).unmet == [.reflectorRole])
    }

    @Test func tFCSOnlyMandatory150() {
        var c = CSCapabilities.projectReflector()
        c.tFCSTimes.remove(100)
        c.tFCSTimes.remove(120)
        // Default reading: the mandatory 150 µs is "at least 100 µs".
        let r = IOSComplianceReport(capabilities: c, bluetoothVersion: Self.v63)
        #expect(r.isCompliant)
        #expect(r.tFCSMetOnlyByMandatory150)
        #expect(!r.supportsTFCS100 && !r.supportsTFCS120)
        // Strict reading: the 100 or 120 µs bit is required.
        let strict = IOSComplianceReport(capabilities: c, bluetoothVersion: Self.v63, tFCSPolicy: .optionalBitRequired)
        #expect(strict.unmet == [.tFCSAtLeast100us])
        // 120 alone satisfies the strict reading.
        c.tFCSTimes.insert(120)
        #expect(IOSComplianceReport(capabilities: c, bluetoothVersion: Self.v63, tFCSPolicy: .optionalBitRequired).isCompliant)
    }

    @Test func modes0And2CannotBeMissing() {
        // Modes 0 and 2 are mandatory; the block has no bit to deny them, so even a minimal
        // controller never fails this requirement.
        let r = IOSComplianceReport(capabilities: CSCapabilities(), bluetoothVersion: 0x0E)
        #expect(!r.unmet.contains(.phaseBasedRangingModes))
        #expect(r.unmet == [.bluetooth63, .reflectorRole, .inlinePCT])
    }

    @Test func summariesArePrintable() {
        for req in IOSRequirement.allCases { #expect(req.summary.utf8CodeUnitCount > 0) }
    }
}
