void __ESBMC_assume(_Bool);
void __ESBMC_assert(_Bool, const char *);
void __ESBMC_atomic_begin(void);
void __ESBMC_atomic_end(void);
int nondet_int(void);
unsigned int nondet_uint(void);
long nondet_long(void);
unsigned long nondet_ulong(void);
long long nondet_longlong(void);
unsigned long long nondet_ulonglong(void);
short nondet_short(void);
unsigned short nondet_ushort(void);
char nondet_char(void);
unsigned char nondet_uchar(void);
_Bool nondet_bool(void);
void *nondet_pointer(void);
float nondet_float(void);
double nondet_double(void);
union pthread_attr_t;

typedef unsigned long pthread_t; /* /usr/include/x86_64-linux-gnu/bits/pthreadtypes.h:27 */
union pthread_attr_t { /* /usr/include/x86_64-linux-gnu/bits/pthreadtypes.h:56 */
  char __size[56];
  long __align;
};
typedef union pthread_attr_t pthread_attr_t; /* /usr/include/x86_64-linux-gnu/bits/pthreadtypes.h:62 */

int pthread_create(pthread_t *__restrict, const pthread_attr_t *__restrict, void *(*)(void *), void *__restrict); /* /usr/include/pthread.h:202 */
int pthread_join(pthread_t, void **); /* /usr/include/pthread.h:219 */
void *count_samples(void *arg); /* benchmarks/concbugs/histogram_lost_update.c:30 */
int main(void); /* benchmarks/concbugs/histogram_lost_update.c:41 */

int hist[3]; /* benchmarks/concbugs/histogram_lost_update.c:26 */
int samples_a[4] = { [0] = 1, [1] = 4, [2] = 2, [3] = 6 }; /* benchmarks/concbugs/histogram_lost_update.c:27 */
int samples_b[4] = { [0] = 7, [1] = 3, [2] = 5, [3] = 9 }; /* benchmarks/concbugs/histogram_lost_update.c:28 */

void *count_samples(void *arg) /* benchmarks/concbugs/histogram_lost_update.c:30 */
{
  int *s = (int *)arg; /* benchmarks/concbugs/histogram_lost_update.c:32 */
  int i; /* benchmarks/concbugs/histogram_lost_update.c:33 */
  int b; /* benchmarks/concbugs/histogram_lost_update.c:33 */
  {
    i = 0; /* benchmarks/concbugs/histogram_lost_update.c:34 */
    while (1) /* benchmarks/concbugs/histogram_lost_update.c:34 */
    {
      int __t = i < 4; /* benchmarks/concbugs/histogram_lost_update.c:34 */
      if (!__t) /* benchmarks/concbugs/histogram_lost_update.c:34 */
      {
        break; /* benchmarks/concbugs/histogram_lost_update.c:34 */
      }
      {
        b = s[i] % 3; /* benchmarks/concbugs/histogram_lost_update.c:35 */
        int __t_1 = hist[b]; /* benchmarks/concbugs/histogram_lost_update.c:36 */
        hist[b] = __t_1 + 1; /* benchmarks/concbugs/histogram_lost_update.c:36 */
      }
      i = i + 1; /* benchmarks/concbugs/histogram_lost_update.c:34 */
    }
  }
  return 0; /* benchmarks/concbugs/histogram_lost_update.c:38 */
}

int main(void) /* benchmarks/concbugs/histogram_lost_update.c:41 */
{
  pthread_t a; /* benchmarks/concbugs/histogram_lost_update.c:43 */
  pthread_t b; /* benchmarks/concbugs/histogram_lost_update.c:43 */
  pthread_create(&a, 0, count_samples, samples_a); /* benchmarks/concbugs/histogram_lost_update.c:44 */
  pthread_create(&b, 0, count_samples, samples_b); /* benchmarks/concbugs/histogram_lost_update.c:45 */
  pthread_join(a, 0); /* benchmarks/concbugs/histogram_lost_update.c:46 */
  pthread_join(b, 0); /* benchmarks/concbugs/histogram_lost_update.c:47 */
  {
    int __t_1 = hist[0]; /* benchmarks/concbugs/histogram_lost_update.c:48 */
    int __t_2 = hist[1]; /* benchmarks/concbugs/histogram_lost_update.c:48 */
    int __t = __t_1 + __t_2 + hist[2] == 8; /* benchmarks/concbugs/histogram_lost_update.c:48 */
    if (__t) /* benchmarks/concbugs/histogram_lost_update.c:48 */
    {
      ; /* benchmarks/concbugs/histogram_lost_update.c:48 */
    }
    else
    {
      __ESBMC_assert(0, "assertion at histogram_lost_update.c:48"); /* benchmarks/concbugs/histogram_lost_update.c:48 */
    }
  }
  return 0; /* benchmarks/concbugs/histogram_lost_update.c:49 */
}
