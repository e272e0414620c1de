/*
 * concbugs/message_flag_before_data.c -- order violation (flag published
 * before the data). A sender fills a message (body, length, checksum) and
 * raises "posted"; a receiver that sees "posted" checks the checksum.
 *
 * Expected verdict: false (unreach-call)
 * Bug class: order violation
 * Faulty lines: 35, 36. The sender raises the flag (35) before writing
 *   the checksum (L36); the flag must be the last write.
 *
 * Failing interleaving (2 context switches):
 *   main: L55,L56 create sender S and receiver R; L57 join(S) blocks
 *   S:    L33 body = 5, 6, 7, L34 len = 3, L35 posted = 1              [switch 1]
 *   R:    L44 posted is 1, sum = 18, L47 fails (checksum still 0)      [switch 2]
 */
#include <pthread.h>
#include <assert.h>

struct message {
  int len;
  int body[3];
  int checksum;
};

struct message msg;
int posted = 0;

void *sender(void *arg)
{
  int i;
  (void)arg;
  for (i = 0; i < 3; i++)
    msg.body[i] = 5 + i;
  msg.len = 3;
  posted = 1;
  msg.checksum = 5 + 6 + 7;
  return 0;
}

void *receiver(void *arg)
{
  int i, sum = 0;
  (void)arg;
  if (posted) {
    for (i = 0; i < msg.len; i++)
      sum = sum + msg.body[i];
    assert(sum == msg.checksum);
  }
  return 0;
}

int main(void)
{
  pthread_t s, r;
  pthread_create(&s, 0, sender, 0);
  pthread_create(&r, 0, receiver, 0);
  pthread_join(s, 0);
  pthread_join(r, 0);
  return 0;
}
