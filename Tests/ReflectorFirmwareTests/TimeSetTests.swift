import Testing
@testable import ReflectorFirmware

/// Time capability bitmaps and LL indices (T_IP1/T_IP2 10…80 + 145, T_FCS 15…120 + 150,
/// T_PM 10, 20 + 40) and T_SW values.
struct TimeSetTests {
    @Test func tablesAndIndices() {
        let ip: [UInt16] = [10, 20, 30, 40, 50, 60, 80, 145]
        let fcs: [UInt16] = [15, 20, 30, 40, 50, 60, 80, 100, 120, 150]
        let pm: [UInt16] = [10, 20, 40]
        for (kind, table) in [(TimeKind.tIP1, ip), (.tIP2, ip), (.tFCS, fcs), (.tPM, pm)] {
            #expect(kind.valueCount == table.count)
            #expect(kind.mandatoryMicroseconds == table.last)
            for (i, us) in table.enumerated() {
                #expect(kind.microseconds(atIndex: i) == us)
                #expect(kind.index(ofMicroseconds: us) == i)
            }
            #expect(kind.microseconds(atIndex: table.count) == nil)
            #expect(kind.microseconds(atIndex: -1) == nil)
            #expect(kind.index(ofMicroseconds: 11) == nil)
            #expect(TimeSet.all(kind).microseconds == table)
            #expect(TimeSet.mandatory(kind).microseconds == [table.last!])
        }
    }

    @Test func bitsMapToMicroseconds() {
        #expect(TimeSet(.tIP1, microseconds: [10, 80])!.bits == 0x0041)
        #expect(TimeSet(.tFCS, microseconds: [100, 120, 150])!.bits == 0x0180)
        #expect(TimeSet(.tPM, microseconds: [20])!.bits == 0x0002)
        #expect(TimeSet(.tIP2, bits: 0x007E).microseconds == [20, 30, 40, 50, 60, 80, 145])
        #expect(TimeSet.all(.tFCS).bits == 0x01FF)
        #expect(TimeSet(.tPM, microseconds: [15]) == nil)
        #expect(TimeSet(.tIP1, microseconds: [100]) == nil)
    }

    @Test func mandatoryAlwaysMemberAndNotRemovable() {
        var s = TimeSet.mandatory(.tFCS)
        #expect(s.contains(150))
        s.remove(150)
        #expect(s.contains(150))
        let inserted = s.insert(100)
        let insertedBad = s.insert(101)
        #expect(inserted)
        #expect(!insertedBad)
        #expect(s.contains(100))
        s.remove(100)
        #expect(!s.contains(100))
    }

    @Test func reservedBitsAreNotMembers() {
        let s = TimeSet(.tPM, bits: 0xFFFC)
        #expect(s.hasReservedBits)
        #expect(s.microseconds == [40])
    }

    @Test func smallestCommon() {
        let a = TimeSet(.tIP1, microseconds: [30, 60])!
        let b = TimeSet(.tIP1, microseconds: [20, 60, 80])!
        #expect(a.smallestCommon(with: b) == 60)
        #expect(a.smallestCommon(with: .mandatory(.tIP1)) == 145)
        #expect(TimeSet.all(.tFCS).smallestCommon(with: .all(.tFCS)) == 15)
    }

    @Test func antennaSwitchTimes() {
        #expect(AntennaSwitchTime.allCases.map(\.microseconds) == [0, 1, 2, 4, 10])
        #expect(AntennaSwitchTime(rawValue: 3) == nil)
    }
}

/// LL_CS_CONFIG_REQ time indices.
struct CSTimingLLIndicesTests {
    @Test func mandatoryTimesAreTheLastIndices() throws {
        let i = try #require(CSTiming().llTimeIndices)
        #expect(i.tIP1 == 7 && i.tIP2 == 7 && i.tFCS == 9 && i.tPM == 2)
    }

    @Test func nordicIPTExample() throws {
        // T_IP1 30, T_IP2 20, T_FCS 60, T_PM 10 → indices 2, 1, 5, 0.
        let t = CSTiming(tIP1: 30, tIP2: 20, tFCS: 60, tPM: 10)
        let i = try #require(t.llTimeIndices)
        #expect(i.tIP1 == 2 && i.tIP2 == 1 && i.tFCS == 5 && i.tPM == 0)
        #expect(try CSTiming(llIndices: 2, tIP2: 1, tFCS: 5, tPM: 0) == t)
    }

    @Test func everyIndexRoundTrips() throws {
        for a in UInt8(0)...7 {
            for f in UInt8(0)...9 {
                for p in UInt8(0)...2 {
                    let t = try CSTiming(llIndices: a, tIP2: 7 - a, tFCS: f, tPM: p)
                    let i = try #require(t.llTimeIndices)
                    #expect(i.tIP1 == a && i.tIP2 == 7 - a && i.tFCS == f && i.tPM == p)
                }
            }
        }
    }

    @Test func outOfTableIndicesAndTimes() {
        #expect(throws: DecodeError.invalidValue(field: "T_IP1", value: 8)) { try CSTiming(llIndices: 8, tIP2: 0, tFCS: 0, tPM: 0) }
        #expect(throws: DecodeError.invalidValue(field: "T_FCS", value: 10)) { try CSTiming(llIndices: 0, tIP2: 0, tFCS: 10, tPM: 0) }
        #expect(throws: DecodeError.invalidValue(field: "T_PM", value: 3)) { try CSTiming(llIndices: 0, tIP2: 0, tFCS: 0, tPM: 3) }
        #expect(CSTiming(tIP1: 11).llTimeIndices == nil)
    }
}
