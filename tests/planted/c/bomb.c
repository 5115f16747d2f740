/* A fork bomb: held at the task limit, ended by its CPU time. */
#include "hostile.h"
int main(void) {
    for (;;) fork();
}
