/// The measurement report on UART1, one `key value` line each, for scripts/firmware-test to
/// read: the instruction counter's calibration, each measured piece of work in instructions
/// (mean and largest), and the heap's and the stack's high-water marks. Text without `print`,
/// whose string interpolation would bring formatting code the image otherwise does without.
struct Report {
    /// Instructions per timer tick, measured at boot on a loop of known length.
    var instructionsPerTick: UInt32 = 0

    static func text(_ s: StaticString) {
        s.withUTF8Buffer { for b in $0 { fw_report_write(b) } }
    }

    static func number(_ value: UInt64) {
        var digits = InlineArray<20, UInt8>(repeating: 0)
        var n = value
        var count = 0
        repeat {
            digits[count] = UInt8(truncatingIfNeeded: n % 10) + 48
            n /= 10
            count += 1
        } while n > 0
        while count > 0 {
            count -= 1
            fw_report_write(digits[count])
        }
    }

    static func line(_ key: StaticString, _ value: UInt64) {
        text(key)
        fw_report_write(32)
        number(value)
        fw_report_write(10)
    }

    /// A loop of exactly 2 instructions per iteration (subs, bne) run 20000 times: 40000
    /// instructions, so the ticks it takes give the instructions per tick.
    mutating func calibrate() {
        let t0 = fw_counter_now()
        fw_calibration_loop(20_000)
        let ticks = fw_counter_now() &- t0
        instructionsPerTick = ticks == 0 ? 0 : (40_000 + ticks / 2) / ticks
        Report.line("calibration_ticks_for_40000_instructions", UInt64(ticks))
        Report.line("instructions_per_tick", UInt64(instructionsPerTick))
    }

    /// One AES-128 block of the software `AES128` (the DRBG's unit of work), averaged over 64:
    /// what a board's AES peripheral would take over through `BlockCipher`.
    func aes() {
        // Key and block from the counter, so the compiler cannot fold the blocks at build time.
        let seed = UInt64(fw_counter_now())
        let aes = AES128(key: Block128(high: 0x2B7E_1516_28AE_D2A6 ^ seed, low: 0xABF7_1588_09CF_4F3C))
        var block = Block128(high: 0x3243_F6A8_885A_308D, low: 0x3131_98A2_E037_0734 ^ seed)
        let t0 = fw_counter_now()
        for _ in 0..<64 { block = aes.encrypt(block) }
        let ticks = fw_counter_now() &- t0
        Report.line("aes128_block_instructions", UInt64(ticks) * UInt64(instructionsPerTick) / 64)
        Report.line("aes128_check", block.high & 0xFFFF)  // uses the result, so the loop stays
    }

    func tally(_ key: StaticString, _ t: WorkTally) {
        Report.text(key)
        Report.text(" count ")
        Report.number(UInt64(t.count))
        Report.text(" mean_instructions ")
        Report.number(UInt64(t.mean) * UInt64(instructionsPerTick))
        Report.text(" max_instructions ")
        Report.number(UInt64(t.largest) * UInt64(instructionsPerTick))
        fw_report_write(10)
    }

    func stats(_ s: WorkStats) {
        tally("procedure_begin", s.procedureBegin)
        tally("first_step_plan", s.firstStepPlan)
        tally("first_main_step_plan", s.firstMainStepPlan)
        tally("plan_mode0", s.plan[0])
        tally("plan_mode1", s.plan[1])
        tally("plan_mode2", s.plan[2])
        tally("plan_mode3", s.plan[3])
        tally("run_mode0", s.run[0])
        tally("run_mode1", s.run[1])
        tally("run_mode2", s.run[2])
        tally("run_mode3", s.run[3])
        tally("pack_mode0", s.pack[0])
        tally("pack_mode1", s.pack[1])
        tally("pack_mode2", s.pack[2])
        tally("pack_mode3", s.pack[3])
    }

    func memory() {
        Report.line("heap_peak_in_use_bytes", UInt64(fw_heap_peak_in_use()))
        Report.line("heap_high_water_bytes", UInt64(fw_heap_extent()))
        Report.line("heap_pool_bytes", UInt64(fw_heap_size()))
        Report.line("stack_high_water_bytes", UInt64(fw_stack_high_water()))
        Report.line("stack_size_bytes", UInt64(fw_stack_size()))
    }
}
