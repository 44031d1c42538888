import Foundation
import ReflectorTools

/// reflector-emu: the command-line face of the toolkit, a table of commands. Each command
/// declares its options, help and run (`ReflectorTools.Command`); parsing, help texts, error
/// messages and exit statuses come from there.
let tool = CommandLineTool(name: "reflector-emu", commands: [
    LoopbackCommand.self,
    NearbyCommand.self,
    PlanCommand.self,
    EstimateCommand.self,
    SweepCommand.self,
    ServeCommand.self,
    RangeCommand.self,
    AccessoryCommand.self,
    CheckCommand.self,
    PortsCommand.self,
    FlashCommand.self,
    TDoACommand.self,
])
exit(tool.main(Array(CommandLine.arguments.dropFirst())))
