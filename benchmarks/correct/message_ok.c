/*
 * correct/message_ok.c -- fixed version of concbugs/message_flag_before_data.c (seqloc benchmark).
 *
 * order violation (flag published
 * before the data). A sender fills a message (body, length, checksum) and
 * raises "posted"; a receiver that sees "posted" checks the checksum.
 *
 * Fix: The sender raises the flag after the checksum is written.
 *
 * Expected verdict: true (unreach-call)
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
  msg.checksum = 5 + 6 + 7;
  posted = 1;
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
