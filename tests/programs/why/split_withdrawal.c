/* A fuel depot serves two tankers. A tanker checks under the depot lock that
 * enough fuel is left, lets the lock go while it logs the request, then takes
 * the lock back and pumps on the strength of its earlier check. */
#include <pthread.h>
#include <assert.h>

pthread_mutex_t depot = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;
int fuel = 50;
int requests = 0;

void log_request(int litres)
{
  pthread_mutex_lock(&log_lock);
  requests = requests + (litres > 0);
  pthread_mutex_unlock(&log_lock);
}

void *tanker(void *arg)
{
  int litres = *(int *)arg;
  pthread_mutex_lock(&depot);
  int enough = fuel >= litres;
  pthread_mutex_unlock(&depot);
  log_request(litres);
  pthread_mutex_lock(&depot);
  if (enough)
    fuel = fuel - litres;
  assert(fuel >= 0);
  pthread_mutex_unlock(&depot);
  return 0;
}

int main(void)
{
  pthread_t t[2];
  int want[2] = {30, 40};
  for (int i = 0; i < 2; i++)
    pthread_create(&t[i], 0, tanker, &want[i]);
  for (int i = 0; i < 2; i++)
    pthread_join(t[i], 0);
  return 0;
}
