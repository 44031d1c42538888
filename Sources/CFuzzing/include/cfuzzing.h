#ifndef CFUZZING_H
#define CFUZZING_H
#include <stddef.h>
#include <stdint.h>

/// libFuzzer's entry point for programs that have their own main (LLVM's libFuzzer.rst,
/// "Using libFuzzer as a library"): it parses libFuzzer's flags from argv and runs the fuzzing
/// loop, calling `callback` once per input. Defined only when linked with -sanitize=fuzzer:
/// `reflector-fuzz` calls it in builds with -DFUZZING and never otherwise.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
