import Testing
@testable import ReflectorFirmware

/// The permutation tables of Core 6.0 Vol 6 Part H Tables 4.13–4.15 (as Zephyr's cs.c carries them).
struct AntennaPermutationTests {
    @Test func tablesSpotChecks() {
        #expect(AntennaPermutation.order(antennaPaths: 1, index: 0) == [0])
        #expect(AntennaPermutation.order(antennaPaths: 2, index: 1) == [1, 0])
        #expect(AntennaPermutation.order(antennaPaths: 3, index: 3) == [2, 0, 1])   // A3 A1 A2
        #expect(AntennaPermutation.order(antennaPaths: 3, index: 5) == [1, 2, 0])   // A2 A3 A1
        #expect(AntennaPermutation.order(antennaPaths: 4, index: 0) == [0, 1, 2, 3])
        #expect(AntennaPermutation.order(antennaPaths: 4, index: 9) == [3, 0, 1, 2])   // A4 A1 A2 A3
        #expect(AntennaPermutation.order(antennaPaths: 4, index: 13) == [3, 0, 2, 1])  // A4 A1 A3 A2
        #expect(AntennaPermutation.order(antennaPaths: 4, index: 18) == [3, 1, 2, 0])  // A4 A2 A3 A1
        #expect(AntennaPermutation.order(antennaPaths: 4, index: 23) == [1, 2, 3, 0])  // A2 A3 A4 A1
    }

    /// Every row is a permutation, all rows differ, and the extension slot repeats the last path.
    @Test(arguments: 1...4)
    func everyRowIsADistinctPermutation(paths: Int) {
        let n = AntennaPermutation.count(antennaPaths: paths)
        var rows = Set<[Int]>()
        for i in 0..<n {
            let order = AntennaPermutation.order(antennaPaths: paths, index: i)
            #expect(order.sorted() == Array(0..<paths))
            #expect(AntennaPermutation.path(antennaPaths: paths, index: i, slot: paths) == order.last)
            rows.insert(order)
        }
        #expect(rows.count == n)
        #expect(AntennaPermutation.path(antennaPaths: paths, index: n, slot: 0) == nil)
        #expect(AntennaPermutation.path(antennaPaths: paths, index: 0, slot: paths + 1) == nil)
    }

    @Test func antennaConfigurationIndexTable() {
        let expected: [(Int, Int, Int)] = [(1, 1, 1), (2, 1, 2), (3, 1, 3), (4, 1, 4), (1, 2, 2), (1, 3, 3), (1, 4, 4), (2, 2, 4)]
        for (aci, e) in expected.enumerated() {
            let c = AntennaConfiguration(index: UInt8(aci))!
            #expect((c.initiatorAntennas, c.reflectorAntennas, c.antennaPaths) == e)
        }
        #expect(AntennaConfiguration(index: 8) == nil)
    }
}
