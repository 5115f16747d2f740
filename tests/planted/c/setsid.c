/* A double-forked setsid daemon that spins: killed at the end of a run
 * that answered (AC); given a second argument, the program sleeps 30 s
 * while the daemon's CPU time counts (TLE, not idle). */
#include "hostile.h"
int main(int argc, char **argv) {
    if (fork() == 0) {
        setsid();
        if (fork() == 0) spin();
        _exit(0);
    }
    wait(0);
    if (argc > 2) sleep(30);
    answer(argv[1]);
    return 0;
}
