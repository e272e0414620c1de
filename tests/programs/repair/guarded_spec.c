/* expect: no-repair */
/* faulty: 18
 * Each cutter cuts its own board (no shared data but its own slot) and
 * computes the length as 3 pieces of 5, where the order says 4 pieces
 * (line 18). The test at line 31 is the specification: changing its
 * comparison would make the check pass without making the boards right,
 * so no repair may touch it, and no synchronization change helps. */
#include <pthread.h>
#include <assert.h>

int board[2];

void *cutter(void *arg)
{
  int slot = *(int *)arg;
  int pieces;
  int piece_len = 5;
  pieces = 3;
  board[slot] = pieces * piece_len;
  return 0;
}

int main(void)
{
  pthread_t x, y;
  int sx = 0, sy = 1;
  pthread_create(&x, 0, cutter, &sx);
  pthread_create(&y, 0, cutter, &sy);
  pthread_join(x, 0);
  pthread_join(y, 0);
  if (board[0] + board[1] != 40)
    assert(0);
  return 0;
}
