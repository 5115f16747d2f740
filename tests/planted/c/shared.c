/* Three forked readers of one 48 MiB table: 48 MiB once (a sum of
 * resident sets would say 192). */
#include "hostile.h"
int main(int argc, char **argv) {
    (void)argc;
    size_t n = (size_t)48 << 20;
    char *t = malloc(n);
    memset(t, 1, n);
    for (int i = 0; i < 3; i++) {
        if (fork() == 0) {
            long sum = 0;
            for (size_t k = 0; k < n; k += 4096) sum += t[k];
            usleep(300000);
            _exit(sum == 0);
        }
    }
    while (wait(0) > 0) {}
    answer(argv[1]);
    return 0;
}
