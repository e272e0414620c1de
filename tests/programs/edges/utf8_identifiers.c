/* Identifiers beyond ASCII (C99 6.4.2.1): a lost update on `zähler`. */
#include <pthread.h>
#include <assert.h>
int zähler = 0;
void *arbeiter(void *arg) {
  int schritt = zähler;     /* line 6 */
  zähler = schritt + 1;     /* line 7: the lost update */
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, arbeiter, 0);
  pthread_create(&b, 0, arbeiter, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(zähler == 2); /* line 16 */
  return 0;
}
