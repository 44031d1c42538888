// The emulated board's devices, as the firmware image uses them on QEMU's mps2-an505:
// CMSDK APB UART0 (the console: test-vector frames in, results out) and UART1 (the
// measurement report), the CMSDK timer 0 as an instruction counter, the painted stack, and
// semihosting's exit. Secure aliases throughout, since the image runs Secure.
#include "board.h"

// CMSDK APB UART: DATA, STATE (bit 0 TX full, bit 1 RX full), CTRL (bit 0 TX, bit 1 RX enable),
// BAUDDIV (QEMU ignores writes below 16). UART0/1 at 0x40200000/0x40201000, Secure alias +0x10000000.
typedef struct {
    volatile uint32_t data, state, ctrl, intstatus, bauddiv;
} cmsdk_uart;
#define UART0 ((cmsdk_uart *)0x50200000u)
#define UART1 ((cmsdk_uart *)0x50201000u)

static void uart_enable(cmsdk_uart *u) {
    if (u->ctrl != 3) {
        u->bauddiv = 16;
        u->ctrl = 3;
    }
}

int32_t fw_uart_read(void) {
    uart_enable(UART0);
    while (!(UART0->state & 2)) {}
    return (int32_t)(UART0->data & 0xFF);
}

static void uart_put(cmsdk_uart *u, uint8_t byte) {
    uart_enable(u);
    while (u->state & 1) {}
    u->data = byte;
}

void fw_uart_write(uint8_t byte) { uart_put(UART0, byte); }
void fw_report_write(uint8_t byte) { uart_put(UART1, byte); }

// The IoTKit's CMSDK APB TIMER0 (Secure alias 0x50000000), clocked by the 20 MHz main clock,
// free running down from 0xFFFFFFFF; read as an up count (32 bits: the SysTick's 24 would wrap
// every 0.84 s of emulated time, and QEMU models no DWT cycle counter). Under
// `-icount shift=0` QEMU's virtual clock advances 1 ns per instruction, so a tick is a fixed
// number of instructions (50 at 20 MHz; the image calibrates it at boot and reports it).
typedef struct {
    volatile uint32_t ctrl, value, reload, intstatus;
} cmsdk_timer;
#define TIMER0 ((cmsdk_timer *)0x50000000u)

void fw_counter_start(void) {
    TIMER0->ctrl = 0;
    TIMER0->reload = 0xFFFFFFFFu;
    TIMER0->value = 0xFFFFFFFFu;
    TIMER0->ctrl = 1;  // enable, processor clock, no interrupt
}

uint32_t fw_counter_now(void) { return ~TIMER0->value; }

// The stack is painted from its bottom to just below the running frame at reset; the lowest
// word no longer holding the paint is the deepest the stack has gone.
extern uint32_t __stack_bottom, __stack_top;
#define PAINT 0xC5C5C5C5u

void fw_paint_stack(void) {
    uint32_t *sp;
    __asm__ volatile("mov %0, sp" : "=r"(sp));
    for (uint32_t *p = &__stack_bottom; p < sp - 16; p++) *p = PAINT;
}

uint32_t fw_stack_high_water(void) {
    uint32_t *p = &__stack_bottom;
    while (p < &__stack_top && *p == PAINT) p++;
    return (uint32_t)((char *)&__stack_top - (char *)p);
}

uint32_t fw_stack_size(void) { return (uint32_t)((char *)&__stack_top - (char *)&__stack_bottom); }

static void report_text(const char *s) {
    while (*s) fw_report_write((uint8_t)*s++);
}

void fw_report_fault(void) { report_text("FAULT: the image trapped (HardFault/UsageFault)\n"); }

// Semihosting SYS_EXIT_EXTENDED (0x20): reason ADP_Stopped_ApplicationExit, then the status.
__attribute__((noreturn)) void fw_exit(int status) {
    uint32_t block[2] = {0x20026u, (uint32_t)status};
    register uint32_t r0 __asm__("r0") = 0x20;
    register uint32_t *r1 __asm__("r1") = block;
    __asm__ volatile("bkpt 0xab" : : "r"(r0), "r"(r1) : "memory");
    for (;;) {}
}

// Exactly two instructions per iteration (subs, bne): the image's counter calibration.
__attribute__((naked)) void fw_calibration_loop(uint32_t iterations) {
    __asm__ volatile("1: subs r0, r0, #1\n bne 1b\n bx lr\n");
}

// UART2 (Secure alias 0x50202000): the HCI image's H4 link.
#define UART2 ((cmsdk_uart *)0x50202000u)

int32_t fw_hci_read(void) {
    uart_enable(UART2);
    while (!(UART2->state & 2)) {}
    return (int32_t)(UART2->data & 0xFF);
}

void fw_hci_write(uint8_t byte) { uart_put(UART2, byte); }
