/*
 * seeds/parse_count_before_join_ok.c -- fixed version of seeds/parse_count_before_join_bad.c (seqloc benchmark).
 *
 * reading a worker's result before
 * the worker has finished. main hands half of a batch of records to a parser
 * thread (a job struct on main's stack, passed as the thread argument),
 * counts the valid records of the other half itself, and adds the two.
 *
 * Fix: main joins the parser before it adds the parser's count.
 *
 * Expected verdict: true (unreach-call)
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
  pthread_join(p, 0);
  total = local + job.valid;
  assert(total == 4);
  return 0;
}
