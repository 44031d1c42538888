import Testing
@testable import ReflectorFirmware

/// Timing selection: smallest common value of (local ∪ mandatory) ∩ (remote ∪ mandatory),
/// T_IP2 from the reflector's IPT list under IPT, and T_SW per ACI.
struct TimingSelectionTests {
    static var local: CSCapabilities {
        var c = CSCapabilities(roles: [.reflector])
        c.tIP1Times = TimeSet(.tIP1, microseconds: [30, 60])!
        c.tIP2Times = TimeSet(.tIP2, microseconds: [10, 20])!
        c.tIP2IPTTimes = TimeSet(.tIP2, microseconds: [40, 50])!
        c.tFCSTimes = TimeSet(.tFCS, microseconds: [100, 120])!
        c.tPMTimes = .mandatory(.tPM)
        c.tSW = .us4
        c.tSWIPT = .us10
        return c
    }
    static var remote: CSCapabilities {
        var c = CSCapabilities(roles: [.initiator])
        c.tIP1Times = TimeSet(.tIP1, microseconds: [20, 60, 80])!
        c.tIP2Times = TimeSet(.tIP2, microseconds: [20, 40])!
        c.tFCSTimes = TimeSet(.tFCS, microseconds: [15, 120])!
        c.tPMTimes = TimeSet(.tPM, microseconds: [10, 20])!
        c.tSW = .us2
        return c
    }

    @Test func smallestCommonValues() {
        let t = CSTiming.selected(local: Self.local, remote: Self.remote, localRole: .reflector, inlinePCT: false)
        #expect(t == CSTiming(tIP1: 60, tIP2: 20, tFCS: 120, tPM: 40, tSW: 0))
    }

    @Test func disjointSetsFallBackToMandatory() {
        let t = CSTiming.selected(local: CSCapabilities(), remote: .projectReflector(), localRole: .initiator, inlinePCT: false)
        #expect(t == CSTiming())
    }

    @Test func inlinePCTTakesTIP2FromReflectorIPTList() {
        // Initiator (remote) T_IP2 {20, 40}; reflector (local) IPT list {40, 50} → 40,
        // although the ordinary lists share 20.
        let t = CSTiming.selected(local: Self.local, remote: Self.remote, localRole: .reflector, inlinePCT: true)
        #expect(t.tIP2 == 40)
        // Same pair seen from the initiator's side.
        let u = CSTiming.selected(local: Self.remote, remote: Self.local, localRole: .initiator, inlinePCT: true)
        #expect(u.tIP2 == 40)
        #expect(t == u)
    }

    @Test func switchTimePerACI() {
        let i = Self.remote, r = Self.local  // initiator T_SW 2, reflector T_SW 4 / T_SW_IPT 10
        func sw(_ aci: UInt8, _ ipt: Bool) -> UInt16 {
            CSTiming.antennaSwitchTime(antennaConfiguration: AntennaConfiguration(index: aci)!, initiator: i, reflector: r, inlinePCT: ipt)
        }
        #expect(sw(0, false) == 0)
        for aci: UInt8 in 1...3 { #expect(sw(aci, false) == 2); #expect(sw(aci, true) == 2) }
        for aci: UInt8 in 4...6 { #expect(sw(aci, false) == 4); #expect(sw(aci, true) == 10) }
        #expect(sw(7, false) == 4)
        #expect(sw(7, true) == 10)
        #expect(sw(0, true) == 0)
    }

    @Test func selectedWithACISetsSwitchTime() {
        let t = CSTiming.selected(
            local: Self.local, remote: Self.remote, localRole: .reflector, inlinePCT: false,
            antennaConfiguration: AntennaConfiguration(index: 7)!
        )
        #expect(t.tSW == 4)
    }
}
