/* The first process of a confined bot's PID namespace: it reaps every process of the namespace
 * and ends with the bot's program, passing on its end (its exit code, or 128 + N when signal N
 * killed it, as bwrap does). When it ends, the kernel ends every other process of the namespace.
 * The program is not process 1 itself because the kernel shields process 1 from default-action
 * signals (a SIGTERM or its own abort() would be ignored). An exit code cannot tell a program
 * killed by signal N from one that exited with 128 + N, so it first writes the program's whole
 * wait status (an int) on descriptor 3, which the arbiter reads.
 *
 * Freestanding: no C library, a few system calls, so that starting it (from a memfd the arbiter
 * fills with this binary, core/confine/namespace_sandbox.cpp) costs about 0.1 ms. It has no stdio. */
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

enum { kFirstChild = 2, kStatusReport = 3, kInterrupted = -4, kNoChild = -10 };

/* Under bwrap (--as-pid-1) it is started as `init PROGRAM ARGS...` and starts the program
 * itself; under the arbiter's namespaces the program is already process 2 when it starts. */
static long start_program(char** argv, char** envp) {
    const long pid = call3(SYS_clone, 17 /* SIGCHLD: a plain fork */, 0, 0);
    if (pid == 0) {
        /* Nothing of the sandbox's reaches the program: not the status report, not this init's
         * own memfd, not the syscall filter bwrap was given. */
        call3(SYS_close_range, 3, ~0U, 0);
        call3(SYS_execve, (long)argv[0], (long)argv, (long)envp);
        call3(SYS_exit_group, 127, 0, 0);
    }
    return pid;
}

__attribute__((noreturn, used)) void init_main(long* stack) {
    /* Not dumpable: the bot's processes run as the same user, and could otherwise trace this
     * init (PTRACE_ATTACH, /proc/1/mem) and forge the wait status it reports. */
    call3(SYS_prctl, 4 /* PR_SET_DUMPABLE */, 0, 0);
    const long argc = stack[0];
    char** argv = (char**)(stack + 1);
    const long program = argc > 1 ? start_program(argv + 1, argv + argc + 1) : kFirstChild;
    if (program < 0) call3(SYS_exit_group, 127, 0, 0);
    for (;;) {
        int status = 0;
        const long pid = call4(SYS_wait4, -1, (long)&status, 0, 0);
        if (pid == program) {
            const int signal = status & 0x7f;
            call3(SYS_write, kStatusReport, (long)&status, sizeof status);
            call3(SYS_exit_group, signal != 0 ? 128 + signal : (status >> 8) & 0xff, 0, 0);
        }
        if (pid == kNoChild) call3(SYS_exit_group, 127, 0, 0);
        (void)kInterrupted; /* interrupted (a stop and continue): wait again */
    }
}

/* The entry point hands the initial stack (argc, argv, envp) to init_main. */
#if defined(__x86_64__)
__asm__(".globl _start\n_start:\n  xor %rbp, %rbp\n  mov %rsp, %rdi\n  and $-16, %rsp\n  call init_main\n");
#elif defined(__aarch64__)
__asm__(".globl _start\n_start:\n  mov x29, #0\n  mov x0, sp\n  bl init_main\n");
#endif
