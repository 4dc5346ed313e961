/* The bot side of the overhead benchmark: echoes every byte it reads on stdin to stdout with
   plain read()/write(), no stdio buffering. Exits at end of input. */
#include <unistd.h>

int main(void) {
    char buffer[4096];
    for (;;) {
        ssize_t n = read(STDIN_FILENO, buffer, sizeof buffer);
        if (n <= 0) return 0;
        for (ssize_t done = 0; done < n;) {
            ssize_t w = write(STDOUT_FILENO, buffer + done, (size_t)(n - done));
            if (w <= 0) return 1;
            done += w;
        }
    }
}
