/* expect: repair */
/* faulty: 28
 * main hands every scorer the address of its loop counter `t` (line 28).
 * A scorer that runs after main has moved on reads a later value of `t`
 * (or the final 3), so two scorers add the same square and the total is
 * wrong. Each scorer needs its own copy of the index. */
#include <pthread.h>
#include <assert.h>

pthread_mutex_t score_lock = PTHREAD_MUTEX_INITIALIZER;
int score = 0;

void *scorer(void *arg)
{
  int idx = *(int *)arg;
  int sq = idx * idx;
  pthread_mutex_lock(&score_lock);
  score = score + sq;
  pthread_mutex_unlock(&score_lock);
  return 0;
}

int main(void)
{
  pthread_t pool[3];
  int t;
  for (t = 0; t < 3; t++) {
    pthread_create(&pool[t], 0, scorer, &t);
  }
  for (t = 0; t < 3; t++) {
    pthread_join(pool[t], 0);
  }
  assert(score == 0 + 1 + 4);
  return 0;
}
