/* main fills in a request for each resizer thread and starts it on it. Every
 * round points `req` at the same request object, so a thread that starts late
 * reads the next round's sizes. */
#include <pthread.h>
#include <assert.h>

struct request {
  int slot;
  int width;
};

int area[2];

void *resize(void *p)
{
  struct request *r = p;
  area[r->slot] = r->width * 2;
  return 0;
}

int main(void)
{
  pthread_t t[2];
  struct request one;
  struct request *req;
  for (int i = 0; i < 2; i++) {
    req = &one;
    req->slot = i;
    req->width = 10 + i;
    pthread_create(&t[i], 0, resize, req);
  }
  for (int i = 0; i < 2; i++)
    pthread_join(t[i], 0);
  assert(area[0] == 20 && area[1] == 22);
  return 0;
}
