/*
 * seeds/parse_count_before_join_bad.c -- reading a worker's result before
 * the worker has finished. main hands half of a batch of records to a parser
 * thread (a job struct on main's stack, passed as the thread argument),
 * counts the valid records of the other half itself, and adds the two.
 *
 * Expected verdict: false (unreach-call)
 * Bug class: order violation (result read before the join)
 * Faulty lines: 54, 55. main adds the parser's count (L54) before it joins
 *   the parser (L55); the join must come first.
 *
 * Failing interleaving (2 context switches):
 *   main: L49 create parser P; L52 counts its own records (local = 1);
 *         L54 total = 1 + job.valid (0); L55 join(P) blocks
 *   P:    L34 counts 3 valid records into job.valid; P ends  [switch 1]
 *   main: L56 fails (1 != 4)                                 [switch 2]
 */
#include <pthread.h>
#include <assert.h>

#define HALF 3

struct parse_job {
  int rec[HALF];
  int valid;
};

void *parser(void *arg)
{
  struct parse_job *job = arg;
  int i;
  for (i = 0; i < HALF; i++) {
    if (job->rec[i] > 0)
      job->valid = job->valid + 1;
  }
  return 0;
}

int main(void)
{
  pthread_t p;
  struct parse_job job;
  int mine[HALF] = { 0, 12, -4 };
  int local = 0, total, i;
  job.rec[0] = 5;
  job.rec[1] = 9;
  job.rec[2] = 2;
  job.valid = 0;
  pthread_create(&p, 0, parser, &job);
  for (i = 0; i < HALF; i++) {
    if (mine[i] > 0)
      local = local + 1;
  }
  total = local + job.valid;
  pthread_join(p, 0);
  assert(total == 4);
  return 0;
}
