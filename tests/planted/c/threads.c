/* Four spinning threads: their CPU time is the program's (TLE). */
#include "hostile.h"
static void *run(void *a) { spin(); return a; }
int main(void) {
    pthread_t t;
    for (int i = 0; i < 3; i++) pthread_create(&t, 0, run, 0);
    spin();
}
