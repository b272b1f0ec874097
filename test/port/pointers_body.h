/* SPDX-License-Identifier: 0BSD */
/*
 * test/port/pointers_body.h: every pointer macro of rcu.h on one kind of RCU-protected pointer.
 * Included once per kind, after rcu.h, by test/port/pointers.c (C: plain `T *` and `T *_Atomic`)
 * and by test/cxx/pointers.cpp (C++: plain `T *`, `std::atomic<T *>`, C++23's `_Atomic(T *)`),
 * so that every kind goes through the same checks. The includer defines:
 *   PB_KIND             an identifier naming the kind (plain, atomic, ...): prefixes every name
 *   PB_PTR(T)           the declaration of an RCU-protected pointer to T of this kind
 *   PB_NULL             the null pointer constant to publish (C: NULL; C++: nullptr, see
 *                       test/cxx/pointers.cpp for why not NULL)
 *   PB_CHECK(cond)      fails the test when cond is false (Criterion's cr_assert in C)
 * and gets PB_FN(run_values), PB_FN(run_race): the value checks, and a publish/subscribe race
 * whose plain (non-atomic) initialisation of each node before its publication is a data race
 * for ThreadSanitizer unless the macros' memory orders make it a happens-before.
 *
 * Valid C11 and C++11: no _Atomic spelled here, no designated initialisers; counters use the
 * __atomic builtins, which both languages share.
 */
#define PB_CAT2(a, b) a##_##b
#define PB_CAT(a, b) PB_CAT2(a, b)
#define PB_FN(name) PB_CAT(PB_KIND, name)

struct PB_FN(node) {
	long a, b;              /* b == 2 * a while published; a == -1 once reclaimed */
	PB_PTR(struct PB_FN(node)) next; /* an RCU pointer inside an object: `n->next` */
	struct rcu_head rh;
};
typedef struct PB_FN(node) PB_FN(node_t);

static PB_PTR(PB_FN(node_t)) PB_FN(gp);
static PB_PTR(const PB_FN(node_t)) PB_FN(gcp);
static DEFINE_SRCU(PB_FN(srcu));

/* Argument evaluation counters for the once-only checks. */
static int PB_FN(evals_p), PB_FN(evals_v);

static PB_PTR(PB_FN(node_t)) *PB_FN(pick)(PB_PTR(PB_FN(node_t)) *pp)
{
	PB_FN(evals_p)++;
	return pp;
}

static PB_FN(node_t) *PB_FN(value)(PB_FN(node_t) *v)
{
	PB_FN(evals_v)++;
	return v;
}

/* Every macro, one thread: what each returns and leaves in the pointer. */
static void PB_FN(run_values)(void)
{
	static PB_FN(node_t) x, y, z;
	PB_FN(node_t) *n;
	const PB_FN(node_t) *cn;
	x.a = 1;
	y.a = 2;
	z.a = 3;

	rcu_register_thread();

	/* Initialisation: relaxed stores, for NULL or before readers can see the pointer. */
	rcu_init_pointer(PB_FN(gp), &x);
	PB_CHECK(rcu_access_pointer(PB_FN(gp)) == &x);
	RCU_INIT_POINTER(PB_FN(gp), &y);
	PB_CHECK(rcu_access_pointer(PB_FN(gp)) == &y);
	RCU_INIT_POINTER(PB_FN(gp), PB_NULL);
	PB_CHECK(rcu_access_pointer(PB_FN(gp)) == NULL);

	/* Publication and the readers' loads. */
	rcu_assign_pointer(PB_FN(gp), &x);
	rcu_read_lock();
	n = rcu_dereference(PB_FN(gp));
	PB_CHECK(n == &x && n->a == 1);
	PB_CHECK(rcu_dereference_check(PB_FN(gp), 0) == &x);
	PB_CHECK(rcu_dereference_raw(PB_FN(gp)) == &x);
	PB_CHECK(rcu_pointer_handoff(n) == &x);
	rcu_read_unlock();
	rcu_quiescent_state();
	PB_CHECK(rcu_dereference_protected(PB_FN(gp), 1) == &x);
	rcu_assign_pointer(PB_FN(gp), PB_NULL);
	PB_CHECK(rcu_access_pointer(PB_FN(gp)) == NULL);

	/* liburcu's address forms. */
	rcu_set_pointer(&PB_FN(gp), &y);
	PB_CHECK(rcu_access_pointer(PB_FN(gp)) == &y);
	n = rcu_xchg_pointer(&PB_FN(gp), &z);
	PB_CHECK(n == &y && rcu_access_pointer(PB_FN(gp)) == &z);
	n = rcu_cmpxchg_pointer(&PB_FN(gp), &x, &y); /* fails: gp is &z */
	PB_CHECK(n == &z && rcu_access_pointer(PB_FN(gp)) == &z);
	n = rcu_cmpxchg_pointer(&PB_FN(gp), &z, &x); /* succeeds */
	PB_CHECK(n == &z && rcu_access_pointer(PB_FN(gp)) == &x);

	/* The kernel's replace: returns the old value. */
	n = rcu_replace_pointer(PB_FN(gp), &y, 1);
	PB_CHECK(n == &x && rcu_access_pointer(PB_FN(gp)) == &y);

	/* A pointer inside an object, and a pointer to const. */
	rcu_assign_pointer(x.next, &z);
	rcu_read_lock();
	PB_CHECK(rcu_dereference(rcu_dereference(PB_FN(gp))->next) == NULL);
	PB_CHECK(rcu_dereference(x.next) == &z);
	rcu_read_unlock();
	rcu_quiescent_state();
	rcu_assign_pointer(PB_FN(gcp), &z);
	rcu_read_lock();
	cn = rcu_dereference(PB_FN(gcp));
	PB_CHECK(cn == &z && cn->a == 3);
	rcu_read_unlock();
	rcu_quiescent_state();

	/* SRCU's load. */
	{
		int idx = srcu_read_lock(&PB_FN(srcu));
		PB_CHECK(srcu_dereference(PB_FN(gp), &PB_FN(srcu)) == &y);
		PB_CHECK(srcu_dereference_check(PB_FN(gp), &PB_FN(srcu), 1) == &y);
		srcu_read_unlock(&PB_FN(srcu), idx);
	}

	/* Each argument is evaluated once. */
	PB_FN(evals_p) = PB_FN(evals_v) = 0;
	rcu_assign_pointer(*PB_FN(pick)(&PB_FN(gp)), PB_FN(value)(&x));
	rcu_init_pointer(*PB_FN(pick)(&PB_FN(gp)), PB_FN(value)(&x));
	n = rcu_xchg_pointer(PB_FN(pick)(&PB_FN(gp)), PB_FN(value)(&y));
	n = rcu_cmpxchg_pointer(PB_FN(pick)(&PB_FN(gp)), PB_FN(value)(&y), PB_FN(value)(&z));
	rcu_set_pointer(PB_FN(pick)(&PB_FN(gp)), PB_FN(value)(&x));
	n = rcu_replace_pointer(*PB_FN(pick)(&PB_FN(gp)), PB_FN(value)(&y), 1);
	rcu_read_lock();
	n = rcu_dereference(*PB_FN(pick)(&PB_FN(gp)));
	rcu_read_unlock();
	rcu_quiescent_state();
	(void)n;
	PB_CHECK(PB_FN(evals_p) == 7);
	PB_CHECK(PB_FN(evals_v) == 7);
	PB_CHECK(rcu_access_pointer(PB_FN(gp)) == &y);

	rcu_assign_pointer(PB_FN(gp), PB_NULL);
	rcu_unregister_thread();
}

