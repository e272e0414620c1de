/*
 * paper/twostage_bad.c -- seqloc benchmark, Table III pattern "twostage_bad".
 * Six workers each publish a value in two stages: stage one under
 * stage1_lock, stage two (twice the value) under stage2_lock. Two auditors
 * take both locks and check that the stages agree. Eight threads besides main.
 *
 * Expected verdict: false (unreach-call)
 * Bug class: atomicity violation (multi-variable)
 * Faulty line: 35. A worker releases stage1_lock as soon as stage one is
 *   written, so an auditor can see stage one of the new value with stage two
 *   of the old one. stage1_lock must be held until stage two is written
 *   (unlock it after L38).
 *
 * Failing interleaving (2 context switches):
 *   main: L65 creates workers W1..W6, L68 auditors A1, A2; L70 join(W1) blocks
 *   W1:   L33 lock stage1, L34 stage1_val = 1, L35 unlock              [switch 1]
 *   A1:   L46 locks both, L48 a = 1, L49 b = 0, unlocks; L52 fails (0 != 2)
 *                                                                      [switch 2]
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
  pthread_mutex_unlock(&stage1_lock);
  pthread_mutex_lock(&stage2_lock);
  stage2_val = 2 * id;
  pthread_mutex_unlock(&stage2_lock);
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
