import HostEmulator

/// Turns a loopback run into the SVG the `--plot` option writes (filled in with the chart library).
enum LoopbackPlotting {
    static func svg(_ input: LoopbackCommand.PlotInput, rows: [LoopbackCommand.Row], estimatorName: String) -> String {
        ""
    }
}
