import Foundation
import ReflectorTools

/// reflector-emu: the command-line face of the toolkit. Each subcommand parses its arguments,
/// reads its files, and hands the work to the libraries.
let usage = """
    usage: reflector-emu <command> [options]

    commands:
      loopback   range this project's reflector firmware from an emulated iPhone over a
                 simulated radio channel; print distances against truth and the CRLB
      nearby     Nearby Interaction emulation: distance and direction updates while the user
                 moves the phone, camera fusion, motion hints, background and radio load
      plan       print the step plan both devices derive from a configuration
                 (channels, modes, antenna permutations, access addresses, timing)
      estimate   estimate the distance of every CS procedure in a btsnoop capture of
                 HCI traffic (recorded by this tool or by a real host)
      serve      serve the emulated controller as a virtual dev board on a pty or serial port
      check      ask the controller on a serial port whether an iPhone will range with it
      ports      list serial ports with USB IDs and the board profile each matches
      flash      upload a firmware image to a board's MCUboot bootloader over serial
      tdoa       simulate UWB DL-TDoA anchors and an iPhone-like receiver: fixes against
                 truth and the CRLB; 'tdoa plan' maps the expected error over a floor

    Run 'reflector-emu <command> --help' for a command's options.
    """

nonisolated func fail(_ message: String, status: Int32 = 2) -> Never {
    FileHandle.standardError.write(Data("reflector-emu: \(message)\n".utf8))
    exit(status)
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard let command = arguments.first else {
    print(usage)
    exit(2)
}

do {
    let rest = Array(arguments.dropFirst())
    switch command {
    case "loopback":
        try LoopbackCommand.run(rest, emit: { print($0) })
    case "nearby":
        try NearbyCommand.run(rest, emit: { print($0) })
    case "plan":
        print(try PlanCommand.run(rest), terminator: "")
    case "serve":
        try ServeCommand.run(rest, emit: { FileHandle.standardOutput.write(Data(($0 + "\n").utf8)) })
    case "check":
        let result = try CheckCommand.run(rest)
        print(result.output, terminator: "")
        if let error = result.error { fail(error) }
        exit(result.status)
    case "estimate":
        let result = try EstimateCommand.run(rest)
        print(result.output, terminator: "")
        if let error = result.error { fail(error.description) }
    case "ports":
        print(try PortsCommand.run(rest), terminator: "")
    case "tdoa":
        try TDoACommand.run(rest, emit: { print($0) })
    case "flash":
        let outcome = try FlashCommand.run(rest, emit: { print($0) })
        if let failure = outcome.failure { fail(failure, status: 1) }
    case "-h", "--help", "help":
        print(usage)
    default:
        fail("unknown command '\(command)'; commands: loopback, nearby, plan, estimate, serve, check, ports, flash, tdoa (see --help)")
    }
} catch {
    fail(error.description)
}
