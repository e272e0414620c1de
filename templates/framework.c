/* seqloc's framework skeleton: the `main` of every sequential program (paper 004, Fig. 4
 * and Table I). The sequentializer turns each thread into one function that runs a block
 * of the thread and returns at a context switch; this skeleton says in which order those
 * functions are called.
 *
 * It is compiled into seqloc; `--templates DIR` uses DIR/framework.c instead. The text is
 * C (one function, `main`) with a few directives, expanded before it is parsed:
 *
 *   //@if FLAG ... //@else ... //@end   kept when FLAG holds. Flags: symbolic (the checker's
 *                                       schedule of rounds), concrete (a replayed schedule),
 *                                       fixed_points (concrete, and every block ends at a
 *                                       program point given by __seq_cs_at[]), probes (the
 *                                       end-of-run probes exist), deadlock (the deadlock
 *                                       property is checked), switch_bound (symbolic, with
 *                                       --context-switches: at most {RUNS} thread runs may
 *                                       execute anything; __seq_runs counts them).
 *   //@for slot ... //@end              repeated for every thread slot, with {SLOT} (0 is
 *                                       main), {CASE} (= {SLOT} + 1, the paper's case
 *                                       number), {THREAD} (the slot's function), {PROBE}
 *                                       (its end-of-run probe) and {POINTS} (the number of
 *                                       program points of its code).
 *   //@for round ... //@end             repeated for every round, with {ROUND} (1, 2, ...).
 *
 * {BLOCKS} is the number of blocks of a concrete schedule, {ROUNDS} the number of rounds.
 * The skeleton may use the sequentializer's variables (order, order_index, __seq_*), call
 * the slot and probe functions, and call __VERIFIER_assume, __VERIFIER_nondet_uint,
 * __seq_mismatch(step) (the schedule cannot be followed at that step) and
 * __seq_deadlock_reached(dead) (the deadlock property, violated when dead is non-zero).
 * __seq_last_round and __seq_last_slot (symbolic) say where the last run that executed
 * anything was. It may not declare variables of its own. */
int main(void)
{
  __seq_created[0] = 1;
  __seq_nthreads = 1;
//@if symbolic
  /* The rounds are written out: the checker never has to decide when the framework's own
   * loop ends. In each round every live thread runs from where it stopped (__seq_pc) to a
   * nondeterministic later point (__seq_cs). */
//@for round
__seq_round{ROUND}:;
//@for slot
  if (__seq_created[{SLOT}] && !__seq_done[{SLOT}] && !__seq_failed)
  {
    __VERIFIER_assume(!__seq_halted);
    __seq_cs = __VERIFIER_nondet_uint();
    __VERIFIER_assume(__seq_pc[{SLOT}] <= __seq_cs && __seq_cs <= {POINTS});
    /* Each interleaving once: a run that executes anything goes in the earliest round
     * the round-robin allows, right after the last such run (in this round, or in the
     * previous one at this slot or a later one). Empty runs fill the rest, so nothing
     * that more spread-out rounds could run is lost. */
    __VERIFIER_assume(__seq_pc[{SLOT}] == __seq_cs || __seq_last_round == {ROUND}
                      || (__seq_last_round + 1 == {ROUND} && __seq_last_slot >= {SLOT}));
    if (__seq_pc[{SLOT}] < __seq_cs)
    {
      __seq_last_round = {ROUND};
      __seq_last_slot = {SLOT};
    }
//@if switch_bound
    /* --context-switches K: at most K + 1 runs execute anything. */
    __seq_runs = __seq_runs + (__seq_pc[{SLOT}] < __seq_cs);
    __VERIFIER_assume(__seq_runs <= {RUNS});
//@end
    {THREAD}();
    __seq_pc[{SLOT}] = __seq_cs;
    /* No context switch inside an atomic section, unless the run is over: a violation
     * inside one (a __VERIFIER_atomic_* function's reach_error) must leave the path to the
     * probes, which say where every thread stood. */
    __VERIFIER_assume(!__seq_atomic[{SLOT}] || __seq_done[{SLOT}] || __seq_failed);
  }
//@end
//@end
//@end
//@if concrete
  /* order[] holds case numbers (1 = main, n + 1 = thread n), as in the paper. */
  order_index = 0;
  while (order_index < {BLOCKS})
  {
//@if fixed_points
    __seq_cs = __seq_cs_at[order_index];
    if (!__seq_created[order[order_index] - 1] || __seq_done[order[order_index] - 1] || __seq_halted)
      __seq_mismatch(order_index + 1);
//@else
    __seq_stop = 0;
    __seq_stop_reason = 0;
    __seq_stop_seen = 0;
    if (!__seq_created[order[order_index] - 1] || __seq_done[order[order_index] - 1])
      __seq_mismatch(order_index + 1);
//@end
    switch (order[order_index])
    {
//@for slot
    case {CASE}:
      {THREAD}();
//@if fixed_points
      __seq_pc[{SLOT}] = __seq_cs;
//@end
      break;
//@end
    default:
      break;
    }
//@if fixed_points
    /* No context switch inside an atomic section. */
    if (__seq_atomic[order[order_index] - 1] && !__seq_done[order[order_index] - 1])
      __seq_mismatch(order_index + 1);
//@else
    /* A block that names its end point must have reached it, and not inside an atomic
     * section. */
    if (__seq_stop_stmt[order_index] != 0 && __seq_stop_reason != 1)
      __seq_mismatch(order_index + 1);
    if (__seq_stop_reason == 1 && __seq_atomic[order[order_index] - 1])
      __seq_mismatch(order_index + 1);
//@end
    order_index = order_index + 1;
  }
//@end
//@if probes
  /* Deadlock: main has not exited and every live thread is blocked. */
  __seq_deadlock = !__seq_halted;
//@for slot
  if (__seq_created[{SLOT}] && !__seq_done[{SLOT}])
  {
    __seq_probed = 0;
    __seq_blocked = 0;
    {PROBE}();
    __seq_deadlock = __seq_deadlock && __seq_blocked;
  }
//@end
//@if deadlock
  /* ... and some thread is still live: after main's pthread_exit, every other thread
   * having ended is no deadlock. (__seq_blocked, free after the probes, says whether
   * one is live.) */
  __seq_blocked = 0;
//@for slot
  __seq_blocked = __seq_blocked || (__seq_created[{SLOT}] && !__seq_done[{SLOT}]);
//@end
  __seq_deadlock = __seq_deadlock && __seq_blocked;
  __seq_deadlock_reached(__seq_deadlock);
//@end
//@end
  return 0;
}
