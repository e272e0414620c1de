// seqloc-expect: no-failure
// What `memset` and `memcpy` leave, element by element and byte by byte: a repeated byte
// read back in the element's type, zeroed structs and pointers, a copy between types
// (bytes, little-endian), a `void *` destination from malloc, a count `k * sizeof(T)`.
#include <pthread.h>
#include <assert.h>
#include <string.h>
#include <stdlib.h>

struct rec { int a; long b; char *p; };
struct rec shared;
int grid[20];
char name[8];
short sh[3];

void *worker(void *arg) {
    (void)arg;
    struct rec local = { 1, 2, 0 };
    memcpy(&shared, &local, sizeof shared);
    return NULL;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, NULL, worker, NULL);
    pthread_join(t, NULL);
    assert(shared.b == 2);
    memset(grid, 0xff, sizeof grid);
    assert(grid[0] == -1 && grid[19] == -1);
    int n = 20;
    memset(grid, 0, n * sizeof(int));
    assert(grid[7] == 0);
    memset(&shared, 0, sizeof shared);
    assert(shared.a == 0 && shared.p == 0);
    memset(name, 'x', sizeof name - 1);
    assert(name[6] == 'x' && name[7] == 0);
    memset(sh, 1, sizeof sh);
    assert(sh[2] == 257);
    char bytes[12] = {1};
    int words[3];
    memcpy(words, bytes, sizeof words);
    assert(words[0] == 1 && words[1] == 0);
    void *p = malloc(16);
    if (!p) return 1;
    memset(p, 0, 16);
    assert(((int *)p)[3] == 0);
    free(p);
    return 0;
}
