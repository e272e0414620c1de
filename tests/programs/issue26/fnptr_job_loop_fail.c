// seqloc-expect: failure 32
// A worker loop takes jobs (a function pointer and its argument) from a one-slot mailbox
// and calls them. The job call `job(arg)` goes through a `void (*)(int)`; the worker
// itself, whose address `pthread_create` takes, is a `void *(void *)` and cannot be what
// it calls (once it was inlined into itself, nested loops and all: 22 GB). The worker
// gives up when `done` is set without looking whether a job is still in the slot (line
// 32), so a posted job can be dropped.
#include <pthread.h>
#include <assert.h>

typedef void (*job_fn)(int);

job_fn slot_fn;
int slot_arg, total, done;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c = PTHREAD_COND_INITIALIZER;

void add(int x)
{
  total += x;
}

void *worker(void *unused)
{
  (void)unused;
  for (;;) {
    job_fn job;
    int arg;
    pthread_mutex_lock(&m);
    while (slot_fn == 0 && !done)
      pthread_cond_wait(&c, &m);
    if (done) {
      pthread_mutex_unlock(&m);
      break;
    }
    job = slot_fn;
    arg = slot_arg;
    slot_fn = 0;
    pthread_cond_broadcast(&c);
    pthread_mutex_unlock(&m);
    job(arg);
  }
  return 0;
}

int main(void)
{
  pthread_t w;
  pthread_create(&w, 0, worker, 0);
  for (int k = 1; k <= 2; k++) {
    pthread_mutex_lock(&m);
    while (slot_fn != 0)
      pthread_cond_wait(&c, &m);
    slot_fn = add;
    slot_arg = k;
    pthread_cond_signal(&c);
    pthread_mutex_unlock(&m);
  }
  pthread_mutex_lock(&m);
  done = 1;
  pthread_cond_broadcast(&c);
  pthread_mutex_unlock(&m);
  pthread_join(w, 0);
  assert(total == 3);
  return 0;
}
