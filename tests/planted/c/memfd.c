/* 150 MiB written to a memfd: memory in no process's resident set. */
#include "hostile.h"
int main(int argc, char **argv) {
    (void)argc;
    int fd = memfd_create("table", 0);
    static char block[1 << 20];
    memset(block, 1, sizeof block);
    for (int i = 0; i < 150; i++) {
        if (write(fd, block, sizeof block) != sizeof block) return 1;
    }
    answer(argv[1]);
    return 0;
}
