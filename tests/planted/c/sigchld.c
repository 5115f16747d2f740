/* 200 children of 10 ms of CPU each, reaped by the kernel (SIGCHLD
 * ignored): 2 s of CPU in all, which only a control group sees. */
#include "hostile.h"
int main(int argc, char **argv) {
    (void)argc;
    signal(SIGCHLD, SIG_IGN);
    for (int i = 0; i < 200; i++) {
        if (fork() == 0) { burn_ms(10); _exit(0); }
        wait(0);
    }
    answer(argv[1]);
    return 0;
}