/*
 * The race: an updater publishes a fresh node per round, each time with another of the
 * publishing macros, waits for a grace period and poisons and frees the old one; readers check
 * every node they reach. A node's fields are plain: only the macros' orders (release on
 * publication, consume on the load, the grace period's fences) order them.
 */
#define PB_ROUNDS 1500
#define PB_READERS 2

static int PB_FN(stop);
static long PB_FN(bad), PB_FN(seen);

static void *PB_FN(reader)(void *arg)
{
	(void)arg;
	rcu_register_thread();
	while (!__atomic_load_n(&PB_FN(stop), __ATOMIC_ACQUIRE)) {
		rcu_read_lock();
		PB_FN(node_t) *n = rcu_dereference(PB_FN(gp));
		if (n) {
			long a = n->a, b = n->b;
			if (a < 0 || b != 2 * a)
				__atomic_fetch_add(&PB_FN(bad), 1, __ATOMIC_RELAXED);
			__atomic_fetch_add(&PB_FN(seen), 1, __ATOMIC_RELAXED);
		}
		rcu_read_unlock();
		rcu_quiescent_state();
	}
	rcu_unregister_thread();
	return NULL;
}

static void PB_FN(run_race)(void)
{
	pthread_t readers[PB_READERS];
	PB_FN(stop) = 0;
	PB_FN(bad) = PB_FN(seen) = 0;
	RCU_INIT_POINTER(PB_FN(gp), PB_NULL);
	for (int i = 0; i < PB_READERS; i++)
		PB_CHECK(pthread_create(&readers[i], NULL, PB_FN(reader), NULL) == 0);
	for (long r = 1; r <= PB_ROUNDS; r++) {
		PB_FN(node_t) *n = (PB_FN(node_t) *)malloc(sizeof *n);
		PB_CHECK(n != NULL);
		n->a = r;
		n->b = 2 * r;
		PB_FN(node_t) *old = NULL;
		switch (r % 5) {
		case 0:
			old = rcu_dereference_protected(PB_FN(gp), 1);
			rcu_assign_pointer(PB_FN(gp), n);
			break;
		case 1:
			old = rcu_xchg_pointer(&PB_FN(gp), n);
			break;
		case 2:
			old = rcu_replace_pointer(PB_FN(gp), n, 1);
			break;
		case 3:
			old = rcu_access_pointer(PB_FN(gp));
			PB_CHECK(rcu_cmpxchg_pointer(&PB_FN(gp), old, n) == old);
			break;
		default:
			old = rcu_dereference_protected(PB_FN(gp), 1);
			rcu_set_pointer(&PB_FN(gp), n);
			break;
		}
		if (old) {
			synchronize_rcu();
			old->a = -1; /* a reader that still sees it has outlived the grace period */
			free(old);
		}
		if (r % 256 == 0)
			sched_yield(); /* let the readers catch up on a loaded machine */
	}
	while (__atomic_load_n(&PB_FN(seen), __ATOMIC_RELAXED) < 10) /* the readers did read */
		sched_yield();
	__atomic_store_n(&PB_FN(stop), 1, __ATOMIC_RELEASE);
	for (int i = 0; i < PB_READERS; i++)
		pthread_join(readers[i], NULL);
	PB_FN(node_t) *last = rcu_dereference_protected(PB_FN(gp), 1);
	RCU_INIT_POINTER(PB_FN(gp), PB_NULL);
	free(last);
	PB_CHECK(__atomic_load_n(&PB_FN(bad), __ATOMIC_RELAXED) == 0);
}

#undef PB_ROUNDS
#undef PB_READERS
