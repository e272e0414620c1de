/*
 * seeds/inventory_item_list_lock_order_ok.c -- fixed version of seeds/inventory_item_list_lock_order_bad.c (seqloc benchmark).
 *
 * lock-order inversion between a
 * list lock and an element lock. An inventory has a list_lock (guarding
 * in_stock, the number of items in stock) and a mutex per item (guarding
 * its stock); the documented order is list_lock before any item's lock.
 * Two restockers each restock one item; an auditor recounts the items.
 *
 * Fix: item_restock takes list_lock before the item's mutex, in the documented order.
 *
 * Expected verdict: true (no-deadlock)
 */
#include <pthread.h>

#define ITEMS 2

struct item {
  pthread_mutex_t lock;         /* guards stock */
  int sku;
  int stock;
};

struct inventory {
  pthread_mutex_t list_lock;    /* guards in_stock; taken before an item's lock */
  struct item *slot[ITEMS];
  int in_stock;
};

struct inventory inv;
struct item items[ITEMS];

/* Restock one item; a sold-out item counts as in stock again. */
static void item_restock(struct item *it, int n)
{
  int was_empty;
  pthread_mutex_lock(&inv.list_lock);
  pthread_mutex_lock(&it->lock);
  was_empty = (it->stock == 0);
  it->stock = it->stock + n;
  if (was_empty)
    inv.in_stock = inv.in_stock + 1;
  pthread_mutex_unlock(&inv.list_lock);
  pthread_mutex_unlock(&it->lock);
}

/* Recount the items in stock: the list first, then each item. */
static void inventory_recount(struct inventory *v)
{
  int i, n = 0;
  pthread_mutex_lock(&v->list_lock);
  for (i = 0; i < ITEMS; i++) {
    pthread_mutex_lock(&v->slot[i]->lock);
    if (v->slot[i]->stock > 0)
      n = n + 1;
    pthread_mutex_unlock(&v->slot[i]->lock);
  }
  v->in_stock = n;
  pthread_mutex_unlock(&v->list_lock);
}

void *restocker(void *arg)
{
  struct item *it = arg;
  item_restock(it, 5);
  return 0;
}

void *auditor(void *arg)
{
  (void)arg;
  inventory_recount(&inv);
  return 0;
}

int main(void)
{
  pthread_t r[ITEMS], a;
  int i;
  pthread_mutex_init(&inv.list_lock, 0);
  for (i = 0; i < ITEMS; i++) {
    pthread_mutex_init(&items[i].lock, 0);
    items[i].sku = 40 + i;
    items[i].stock = 0;
    inv.slot[i] = &items[i];
  }
  inv.in_stock = 0;
  for (i = 0; i < ITEMS; i++)
    pthread_create(&r[i], 0, restocker, &items[i]);
  pthread_create(&a, 0, auditor, 0);
  for (i = 0; i < ITEMS; i++)
    pthread_join(r[i], 0);
  pthread_join(a, 0);
  return 0;
}
