/* What the hostile C programs share: argv[1] names the case's answer
 * file, which answer() copies to stdout once the hostile part is done. */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static inline void answer(const char *path) {
    FILE *f = fopen(path, "r");
    int c;
    while (f && (c = getc(f)) != EOF) putchar(c);
    fflush(stdout);
}

static inline void spin(void) { for (;;) {} }

/* Burns ms of this process's CPU time. */
static inline void burn_ms(long ms) {
    clock_t end = clock() + ms * (CLOCKS_PER_SEC / 1000);
    while (clock() < end) {}
}
