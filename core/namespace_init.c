/* The first process of a confined bot's PID namespace (`--sandbox namespaces`): it reaps every
 * process of the namespace and ends with the bot's program, process 2, passing on its end (its
 * exit code, or 128 + N when signal N killed it, as bwrap does). When it ends, the kernel ends
 * every other process of the namespace. The program is not process 1 itself because the kernel
 * shields process 1 from default-action signals (a SIGTERM or its own abort() would be ignored).
 *
 * Freestanding: no C library, a few system calls, so that starting it (from a memfd the arbiter
 * fills with this binary, core/namespace_sandbox.cpp) costs about 0.1 ms. It has no stdio, no
 * arguments and no environment. */
#include <sys/syscall.h>

static long call3(long number, long a, long b, long c) {
    long result;
#if defined(__x86_64__)
    __asm__ volatile("syscall" : "=a"(result) : "a"(number), "D"(a), "S"(b), "d"(c) : "rcx", "r11", "memory");
#elif defined(__aarch64__)
    register long x8 __asm__("x8") = number;
    register long x0 __asm__("x0") = a;
    register long x1 __asm__("x1") = b;
    register long x2 __asm__("x2") = c;
    __asm__ volatile("svc 0" : "+r"(x0) : "r"(x8), "r"(x1), "r"(x2) : "memory");
    result = x0;
#else
#error "namespace_init: no system call sequence for this architecture"
#endif
    return result;
}

static long call4(long number, long a, long b, long c, long d) {
    long result;
#if defined(__x86_64__)
    register long r10 __asm__("r10") = d;
    __asm__ volatile("syscall" : "=a"(result) : "a"(number), "D"(a), "S"(b), "d"(c), "r"(r10) : "rcx", "r11", "memory");
#elif defined(__aarch64__)
    register long x8 __asm__("x8") = number;
    register long x0 __asm__("x0") = a;
    register long x1 __asm__("x1") = b;
    register long x2 __asm__("x2") = c;
    register long x3 __asm__("x3") = d;
    __asm__ volatile("svc 0" : "+r"(x0) : "r"(x8), "r"(x1), "r"(x2), "r"(x3) : "memory");
    result = x0;
#endif
    return result;
}

enum { kProgram = 2, kInterrupted = -4, kNoChild = -10 };

#if defined(__x86_64__)
__attribute__((force_align_arg_pointer))
#endif
__attribute__((noreturn)) void _start(void) {
    for (;;) {
        int status = 0;
        const long pid = call4(SYS_wait4, -1, (long)&status, 0, 0);
        if (pid == kProgram) {
            const int signal = status & 0x7f;
            call3(SYS_exit_group, signal != 0 ? 128 + signal : (status >> 8) & 0xff, 0, 0);
        }
        if (pid == kNoChild) call3(SYS_exit_group, 127, 0, 0);
        (void)kInterrupted; /* interrupted (a stop and continue): wait again */
    }
}
