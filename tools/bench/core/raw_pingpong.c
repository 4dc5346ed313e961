/* The baseline of the overhead benchmark: a raw pipe ping-pong with raw_echo, no arbiter.
   Usage: raw_pingpong RAW_ECHO_PATH ROUNDS [epoll]
   Prints the median and mean round trip in microseconds. With `epoll` the reply is awaited as
   an event loop does (non-blocking pipe, epoll_wait with a timeout, then read): the floor of
   any loop that keeps deadlines, against which the arbiter's own code is measured. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/epoll.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../raw_timing.h"

int main(int argc, char** argv) {
    const int with_epoll = argc == 4 && strcmp(argv[3], "epoll") == 0;
    if (argc != 3 && !with_epoll) {
        fprintf(stderr, "usage: raw_pingpong RAW_ECHO_PATH ROUNDS [epoll]\n");
        return 2;
    }
    int rounds = atoi(argv[2]);
    int to_bot[2], from_bot[2];
    if (pipe(to_bot) != 0 || pipe(from_bot) != 0) return 1;
    pid_t pid = fork();
    if (pid == 0) {
        dup2(to_bot[0], 0);
        dup2(from_bot[1], 1);
        close(to_bot[0]); close(to_bot[1]); close(from_bot[0]); close(from_bot[1]);
        execl(argv[1], argv[1], (char*)NULL);
        _exit(127);
    }
    close(to_bot[0]);
    close(from_bot[1]);
    int loop = -1;
    if (with_epoll) {
        struct epoll_event watch = {.events = EPOLLIN | EPOLLET, .data = {.fd = from_bot[0]}};
        loop = epoll_create1(EPOLL_CLOEXEC);
        if (loop < 0 || fcntl(from_bot[0], F_SETFL, O_NONBLOCK) != 0 ||
            epoll_ctl(loop, EPOLL_CTL_ADD, from_bot[0], &watch) != 0) return 1;
    }
    double* samples = malloc(sizeof(double) * (size_t)rounds);
    const char request[] = "ping 12345\n";
    char buffer[256];
    for (int i = 0; i < rounds; ++i) {
        double start = now_us();
        if (write(to_bot[1], request, sizeof request - 1) != (ssize_t)(sizeof request - 1)) return 1;
        size_t got = 0;
        while (got == 0 || buffer[got - 1] != '\n') {
            if (with_epoll) {
                struct epoll_event ready;
                if (epoll_wait(loop, &ready, 1, 5000) != 1) return 1;
            }
            ssize_t n = read(from_bot[0], buffer + got, sizeof buffer - got);
            if (n < 0 && with_epoll && errno == EAGAIN) continue;
            if (n <= 0) return 1;
            got += (size_t)n;
        }
        samples[i] = now_us() - start;
    }
    close(to_bot[1]);
    waitpid(pid, NULL, 0);
    double sum = 0;
    for (int i = 0; i < rounds; ++i) sum += samples[i];
    printf("%s rounds=%d median_us=%.2f mean_us=%.2f\n", with_epoll ? "raw_epoll_pingpong" : "raw_pingpong", rounds, median(samples, rounds), sum / rounds);
    free(samples);
    return 0;
}
