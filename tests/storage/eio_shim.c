// Test-only LD_PRELOAD library: writes to one file start failing with EIO, as a dying disk's
// would. EIO_SHIM_SUFFIX names the file by the end of its path (e.g. "t.sqlite-wal"); after
// EIO_SHIM_AFTER successful writes to it, every further write, pwrite or pwrite64 returns -1
// with errno EIO. Chosen over SQLite's VFS hooks: the real binary and the real SQLite run
// unchanged, and the error reaches them exactly as the kernel gives it.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

static long writes_seen;

static int failing(int fd) {
    const char* suffix = getenv("EIO_SHIM_SUFFIX");
    if (!suffix || !*suffix) return 0;
    char link[64], path[4096];
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    const ssize_t n = readlink(link, path, sizeof path - 1);
    if (n <= 0) return 0;
    path[n] = 0;
    const size_t len = strlen(suffix);
    if ((size_t)n < len || strcmp(path + n - len, suffix) != 0) return 0;
    const char* after = getenv("EIO_SHIM_AFTER");
    return __atomic_add_fetch(&writes_seen, 1, __ATOMIC_SEQ_CST) > (after ? atol(after) : 0);
}

ssize_t write(int fd, const void* buf, size_t count) {
    static ssize_t (*real)(int, const void*, size_t);
    if (!real) real = (ssize_t(*)(int, const void*, size_t))dlsym(RTLD_NEXT, "write");
    if (failing(fd)) { errno = EIO; return -1; }
    return real(fd, buf, count);
}

ssize_t pwrite(int fd, const void* buf, size_t count, off_t offset) {
    static ssize_t (*real)(int, const void*, size_t, off_t);
    if (!real) real = (ssize_t(*)(int, const void*, size_t, off_t))dlsym(RTLD_NEXT, "pwrite");
    if (failing(fd)) { errno = EIO; return -1; }
    return real(fd, buf, count, offset);
}

ssize_t pwrite64(int fd, const void* buf, size_t count, off64_t offset) {
    static ssize_t (*real)(int, const void*, size_t, off64_t);
    if (!real) real = (ssize_t(*)(int, const void*, size_t, off64_t))dlsym(RTLD_NEXT, "pwrite64");
    if (failing(fd)) { errno = EIO; return -1; }
    return real(fd, buf, count, offset);
}
