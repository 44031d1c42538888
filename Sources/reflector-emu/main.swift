import Foundation
import ReflectorTools

/// reflector-emu: the command-line face of the toolkit. Each subcommand parses its arguments,
/// reads its files, and hands the work to the libraries.
let usage = """
    usage: reflector-emu <command> [options]

    commands:
      plan --config CONFIG.json --security SECURITY.json [--procedures N] [--json]
          Print the step plan both devices derive: per step the channel, mode, antenna
          permutation, tone extension, CS access addresses and timing.
      estimate CAPTURE.btsnoop [--reflector REFLECTOR.btsnoop] [--ipt|--no-ipt] [--estimator E] [--json]
          Estimate the distance of every CS procedure in a btsnoop capture of HCI traffic.

    Run 'reflector-emu <command> --help' for a command's options.
    """

var standardError = FileHandle.standardError

func fail(_ message: String, status: Int32 = 2) -> Never {
    FileHandle.standardError.write(Data("reflector-emu: \(message)\n".utf8))
    exit(status)
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard let command = arguments.first else {
    print(usage)
    exit(2)
}

do {
    switch command {
    case "plan":
        print(try PlanCommand.run(Array(arguments.dropFirst())), terminator: "")
    case "estimate":
        let result = try EstimateCommand.run(Array(arguments.dropFirst()))
        print(result.output, terminator: "")
        if let error = result.error { fail(error.description) }
    case "-h", "--help", "help":
        print(usage)
    default:
        fail("unknown command '\(command)'; commands: plan, estimate (see --help)")
    }
} catch {
    fail(error.description)
}
