import FuzzTargets
import Testing

/// The committed fuzz corpus as a regression test: every seed and every input a campaign once
/// found a bug with goes through its target (whose checks trap on a finding), in a normal build.
struct CorpusReplayTests {
    @Test(arguments: FuzzTargets.all.map(\.name))
    func corpusReplays(target name: String) throws {
        let target = try #require(FuzzTargets.named(name))
        let inputs = Corpus.inputs(of: name)
        #expect(!inputs.isEmpty, "no committed corpus for \(name): run `swift run reflector-fuzz seeds Fuzz/corpus \(name)`")
        for input in inputs { target.run(input.bytes) }
    }

    @Test func everyTargetHasADistinctName() {
        let names = FuzzTargets.all.map(\.name)
        #expect(Set(names).count == names.count)
    }
}
