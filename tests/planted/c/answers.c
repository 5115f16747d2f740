/* Only answers: AC. */
#include "hostile.h"
int main(int argc, char **argv) {
    (void)argc;
    answer(argv[1]);
    return 0;
}
