// The reset path of the firmware image on a Cortex-M33: the vector table, copying .data from
// flash, zeroing .bss, painting the stack (so its high-water mark can be read later), turning
// the FPU on (the image is built for the hard-float ABI), then main. Faults end the run through
// semihosting with a non-zero status, so a test never hangs on a trapped image.
#include <stdint.h>
#include "board.h"

extern uint32_t __data_start, __data_end, __data_load, __bss_start, __bss_end;
extern uint32_t __stack_bottom, __stack_top;
extern int main(int argc, char **argv);

void fw_reset(void);
static void fw_fault(void);

// Armv8-M: initial SP, reset, then NMI, HardFault, MemManage, BusFault, UsageFault, SecureFault.
__attribute__((section(".vectors"), used))
const void *const fw_vectors[16] = {
    &__stack_top, (const void *)fw_reset,
    (const void *)fw_fault, (const void *)fw_fault, (const void *)fw_fault,
    (const void *)fw_fault, (const void *)fw_fault, (const void *)fw_fault,
};

__attribute__((noreturn, naked)) void fw_reset(void) {
    // Set SP explicitly (QEMU's -kernel path loads it from the table too) and continue in C.
    __asm__ volatile("ldr r0, =__stack_top\n msr msp, r0\n b fw_start\n");
}

__attribute__((noreturn, used)) void fw_start(void) {
    uint32_t *src = &__data_load;
    for (uint32_t *dst = &__data_start; dst < &__data_end;) *dst++ = *src++;
    for (uint32_t *dst = &__bss_start; dst < &__bss_end;) *dst++ = 0;
    fw_paint_stack();
    // CPACR: full access to CP10 and CP11 (the FPU).
    *(volatile uint32_t *)0xE000ED88 |= 0xFu << 20;
    __asm__ volatile("dsb\n isb\n");
    fw_counter_start();
    int status = main(0, 0);
    fw_exit(status);
}

static void fw_fault(void) {
    fw_report_fault();
    fw_exit(99);
}
