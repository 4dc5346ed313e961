/* The floor under bench_smartdog_seat: the same smart-dog-sized turn (the 8-line state, the
   2-line reply up to "end") between two plain processes, no arbiter, over a pipe pair and over
   a loopback TCP connection with TCP_NODELAY on both ends, in alternating blocks of one run.
   The difference between the two is what the kernel charges for TCP on this machine.
   Usage: bench_raw_channels TURNS RUNS */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../raw_timing.h"

enum { kBlock = 250 };

/* The peer: reads the state, answers "do 1 bark\nend\n" after each "turn" line. */
static void peer(int in, int out) {
    static const char reply[] = "do 1 bark\nend\n";
    char buffer[4096];
    size_t kept = 0;
    for (;;) {
        ssize_t n = read(in, buffer + kept, sizeof buffer - kept);
        if (n <= 0) _exit(0);
        kept += (size_t)n;
        char* line = buffer;
        char* end;
        while ((end = memchr(line, '\n', kept - (size_t)(line - buffer))) != NULL) {
            if (end - line == 4 && memcmp(line, "turn", 4) == 0 && write(out, reply, sizeof reply - 1) < 0) _exit(1);
            line = end + 1;
        }
        kept -= (size_t)(line - buffer);
        memmove(buffer, line, kept);
    }
}

struct channel {
    int to, from;
    pid_t pid;
};

static struct channel start_pipe(void) {
    int to[2], from[2];
    if (pipe(to) != 0 || pipe(from) != 0) exit(1);
    struct channel c = {to[1], from[0], fork()};
    if (c.pid == 0) {
        close(to[1]);
        close(from[0]);
        peer(to[0], from[1]);
    }
    close(to[0]);
    close(from[1]);
    return c;
}

static struct channel start_tcp(void) {
    const int one = 1;
    int listener = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in at = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t size = sizeof at;
    if (bind(listener, (struct sockaddr*)&at, sizeof at) != 0 || listen(listener, 1) != 0 ||
        getsockname(listener, (struct sockaddr*)&at, &size) != 0)
        exit(1);
    struct channel c = {-1, -1, fork()};
    if (c.pid == 0) {
        close(listener);
        int fd = socket(AF_INET, SOCK_STREAM, 0);
        if (connect(fd, (struct sockaddr*)&at, sizeof at) != 0) _exit(1);
        setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        peer(fd, fd);
    }
    int fd = accept(listener, NULL, NULL);
    close(listener);
    if (fd < 0) exit(1);
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    c.to = c.from = fd;
    return c;
}

static void stop(struct channel c) {
    close(c.to);
    if (c.from != c.to) close(c.from);
    kill(c.pid, SIGTERM);  /* the other channel's peer holds this one's pipe ends too */
    waitpid(c.pid, NULL, 0);
}

/* One turn: the state out, the reply in up to "end\n". */
static double turn(struct channel c, const char* state, size_t length) {
    char buffer[256];
    size_t got = 0;
    double start = now_us();
    if (write(c.to, state, length) != (ssize_t)length) exit(1);
    while (got < 4 || memcmp(buffer + got - 4, "end\n", 4) != 0) {
        ssize_t n = read(c.from, buffer + got, sizeof buffer - got);
        if (n <= 0) exit(1);
        got += (size_t)n;
    }
    return now_us() - start;
}

int main(int argc, char** argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: bench_raw_channels TURNS RUNS\n");
        return 2;
    }
    const int turns = atoi(argv[1]), runs = atoi(argv[2]);
    if (turns < 1 || runs < 1) return 2;
    signal(SIGPIPE, SIG_IGN);
    char state[1024] = "state  \"turn\":1\n";
    for (int i = 0; i < 6; ++i)
        strcat(state, "obj  \"type\":\"Sheep\",\"x\":12,\"y\":7,\"action\":\"standBy\",\"direction\":\"down\"\n");
    strcat(state, "turn\n");
    const size_t length = strlen(state);
    double* pipe_all = malloc(sizeof(double) * (size_t)turns * (size_t)runs);
    double* tcp_all = malloc(sizeof(double) * (size_t)turns * (size_t)runs);
    double* pipe_run = malloc(sizeof(double) * (size_t)turns);
    double* tcp_run = malloc(sizeof(double) * (size_t)turns);
    int total = 0;
    for (int r = 1; r <= runs; ++r) {
        struct channel p = start_pipe(), t = start_tcp();
        for (int i = 0; i < 200; ++i) turn(p, state, length), turn(t, state, length); /* warm up */
        for (int done = 0; done < turns; done += kBlock) {
            const int block = turns - done < kBlock ? turns - done : kBlock;
            for (int i = 0; i < block; ++i) pipe_run[done + i] = turn(p, state, length);
            for (int i = 0; i < block; ++i) tcp_run[done + i] = turn(t, state, length);
        }
        stop(p);
        stop(t);
        memcpy(pipe_all + total, pipe_run, sizeof(double) * (size_t)turns);
        memcpy(tcp_all + total, tcp_run, sizeof(double) * (size_t)turns);
        total += turns;
        const double pm = median(pipe_run, turns), tm = median(tcp_run, turns);
        printf("raw run %d: per turn (median of %d turns): pipe %.2f us, tcp %.2f us, tcp/pipe %.2fx\n", r, turns, pm, tm,
               tm / pm);
    }
    const double pm = median(pipe_all, total), tm = median(tcp_all, total);
    printf("raw all runs: per turn (median of %d turns each): pipe %.2f us, tcp %.2f us, tcp/pipe %.2fx\n", total, pm, tm,
           tm / pm);
    return 0;
}
