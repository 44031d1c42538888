/// The emulated board's C side (Firmware/Target/board.c, heap.c), as the Swift image calls it.
@_extern(c, "fw_uart_read") func fw_uart_read() -> Int32
@_extern(c, "fw_uart_write") func fw_uart_write(_ byte: UInt8)
@_extern(c, "fw_report_write") func fw_report_write(_ byte: UInt8)
@_extern(c, "fw_counter_now") func fw_counter_now() -> UInt32
@_extern(c, "fw_stack_high_water") func fw_stack_high_water() -> UInt32
@_extern(c, "fw_stack_size") func fw_stack_size() -> UInt32
@_extern(c, "fw_heap_peak_in_use") func fw_heap_peak_in_use() -> Int
@_extern(c, "fw_heap_extent") func fw_heap_extent() -> Int
@_extern(c, "fw_heap_size") func fw_heap_size() -> Int
@_extern(c, "fw_calibration_loop") func fw_calibration_loop(_ iterations: UInt32)

/// UART0: the harness frames go out here.
struct ConsoleSink: FrameSink {
    mutating func write(_ byte: UInt8) { fw_uart_write(byte) }
}

/// The timer, in its ticks (`Report.instructionsPerTick` instructions each under -icount shift=0).
struct TimerMeter: WorkMeter {
    @inline(__always) mutating func now() -> UInt32 { fw_counter_now() }
}
