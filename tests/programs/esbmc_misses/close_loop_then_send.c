/* The closer shuts every slot in a loop, between a sender's check that its slot is open
 * and its use of the slot's peer. Faulty lines: 32, 34 (check and use under one lock). */
#include <pthread.h>
#include <assert.h>

pthread_mutex_t m;
int slot_open[2] = { 1, 1 };
int slot_peer[2] = { 5, 6 };
int sent[2];

void *closer(void *arg)
{
  int s;
  for (s = 0; s < 2; s++) {
    pthread_mutex_lock(&m);
    slot_open[s] = 0;
    slot_peer[s] = 0;
    pthread_mutex_unlock(&m);
  }
  return arg;
}

void *sender(void *arg)
{
  int s = *(int *)arg;
  int p;
  pthread_mutex_lock(&m);
  if (!slot_open[s]) {
    pthread_mutex_unlock(&m);
    return 0;
  }
  pthread_mutex_unlock(&m);
  pthread_mutex_lock(&m);
  p = slot_peer[s];
  assert(p != 0);
  sent[s] = sent[s] + 1;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void)
{
  pthread_t snd[2], c;
  int ids[2];
  int i;
  pthread_mutex_init(&m, 0);
  for (i = 0; i < 2; i++) {
    ids[i] = i;
    pthread_create(&snd[i], 0, sender, &ids[i]);
  }
  pthread_create(&c, 0, closer, 0);
  for (i = 0; i < 2; i++)
    pthread_join(snd[i], 0);
  pthread_join(c, 0);
  return 0;
}
