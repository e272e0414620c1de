/* Structs, unions, nested initializers, pointer arithmetic, function pointers, malloc. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct item {
  char name[8];
  int qty;
  struct { int lo, hi; } range;
};

union number {
  int i;
  float f;
};

struct list {
  int value;
  struct list *next;
};

typedef int (*reducer)(int, int);

static int sum(int a, int b) { return a + b; }
static int max(int a, int b) { return a > b ? a : b; }

static int fold(const int *xs, int n, reducer r, int init)
{
  const int *end = xs + n;
  while (xs != end)
    init = r(init, *xs++);
  return init;
}

int main(void)
{
  struct item stock[] = { { "bolt", 3, { 1, 5 } }, { .name = "nut", .range.hi = 9, .qty = 7 } };
  struct item *it = &stock[1];
  union number u = { .i = 0 };
  struct list *head = NULL;
  int values[] = { 4, 8, 15, 16, 23, 42 };
  int k;
  for (k = 0; k < 3; k++) {
    struct list *n = malloc(sizeof *n);
    if (!n)
      return 99;
    n->value = values[k] * 2;
    n->next = head;
    head = n;
  }
  int walked = 0;
  while (head) {
    struct list *next = head->next;
    walked = walked * 10 + head->value % 10;
    free(head);
    head = next;
  }
  u.f = 1.5f;
  it->qty -= stock[0].qty;
  (*it).range.lo = (int)strlen(stock[0].name);
  printf("%s %d %d %d %d\n", it->name, it->qty, it->range.lo, it->range.hi, stock[0].range.hi);
  printf("%d %d %d %d\n", fold(values, 6, sum, 0), fold(values, 6, max, -1), walked, u.i != 0);
  return walked % 50;
}
