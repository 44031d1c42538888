// The allocator Embedded Swift's runtime calls (posix_memalign, free): first fit over an
// address-ordered free list with coalescing, carved from a fixed pool the linker script places
// after .bss. It records the most bytes in use at once and how far into the pool it ever
// reached (the RAM the heap really needs), which the measurement report prints.
#include "board.h"

extern char __heap_start, __heap_end;

typedef struct block {
    size_t size;          // bytes including this header, a multiple of 8
    struct block *next;   // next free block (free blocks only)
} block;

#define HEADER 8u
static block *free_list;
static char *brk_ptr;
static size_t in_use, peak_in_use;

static void heap_exhausted(void) {
    const char *s = "FAULT: heap exhausted\n";
    while (*s) fw_report_write((uint8_t)*s++);
    fw_exit(98);
}

int posix_memalign(void **out, size_t alignment, size_t size) {
    if (alignment > 8) {
        const char *s = "FAULT: allocation aligned above 8 bytes\n";
        while (*s) fw_report_write((uint8_t)*s++);
        fw_exit(97);
    }
    if (!brk_ptr) brk_ptr = &__heap_start;
    size_t need = (size + HEADER + 7u) & ~7u;
    if (need < sizeof(block)) need = sizeof(block);
    block **link = &free_list;
    for (block *b = free_list; b; link = &b->next, b = b->next) {
        if (b->size < need) continue;
        if (b->size - need >= 16) {  // split: the tail stays free
            block *rest = (block *)((char *)b + need);
            rest->size = b->size - need;
            rest->next = b->next;
            *link = rest;
            b->size = need;
        } else {
            *link = b->next;
        }
        in_use += b->size;
        if (in_use > peak_in_use) peak_in_use = in_use;
        *out = (char *)b + HEADER;
        return 0;
    }
    if ((size_t)(&__heap_end - brk_ptr) < need) heap_exhausted();
    block *b = (block *)brk_ptr;
    brk_ptr += need;
    b->size = need;
    in_use += need;
    if (in_use > peak_in_use) peak_in_use = in_use;
    *out = (char *)b + HEADER;
    return 0;
}

void free(void *ptr) {
    if (!ptr) return;
    block *b = (block *)((char *)ptr - HEADER);
    in_use -= b->size;
    block *prev = 0, *cur = free_list;
    while (cur && cur < b) { prev = cur; cur = cur->next; }
    b->next = cur;
    if (prev) prev->next = b; else free_list = b;
    if (cur && (char *)b + b->size == (char *)cur) { b->size += cur->size; b->next = cur->next; }
    if (prev && (char *)prev + prev->size == (char *)b) { prev->size += b->size; prev->next = b->next; }
}

size_t fw_heap_peak_in_use(void) { return peak_in_use; }
size_t fw_heap_extent(void) { return brk_ptr ? (size_t)(brk_ptr - &__heap_start) : 0; }
size_t fw_heap_size(void) { return (size_t)(&__heap_end - &__heap_start); }
