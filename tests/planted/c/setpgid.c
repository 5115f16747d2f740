/* A child that moves to a process group of its own and spins: killed at
 * the end of a run that answered (AC); given a second argument, the
 * program waits for it, and its CPU time counts (TLE, not idle). */
#include "hostile.h"
int main(int argc, char **argv) {
    if (fork() == 0) { setpgid(0, 0); spin(); }
    if (argc > 2) wait(0);
    answer(argv[1]);
    return 0;
}
