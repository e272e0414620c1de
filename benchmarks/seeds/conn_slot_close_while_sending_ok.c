/*
 * seeds/conn_slot_close_while_sending_ok.c -- fixed version of seeds/conn_slot_close_while_sending_ok.c (seqloc benchmark).
 *
 * use after free of a
 * connection slot. A table of connections has one mutex per slot
 * (slot_lock[]). Two senders each send on their own slot; a closer shuts
 * every slot down, releasing its peer record (peer reset to 0).
 *
 * Fix: A sender tests slot_open and uses the peer in one critical section.
 *
 * Expected verdict: true (unreach-call)
 */
#include <stdlib.h>
#include <pthread.h>

extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__nothrow__, __leaf__)) __attribute__((__noreturn__));
void reach_error(void) { __assert_fail("0", "conn_slot_close_while_sending_ok.c", 17, "reach_error"); }
void __VERIFIER_assert(int cond) { if (!cond) { reach_error(); abort(); } }

#define SLOTS 2

pthread_mutex_t slot_lock[SLOTS];
int slot_open[SLOTS];
int slot_peer[SLOTS];
int bytes_sent[SLOTS];

void *sender(void *arg)
{
  int s = *(int *)arg;
  int len, peer;
  pthread_mutex_lock(&slot_lock[s]);
  if (!slot_open[s]) {
    pthread_mutex_unlock(&slot_lock[s]);
    return 0;
  }
  len = 16 * (s + 1);
  peer = slot_peer[s];
  __VERIFIER_assert(peer != 0);
  bytes_sent[s] = bytes_sent[s] + len;
  pthread_mutex_unlock(&slot_lock[s]);
  return 0;
}

void *closer(void *arg)
{
  int s;
  (void)arg;
  for (s = 0; s < SLOTS; s++) {
    pthread_mutex_lock(&slot_lock[s]);
    slot_open[s] = 0;
    slot_peer[s] = 0;
    pthread_mutex_unlock(&slot_lock[s]);
  }
  return 0;
}

int main(void)
{
  pthread_t snd[SLOTS], k;
  int ids[SLOTS];
  int i;
  for (i = 0; i < SLOTS; i++) {
    pthread_mutex_init(&slot_lock[i], 0);
    slot_open[i] = 1;
    slot_peer[i] = 7 + i;
    ids[i] = i;
  }
  for (i = 0; i < SLOTS; i++)
    pthread_create(&snd[i], 0, sender, &ids[i]);
  pthread_create(&k, 0, closer, 0);
  for (i = 0; i < SLOTS; i++)
    pthread_join(snd[i], 0);
  pthread_join(k, 0);
  return 0;
}
