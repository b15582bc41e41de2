/* weft.h: the kernel interface of weft's GPU core model (docs/core.md §1).
 *
 * One kernel is one freestanding C11 file:
 *   - device memory is the file's global variables;
 *   - void weft_setup(void)  (optional) runs once, on one thread, before the launch;
 *   - void weft_kernel(void) runs on every thread; returning ends the thread;
 *   - WEFT_LAUNCH(threads, cta) gives the default launch size;
 *   - WEFT_SHARED before a global variable puts it in CTA-shared memory (CUDA's
 *     __shared__): each CTA has its own copy, visible to its threads, synchronised by
 *     weft_barrier().
 *
 * Device variant (clang --target=riscv32, RV32IMF, ilp32f): the thread's coordinates are
 * custom read-only user CSRs and the CTA barrier is a write to a custom user CSR:
 *   0xCC0 weft_tid()       global thread index 0..N-1
 *   0xCC1 weft_ntid()      N, the threads of the launch
 *   0xCC2 weft_ctaid()     the thread's CTA (tid / cta size)
 *   0xCC3 weft_cta_size()  threads per CTA
 *   csrw 0x8C0, zero       weft_barrier(): waits for every live thread of the CTA
 * The launch size is the 8-byte symbol `weft_launch` (threads, cta) in section
 * `.weft_launch`, so a prebuilt ELF keeps it. WEFT_SHARED variables go to section
 * `.weft_shared`: the model gives each CTA a copy of that section's bytes (as the ELF
 * has them: zero without an initialiser) when it starts and drops it when the CTA ends;
 * an access in that range goes to the thread's CTA's copy, one straddling its edge is
 * refused, and so is a --dump of a shared variable.
 *
 * Host variant (any other target): the same file compiles natively and runs its threads
 * one after another (CTA by CTA, so WEFT_SHARED is empty: one copy, each CTA's in turn), the functional oracle of every kernel that does not call
 * weft_barrier (which aborts there). Its main() runs weft_setup, then weft_kernel for
 * every thread, then writes the program's data and bss (from __data_start to _end) to
 * the file named by its first argument; `--threads N --cta C` override the launch.
 * `--setup-only` runs weft_setup alone before writing: the native references of a
 * kernel with barriers, whose serial references (`expected_*`) weft_setup computes.
 */
#ifndef WEFT_H
#define WEFT_H

#include <stdint.h>
#include <stddef.h>

void weft_kernel(void);

#if defined(__riscv)

#define WEFT_CSR_READ(csr)                                   \
    ({                                                       \
        uint32_t weft_v_;                                    \
        __asm__ volatile("csrr %0, " #csr : "=r"(weft_v_));  \
        weft_v_;                                             \
    })

static inline uint32_t weft_tid(void) { return WEFT_CSR_READ(0xCC0); }
static inline uint32_t weft_ntid(void) { return WEFT_CSR_READ(0xCC1); }
static inline uint32_t weft_ctaid(void) { return WEFT_CSR_READ(0xCC2); }
static inline uint32_t weft_cta_size(void) { return WEFT_CSR_READ(0xCC3); }
static inline void weft_barrier(void) { __asm__ volatile("csrw 0x8C0, zero" ::: "memory"); }

#define WEFT_SHARED __attribute__((section(".weft_shared")))

#define WEFT_LAUNCH(threads, cta)                                                   \
    __attribute__((used, section(".weft_launch"))) const uint32_t weft_launch[2] = { \
        (threads), (cta)}

/* clang may call these for struct copies and array initialisers; -nostdlib has none. */
__attribute__((used)) void *memcpy(void *dst, const void *src, size_t n) {
    unsigned char *d = (unsigned char *)dst;
    const unsigned char *s = (const unsigned char *)src;
    while (n--) *d++ = *s++;
    return dst;
}
__attribute__((used)) void *memset(void *dst, int c, size_t n) {
    unsigned char *d = (unsigned char *)dst;
    while (n--) *d++ = (unsigned char)c;
    return dst;
}

#else /* host variant */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint32_t weft_host_tid, weft_host_ntid, weft_host_cta;

static inline uint32_t weft_tid(void) { return weft_host_tid; }
static inline uint32_t weft_ntid(void) { return weft_host_ntid; }
static inline uint32_t weft_ctaid(void) { return weft_host_tid / weft_host_cta; }
static inline uint32_t weft_cta_size(void) { return weft_host_cta; }
static inline void weft_barrier(void) {
    fprintf(stderr, "weft host run: weft_barrier needs concurrent threads; the native run "
                    "is the oracle of barrier-free kernels only\n");
    exit(3);
}

#define WEFT_LAUNCH(threads, cta) const uint32_t weft_launch[2] = {(threads), (cta)}

#define WEFT_SHARED

extern const uint32_t weft_launch[2] __attribute__((weak));
void weft_setup(void) __attribute__((weak));
extern char __data_start[], _end[];

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: %s IMAGE_FILE [--threads N --cta C] [--setup-only]\n", argv[0]);
        return 2;
    }
    uint32_t threads = weft_launch ? weft_launch[0] : 0, cta = weft_launch ? weft_launch[1] : 0;
    int setup_only = 0;
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--setup-only") == 0) setup_only = 1;
        else if (i + 1 < argc && strcmp(argv[i], "--threads") == 0)
            threads = (uint32_t)strtoul(argv[++i], 0, 0);
        else if (i + 1 < argc && strcmp(argv[i], "--cta") == 0)
            cta = (uint32_t)strtoul(argv[++i], 0, 0);
        else {
            fprintf(stderr, "unknown or incomplete argument `%s`; usage: %s IMAGE_FILE "
                            "[--threads N --cta C] [--setup-only]\n", argv[i], argv[0]);
            return 2;
        }
    }
    if (threads == 0 || cta == 0 || threads % cta != 0) {
        fprintf(stderr, "launch %u threads in CTAs of %u: give WEFT_LAUNCH or --threads/--cta "
                        "(a whole number of CTAs)\n", threads, cta);
        return 2;
    }
    weft_host_ntid = threads;
    weft_host_cta = cta;
    if (weft_setup) weft_setup();
    if (!setup_only)
        for (weft_host_tid = 0; weft_host_tid < threads; weft_host_tid++) weft_kernel();
    FILE *f = fopen(argv[1], "wb");
    if (!f || fwrite(__data_start, 1, (size_t)(_end - __data_start), f) != (size_t)(_end - __data_start)) {
        fprintf(stderr, "cannot write %s\n", argv[1]);
        return 1;
    }
    fclose(f);
    return 0;
}

#endif
#endif
