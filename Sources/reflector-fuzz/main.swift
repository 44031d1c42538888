// reflector-fuzz: the fuzz targets of FuzzTargets behind one executable.
//
// Built with `-sanitize=fuzzer,address -DFUZZING` (scripts/fuzz does it), `reflector-fuzz TARGET
// [libFuzzer flags] [corpus folders]` runs libFuzzer on TARGET. Built normally it is a replayer:
// the same targets run over corpus files, as CI and the FuzzTargetsTests do.
import Foundation
import FuzzTargets
#if FUZZING
import CFuzzing
#endif

let usage = """
    usage: reflector-fuzz --list
           reflector-fuzz replay TARGET [FILE|FOLDER...]       (default: Fuzz/corpus and Fuzz/regressions)
           reflector-fuzz replay all [FOLDER...]               (each FOLDER holds one folder per target)
           reflector-fuzz seeds FOLDER [TARGET...]             writes the generated seeds to FOLDER/<target>/
           reflector-fuzz TARGET [libFuzzer flags] [FOLDER...] (a build with -DFUZZING only)

    """

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(2)
}

func targets(_ name: String) -> [FuzzTarget] {
    if name == "all" { return FuzzTargets.all }
    guard let t = FuzzTargets.named(name) else { fail("reflector-fuzz: no target '\(name)'; see reflector-fuzz --list") }
    return [t]
}

let args = Array(CommandLine.arguments.dropFirst())
switch args.first {
case "--list"?:
    for t in FuzzTargets.all { print("\(t.name)\t\(t.summary)") }
case "replay"?:
    guard args.count >= 2 else { fail(usage) }
    for target in targets(args[1]) {
        // For all targets a folder holds one folder per target; for one, files and folders are its inputs.
        let paths = args.dropFirst(2).map { args[1] == "all" ? URL(fileURLWithPath: $0).appendingPathComponent(target.name) : URL(fileURLWithPath: $0) }
        let inputs = paths.isEmpty ? Corpus.inputs(of: target.name) : paths.flatMap { Corpus.files(in: $0) }
        for input in inputs { target.run(input.bytes) }
        print("\(target.name): \(inputs.count) inputs replayed")
    }
case "seeds"?:
    guard args.count >= 2 else { fail(usage) }
    let folder = URL(fileURLWithPath: args[1])
    for target in args.count > 2 ? args.dropFirst(2).flatMap(targets) : FuzzTargets.all {
        do {
            print("\(target.name): \(try Corpus.writeSeeds(of: target, to: folder)) seeds")
        } catch {
            fail("reflector-fuzz: cannot write the seeds of \(target.name): \(error)")
        }
    }
case let name? where !name.hasPrefix("-"):
    #if FUZZING
    Fuzzing.run(targets(name)[0])
    #else
    fail("reflector-fuzz: this build replays only (build with -sanitize=fuzzer,address -DFUZZING to fuzz; see scripts/fuzz)")
    #endif
default:
    print(usage, terminator: "")
    exit(args.isEmpty ? 0 : 2)
}

#if FUZZING
/// Runs libFuzzer on one target: argv without the target's name goes to libFuzzer's flag parser.
enum Fuzzing {
    nonisolated(unsafe) static var current: FuzzTarget?

    static func run(_ target: FuzzTarget) -> Never {
        current = target
        var arguments = [CommandLine.arguments[0]] + CommandLine.arguments.dropFirst(2)
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        var argc = CInt(arguments.count)
        let status = argv.withUnsafeMutableBufferPointer { buffer -> CInt in
            var pointer: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = buffer.baseAddress
            return LLVMFuzzerRunDriver(&argc, &pointer) { data, size in
                let bytes = size == 0 ? [] : Array(UnsafeBufferPointer(start: data, count: size))
                Fuzzing.current!.run(bytes)
                return 0
            }
        }
        arguments.removeAll()
        exit(status)
    }
}
#endif
