/* Only answers: AC; given a number of seconds too, after sleeping that
 * long. */
#include "hostile.h"
int main(int argc, char **argv) {
    if (argc > 2) sleep(atoi(argv[2]));
    answer(argv[1]);
    return 0;
}
