/// The firmware test image: receives a test vector over UART0 in the harness's frames, runs
/// the planner and the step engine on it exactly as a reflector's controller does on a board
/// (`HarnessSession`, `VectorRunner`), sends the steps back over UART0, then writes the
/// measurements to UART1 and exits through semihosting.
@main
struct FirmwareTestImage {
    static func main() {
        var report = Report()
        report.calibrate()
        report.aes()
        var session = HarnessSession()
        var sink = ConsoleSink()
        var meter = TimerMeter()
        while !session.isDone {
            session.receive(UInt8(truncatingIfNeeded: fw_uart_read()), sink: &sink, meter: &meter)
        }
        report.stats(session.stats)
        report.memory()
        Report.text("end\n")
    }
}
