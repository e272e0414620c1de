void __CPROVER_assume(_Bool);
void __CPROVER_assert(_Bool, const char *);
void __CPROVER_atomic_begin(void);
void __CPROVER_atomic_end(void);
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
struct __pthread_internal_list;
struct __pthread_mutex_s;
union __anon17;
union pthread_attr_t;
union __anon20;
struct account;

struct __pthread_internal_list { /* /usr/include/x86_64-linux-gnu/bits/thread-shared-types.h:51 */
  struct __pthread_internal_list *__prev;
  struct __pthread_internal_list *__next;
};
typedef struct __pthread_internal_list __pthread_list_t; /* /usr/include/x86_64-linux-gnu/bits/thread-shared-types.h:55 */
struct __pthread_mutex_s { /* /usr/include/x86_64-linux-gnu/bits/struct_mutex.h:22 */
  int __lock;
  unsigned int __count;
  int __owner;
  unsigned int __nusers;
  int __kind;
  short __spins;
  short __elision;
  __pthread_list_t __list;
};
typedef unsigned long pthread_t; /* /usr/include/x86_64-linux-gnu/bits/pthreadtypes.h:27 */
union __anon17 { /* /usr/include/x86_64-linux-gnu/bits/pthreadtypes.h:32 */
  char __size[4];
  int __align;
};
typedef union __anon17 pthread_mutexattr_t; /* /usr/include/x86_64-linux-gnu/bits/pthreadtypes.h:36 */
union pthread_attr_t { /* /usr/include/x86_64-linux-gnu/bits/pthreadtypes.h:56 */
  char __size[56];
  long __align;
};
typedef union pthread_attr_t pthread_attr_t; /* /usr/include/x86_64-linux-gnu/bits/pthreadtypes.h:62 */
union __anon20 { /* /usr/include/x86_64-linux-gnu/bits/pthreadtypes.h:67 */
  struct __pthread_mutex_s __data;
  char __size[40];
  long __align;
};
typedef union __anon20 pthread_mutex_t; /* /usr/include/x86_64-linux-gnu/bits/pthreadtypes.h:72 */
struct account { /* benchmarks/concbugs/transfer_two_locks.c:21 */
  pthread_mutex_t lock;
  int balance;
};

int pthread_create(pthread_t *__restrict, const pthread_attr_t *__restrict, void *(*)(void *), void *__restrict); /* /usr/include/pthread.h:202 */
int pthread_join(pthread_t, void **); /* /usr/include/pthread.h:219 */
int pthread_mutex_init(pthread_mutex_t *, const pthread_mutexattr_t *); /* /usr/include/pthread.h:781 */
int pthread_mutex_lock(pthread_mutex_t *); /* /usr/include/pthread.h:794 */
int pthread_mutex_unlock(pthread_mutex_t *); /* /usr/include/pthread.h:835 */
void move(struct account *from, struct account *to, int amount); /* benchmarks/concbugs/transfer_two_locks.c:28 */
void *mover(void *arg); /* benchmarks/concbugs/transfer_two_locks.c:38 */
void *auditor(void *arg); /* benchmarks/concbugs/transfer_two_locks.c:45 */
int main(void); /* benchmarks/concbugs/transfer_two_locks.c:58 */

struct account checking; /* benchmarks/concbugs/transfer_two_locks.c:26 */
struct account savings; /* benchmarks/concbugs/transfer_two_locks.c:26 */

void move(struct account *from, struct account *to, int amount) /* benchmarks/concbugs/transfer_two_locks.c:28 */
{
  pthread_mutex_lock(&from->lock); /* benchmarks/concbugs/transfer_two_locks.c:30 */
  int __t = from->balance; /* benchmarks/concbugs/transfer_two_locks.c:31 */
  from->balance = __t - amount; /* benchmarks/concbugs/transfer_two_locks.c:31 */
  pthread_mutex_unlock(&from->lock); /* benchmarks/concbugs/transfer_two_locks.c:32 */
  pthread_mutex_lock(&to->lock); /* benchmarks/concbugs/transfer_two_locks.c:33 */
  int __t_1 = to->balance; /* benchmarks/concbugs/transfer_two_locks.c:34 */
  to->balance = __t_1 + amount; /* benchmarks/concbugs/transfer_two_locks.c:34 */
  pthread_mutex_unlock(&to->lock); /* benchmarks/concbugs/transfer_two_locks.c:35 */
}

void *mover(void *arg) /* benchmarks/concbugs/transfer_two_locks.c:38 */
{
  move(&checking, &savings, 30); /* benchmarks/concbugs/transfer_two_locks.c:41 */
  return 0; /* benchmarks/concbugs/transfer_two_locks.c:42 */
}

void *auditor(void *arg) /* benchmarks/concbugs/transfer_two_locks.c:45 */
{
  int total; /* benchmarks/concbugs/transfer_two_locks.c:47 */
  pthread_mutex_lock(&checking.lock); /* benchmarks/concbugs/transfer_two_locks.c:49 */
  pthread_mutex_lock(&savings.lock); /* benchmarks/concbugs/transfer_two_locks.c:50 */
  int __t = checking.balance; /* benchmarks/concbugs/transfer_two_locks.c:51 */
  total = __t + savings.balance; /* benchmarks/concbugs/transfer_two_locks.c:51 */
  pthread_mutex_unlock(&savings.lock); /* benchmarks/concbugs/transfer_two_locks.c:52 */
  pthread_mutex_unlock(&checking.lock); /* benchmarks/concbugs/transfer_two_locks.c:53 */
  {
    int __t_1 = total == 100; /* benchmarks/concbugs/transfer_two_locks.c:54 */
    if (__t_1) /* benchmarks/concbugs/transfer_two_locks.c:54 */
    {
      ; /* benchmarks/concbugs/transfer_two_locks.c:54 */
    }
    else
    {
      __CPROVER_assert(0, "assertion at transfer_two_locks.c:54"); /* benchmarks/concbugs/transfer_two_locks.c:54 */
    }
  }
  return 0; /* benchmarks/concbugs/transfer_two_locks.c:55 */
}

int main(void) /* benchmarks/concbugs/transfer_two_locks.c:58 */
{
  pthread_t m; /* benchmarks/concbugs/transfer_two_locks.c:60 */
  pthread_t a; /* benchmarks/concbugs/transfer_two_locks.c:60 */
  pthread_mutex_init(&checking.lock, 0); /* benchmarks/concbugs/transfer_two_locks.c:61 */
  pthread_mutex_init(&savings.lock, 0); /* benchmarks/concbugs/transfer_two_locks.c:62 */
  checking.balance = 100; /* benchmarks/concbugs/transfer_two_locks.c:63 */
  savings.balance = 0; /* benchmarks/concbugs/transfer_two_locks.c:64 */
  pthread_create(&m, 0, mover, 0); /* benchmarks/concbugs/transfer_two_locks.c:65 */
  pthread_create(&a, 0, auditor, 0); /* benchmarks/concbugs/transfer_two_locks.c:66 */
  pthread_join(m, 0); /* benchmarks/concbugs/transfer_two_locks.c:67 */
  pthread_join(a, 0); /* benchmarks/concbugs/transfer_two_locks.c:68 */
  return 0; /* benchmarks/concbugs/transfer_two_locks.c:69 */
}
