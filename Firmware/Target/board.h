// What the firmware image's C side offers the Swift side and the startup code: the CMSDK
// UARTs, the instruction counter, the stack and heap high-water marks, and the exit.
#ifndef FW_BOARD_H
#define FW_BOARD_H
#include <stdint.h>
#include <stddef.h>

void fw_paint_stack(void);
uint32_t fw_stack_high_water(void);
uint32_t fw_stack_size(void);
void fw_counter_start(void);
uint32_t fw_counter_now(void);
int32_t fw_uart_read(void);
void fw_uart_write(uint8_t byte);
void fw_report_write(uint8_t byte);
size_t fw_heap_peak_in_use(void);
size_t fw_heap_extent(void);
size_t fw_heap_size(void);
void fw_report_fault(void);
__attribute__((noreturn)) void fw_exit(int status);
#endif
