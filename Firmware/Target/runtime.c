// The few C library and compiler-support functions an Embedded Swift image calls, written
// small rather than pulling in a libc: memory moves, the ARM EABI aliases of them, 64-bit
// variable shifts, putchar (print goes to the report UART) and arc4random_buf (hash seeding;
// this image has no entropy source, so the seed is fixed, which also keeps runs reproducible).
#include "board.h"

// Word at a time, aligned or not: the Cortex-M33 loads and stores unaligned words in hardware,
// and Swift's value copies (InlineArrays, configurations) are most of what calls these.
typedef uint32_t unaligned_u32 __attribute__((aligned(1)));

void *memset(void *d, int c, size_t n) {
    unsigned char *p = d;
    uint32_t w = (unsigned char)c * 0x01010101u;
    for (; n >= 4; n -= 4, p += 4) *(unaligned_u32 *)p = w;
    while (n--) *p++ = (unsigned char)c;
    return d;
}

void *memcpy(void *d, const void *s, size_t n) {
    unsigned char *p = d;
    const unsigned char *q = s;
    for (; n >= 16; n -= 16, p += 16, q += 16) {
        uint32_t a = *(const unaligned_u32 *)q, b = *(const unaligned_u32 *)(q + 4);
        uint32_t c = *(const unaligned_u32 *)(q + 8), e = *(const unaligned_u32 *)(q + 12);
        *(unaligned_u32 *)p = a; *(unaligned_u32 *)(p + 4) = b;
        *(unaligned_u32 *)(p + 8) = c; *(unaligned_u32 *)(p + 12) = e;
    }
    for (; n >= 4; n -= 4, p += 4, q += 4) *(unaligned_u32 *)p = *(const unaligned_u32 *)q;
    while (n--) *p++ = *q++;
    return d;
}

void *memmove(void *d, const void *s, size_t n) {
    unsigned char *p = d;
    const unsigned char *q = s;
    if (p == q || n == 0) return d;
    if (p < q || p >= q + n) return memcpy(d, s, n);
    while (n--) p[n] = q[n];
    return d;
}

int memcmp(const void *a, const void *b, size_t n) {
    const unsigned char *p = a, *q = b;
    for (; n; n--, p++, q++)
        if (*p != *q) return *p - *q;
    return 0;
}

size_t strlen(const char *s) {
    const char *p = s;
    while (*p) p++;
    return (size_t)(p - s);
}

// ARM EABI run-time helpers (note the argument order of memset/memclr).
void __aeabi_memcpy(void *d, const void *s, size_t n) { memcpy(d, s, n); }
void __aeabi_memcpy4(void *d, const void *s, size_t n) { memcpy(d, s, n); }
void __aeabi_memcpy8(void *d, const void *s, size_t n) { memcpy(d, s, n); }
void __aeabi_memmove(void *d, const void *s, size_t n) { memmove(d, s, n); }
void __aeabi_memmove4(void *d, const void *s, size_t n) { memmove(d, s, n); }
void __aeabi_memmove8(void *d, const void *s, size_t n) { memmove(d, s, n); }
void __aeabi_memset(void *d, size_t n, int c) { memset(d, c, n); }
void __aeabi_memset4(void *d, size_t n, int c) { memset(d, c, n); }
void __aeabi_memset8(void *d, size_t n, int c) { memset(d, c, n); }
void __aeabi_memclr(void *d, size_t n) { memset(d, 0, n); }
void __aeabi_memclr4(void *d, size_t n) { memset(d, 0, n); }
void __aeabi_memclr8(void *d, size_t n) { memset(d, 0, n); }

long long __aeabi_llsl(long long a, int b) { return b >= 64 ? 0 : (long long)((unsigned long long)a << b); }
long long __aeabi_llsr(long long a, int b) { return b >= 64 ? 0 : (long long)((unsigned long long)a >> b); }
long long __aeabi_lasr(long long a, int b) { return a >> (b >= 64 ? 63 : b); }

int putchar(int c) {
    fw_report_write((uint8_t)c);
    return c;
}

void arc4random_buf(void *buf, size_t n) {
    unsigned char *p = buf;
    uint32_t x = 0x9E3779B9u;
    while (n--) {
        x ^= x << 13; x ^= x >> 17; x ^= x << 5;
        *p++ = (unsigned char)x;
    }
}

// 64-bit division (the M33 divides 32-bit words in hardware only). The EABI helpers return the
// quotient in r0:r1 and the remainder in r2:r3, which C cannot express: thin assembly wrappers.
uint64_t fw_udivmod64(uint64_t n, uint64_t d, uint64_t *rem) {
    if (d == 0) { *rem = n; return ~0ull; }
    uint64_t q = 0, r = 0;
    for (int i = 63; i >= 0; i--) {
        r = (r << 1) | ((n >> i) & 1);
        if (r >= d) { r -= d; q |= 1ull << i; }
    }
    *rem = r;
    return q;
}

int64_t fw_sdivmod64(int64_t n, int64_t d, int64_t *rem) {
    uint64_t un = n < 0 ? -(uint64_t)n : (uint64_t)n, ud = d < 0 ? -(uint64_t)d : (uint64_t)d, ur;
    uint64_t q = fw_udivmod64(un, ud, &ur);
    *rem = n < 0 ? -(int64_t)ur : (int64_t)ur;
    return (n < 0) != (d < 0) ? -(int64_t)q : (int64_t)q;
}

__attribute__((naked)) void __aeabi_uldivmod(void) {
    __asm__ volatile("push {r4, lr}\n sub sp, sp, #16\n add r4, sp, #8\n str r4, [sp]\n"
                     "bl fw_udivmod64\n ldrd r2, r3, [sp, #8]\n add sp, sp, #16\n pop {r4, pc}\n");
}

__attribute__((naked)) void __aeabi_ldivmod(void) {
    __asm__ volatile("push {r4, lr}\n sub sp, sp, #16\n add r4, sp, #8\n str r4, [sp]\n"
                     "bl fw_sdivmod64\n ldrd r2, r3, [sp, #8]\n add sp, sp, #16\n pop {r4, pc}\n");
}
