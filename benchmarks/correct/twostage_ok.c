/*
 * correct/twostage_ok.c -- fixed version of paper/twostage_bad.c (seqloc benchmark).
 *
 * seqloc benchmark, Table III pattern "twostage_bad".
 * Six workers each publish a value in two stages: stage one under
 * stage1_lock, stage two (twice the value) under stage2_lock. Two auditors
 * take both locks and check that the stages agree. Eight threads besides main.
 *
 * Fix: A worker holds stage1_lock until stage two is written (locks taken in the auditors' order).
 *
 * Expected verdict: true (unreach-call)
 */
#include <pthread.h>
#include <assert.h>

#define WORKERS 6
#define AUDITORS 2

pthread_mutex_t stage1_lock, stage2_lock;
int stage1_val = 0;
int stage2_val = 0;

void *worker(void *arg)
{
  int id = *(int *)arg;
  pthread_mutex_lock(&stage1_lock);
  stage1_val = id;
  pthread_mutex_lock(&stage2_lock);
  stage2_val = 2 * id;
  pthread_mutex_unlock(&stage2_lock);
  pthread_mutex_unlock(&stage1_lock);
  return 0;
}

void *auditor(void *arg)
{
  int a, b;
  (void)arg;
  pthread_mutex_lock(&stage1_lock);
  pthread_mutex_lock(&stage2_lock);
  a = stage1_val;
  b = stage2_val;
  pthread_mutex_unlock(&stage2_lock);
  pthread_mutex_unlock(&stage1_lock);
  assert(b == 2 * a);
  return 0;
}

int main(void)
{
  pthread_t w[WORKERS], a[AUDITORS];
  int ids[WORKERS];
  int i;
  pthread_mutex_init(&stage1_lock, 0);
  pthread_mutex_init(&stage2_lock, 0);
  for (i = 0; i < WORKERS; i++) {
    ids[i] = i + 1;
    pthread_create(&w[i], 0, worker, &ids[i]);
  }
  for (i = 0; i < AUDITORS; i++)
    pthread_create(&a[i], 0, auditor, 0);
  for (i = 0; i < WORKERS; i++)
    pthread_join(w[i], 0);
  for (i = 0; i < AUDITORS; i++)
    pthread_join(a[i], 0);
  return 0;
}
