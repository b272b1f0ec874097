/* SPDX-License-Identifier: 0BSD */
/*
 * rcu_lfht.h: a resizable RCU hash table (wait-free lookups, lock-free updates), beside rcu.h.
 *
 * Contents (grep for the anchors)
 *   >>doc        what it is, how to include, the algorithm, where resizing runs, memory ordering
 *   >>types      struct rcu_lfht_node, struct rcu_lfht_iter, struct rcu_lfht, the flags
 *   >>internals  bit reversal, bucket addresses, link flags, the walk that updates share
 *   >>read       lookup, duplicates, iteration: wait-free, inside a read-side section
 *   >>update     add, add_unique, add_replace, replace, del, is_node_deleted
 *   >>resize     automatic and explicit resizing, grow and shrink
 *   >>table      new, destroy, count_nodes, buckets
 *   >>macros     the for_each iterators
 *
 * >>doc
 *
 * What it is. A hash table whose lookups and iterations run inside RCU read-side sections and
 * never block, retry or write, while other threads add, replace and delete nodes and the table
 * doubles or halves its buckets underneath them. Nodes (struct rcu_lfht_node) are embedded in the
 * caller's objects; the caller computes the hash and supplies the key comparison; a removed node
 * is reclaimed by the caller after a grace period (call_rcu(), rcu_free(), synchronize_rcu()), as
 * with every RCU structure. It has liburcu's rculfhash semantics (cds_lfht_*, which
 * compat/liburcu/urcu/rculfhash.h maps onto these names) and its own code.
 *
 * How to include. Pick the flavour as for rcu.h, then include this header (it includes rcu.h):
 *
 *     #define RCU_FLAVOUR_QSBR
 *     #include "rcu_lfht.h"
 *
 * rcu.h never includes it, so a program that does not use the table pays nothing. It has no
 * configuration macros of its own; rcu.h's (flavour, RCU_DEBUG, RCU_C11_FENCES) apply. Its slow
 * paths are weak functions named after the flavour, as rcu.h's are: one copy per program.
 *
 * The algorithm. Every node of the table is on one singly linked list, sorted by the
 * bit-reversed hash ("split-ordered list", Shalev and Shavit, 2006). The table also keeps one
 * bucket node per bucket index i, whose key is i reversed: with 2^k buckets, the nodes whose hash
 * is i modulo 2^k are exactly the ones between bucket node i and the next bucket node, because
 * reversal makes the k low bits of the hash its high bits. A lookup reads the number of buckets,
 * goes to bucket node (hash mod buckets) and walks forward until the reversed hashes pass its
 * own. Doubling the buckets links bucket node i + 2^k into the middle of bucket i's run, where the
 * hashes with bit k set begin, and moves nothing else; halving unlinks those bucket nodes again.
 * A walker that started from an older bucket simply walks through the new bucket node.
 *
 * Updates are Michael's lock-free list operations (2002) on that list. An insert links its node
 * with one compare-and-swap of its predecessor's link. A delete first marks the node's own link
 * (the REMOVED bit): from then on nothing can be linked behind the node, and the one thread whose
 * atomic OR set the bit owns the removal. It then walks from the bucket node and unlinks the node
 * with a compare-and-swap of its predecessor's link; any update that meets a marked node on its
 * way unlinks it as well. When rcu_lfht_del() returns, the node is unreachable: a walk that
 * starts later cannot reach it, and the caller reclaims it after a grace period, since walks
 * that started earlier may still stand on it. A replace links the new node behind the old one
 * and marks the old one in the same compare-and-swap, so a reader finds exactly one of the two.
 * rcu_lfht_add_unique() checks the run of nodes of equal hash for an equal key and inserts in
 * front of that run; every add_unique and add_replace of that hash inserts at the same place,
 * so a concurrent one sees the link change and checks again: together they never duplicate a
 * key. rcu_lfht_add() inserts behind the run and allows duplicates.
 *
 * RCU is what keeps this short: lookups and updates walk inside read-side sections, so no node
 * they can reach is reclaimed under them. No hazard pointers, and no ABA problem for the
 * compare-and-swaps: a node a walker may compare against cannot be freed and reused meanwhile.
 *
 * Buckets. Bucket nodes live in arrays that the table owns. The first array holds
 * max(min_nr_alloc_buckets, 2) bucket nodes and lives as long as the table; each doubling beyond
 * it allocates one array with as many bucket nodes as there were buckets. A table of per-level
 * base addresses, indexed by the position of the highest set bit of the bucket index, makes a
 * bucket's address one bit scan, one load and one add. Growing allocates a level, links its
 * bucket nodes (possibly in pieces, by several holders of the resize lock in turn), then
 * publishes the doubled count (H3). Shrinking publishes the halved count,
 * waits for a grace period (so that no update still starts from a bucket about to go), marks and
 * unlinks the upper half's bucket nodes, and frees their array after a further grace period.
 *
 * Where resizing runs. rcu_lfht_resize() runs on its caller and blocks: it waits for grace
 * periods, so it must be called outside read-side sections. Automatic resizing is requested by
 * updaters, which run inside read-side sections and therefore can neither wait for a grace
 * period nor block on the resize lock (the holder may be waiting for their section: a deadlock).
 * Growth needs no grace period (it links new bucket nodes into the live list, then publishes the
 * count), so updaters grow the table themselves, a bounded piece at a time: an updater whose
 * request asks for more buckets than the table has tries the resize lock (a trylock: it never
 * waits) and, if it gets it, links up to RCU__LFHT_HELP_BATCH bucket nodes of the level being
 * built, inside its own section, from where the lock's last holder stopped (grow_next, kept under
 * the lock, H10); the one that completes the level publishes the doubled count (H3). Lookups and
 * updates start only from buckets below the published count, so a level half built is bucket
 * nodes that walks pass through. A level of n buckets costs n links once, shared by the adds that
 * ask while it is built: one add helps at most once (its chain rule and its counter's commit may
 * both ask; insert() tells the commit), RCU__LFHT_HELP_BATCH links and, for the first, the
 * level's malloc(). An updater preempted with the lock delays growth, never another update:
 * they only try it. It does not help while a shrink's unlinked level awaits its grace period
 * (pending_free; never so while the lock is free: each resizer frees them before it unlocks) or
 * after destroy began.
 *
 * The rest goes to an RCU callback: the request also queues call_rcu() with an rcu_head embedded
 * in the table, at most once at a time (H9). It runs the same code as rcu_lfht_resize() (rcu.h
 * lets callbacks block and call synchronize_rcu()): it finishes a level that updaters began
 * (first, whatever the target: a shrink from the published count would leave its bucket nodes
 * linked), grows on if no updater did, and shrinks, which needs grace periods. That costs no
 * thread, inherits rcu.h's handling of exit, and the grace period before the callback runs
 * gathers a burst of shrink requests into one resize. While it shrinks a table it holds the
 * callback worker for about two grace periods per halving, and other callbacks wait that long
 * (RCU_CALLBACK_HIGH_WATER still bounds them: callers then help). liburcu runs a worker thread per
 * process for this; a thread per table would cost a thread per table; growing only in the
 * callback made growth wait for a grace period, which QSBR readers that report rarely stretch to
 * a second (liburcu's test_urcu_hash -A -U: the table stayed at 32 buckets for its whole run);
 * shrinking in the updater would make an add wait inside its read-side section.
 * rcu_lfht_destroy() and a pending resize meet on one atomic word (H9): whichever finishes last
 * frees the table.
 *
 * Automatic resizing (RCU_LFHT_AUTO_RESIZE). Growth: an add that passes 3 or more distinct
 * hashes in its bucket asks for 2^ceil(log2(chain)) times the buckets, while the table is small
 * (below RCU__LFHT_COMMIT nodes per counter slot with RCU_LFHT_ACCOUNTING, or always without
 * it). With RCU_LFHT_ACCOUNTING, per-slot counters commit to a global count every
 * RCU__LFHT_COMMIT additions or removals; a commit that finds at least 2 nodes per bucket asks
 * for the power of two at or above the count (one node per bucket or fewer); a removal commit
 * that finds at most one node per 8 buckets asks for the power of two at or above twice the
 * count. Only accounting shrinks a table. The bounds min (1) and max_nr_buckets always hold.
 *
 * Memory ordering. Labels H1..H10; each atomic names its order, and the prose at each says what
 * it pairs with. H1 and H5 (release) publish a node before it is reachable; H2 (consume) is every
 * walker's load of a link; H3/H4 publish a bucket level before the count that makes readers use
 * it; H7 (release) unlinks a marked node; H6 and H8 mark nodes; H9 is the resize_state word,
 * which hands resize requests to the callback and the table between destroy and the callback; H10
 * is the resize lock, which hands a level half built from one holder to the next; the counters
 * (statistics and policy only) are relaxed. An update's commit (H1, H5, H6) is a sequentially
 * consistent read-modify-write and, as in liburcu, a full memory barrier before and after it: on
 * x86 the locked instruction is one; elsewhere a fence on each side (rcu__lfht_mb()).
 *
 * Licence: 0BSD, as rcu.h.
 */
#ifndef RCU_LFHT_H
#define RCU_LFHT_H

#include "rcu.h"

RCU__EXTERN_C_BEGIN

/* >>types ------------------------------------------------------------------------------------- */

/**
 * struct rcu_lfht_node - embed one in each object that goes into a table.
 *
 * 16 bytes on 64-bit machines (two words: the link and the reversed hash), aligned to 8 (the
 * link's three low bits are flags). Belongs to the table from its add until a grace period after
 * its successful del or replacement; rcu_lfht_node_init() needs no call (it exists for liburcu's
 * API), rcu_lfht_node_init_deleted() makes rcu_lfht_is_node_deleted() true before any add.
 */
struct rcu_lfht_node {
	struct rcu_lfht_node *next; /* (atomic) successor; low bits RCU__LFHT_REMOVED, RCU__LFHT_BUCKET */
	unsigned long reverse_hash; /* the hash, bit-reversed; written before the node is linked */
} __attribute__((aligned(8)));

/**
 * struct rcu_lfht_iter - a position in a table: the node found and its link as it was read.
 *
 * Filled by lookups and iteration; rcu_lfht_iter_get_node() gives the node (NULL: none). Valid
 * while the read-side section that filled it lasts.
 */
struct rcu_lfht_iter {
	struct rcu_lfht_node *node, *next;
};

/** RCU_LFHT_AUTO_RESIZE - rcu_lfht_new() flag: resize automatically (see >>doc). */
#define RCU_LFHT_AUTO_RESIZE 1
/** RCU_LFHT_ACCOUNTING - rcu_lfht_new() flag: count nodes (per-slot counters; see >>doc). */
#define RCU_LFHT_ACCOUNTING 2

#define RCU__LFHT_BITS (__SIZEOF_LONG__ * 8)
/* Per counter slot: additions (or removals) between commits to the global count. */
#define RCU__LFHT_COMMIT 1024ul
/* Bucket nodes linked or unlinked per read-side section while resizing. */
#define RCU__LFHT_BATCH 1024ul
/*
 * Bucket nodes an updater links when it helps a growth (RCU__LFHT_SYM(help)): its bound on the
 * work one add does for the table. Not a configuration macro: it changes what a weak function
 * does without changing its symbol's tag, so units built with different values would share one
 * copy. Only a model checker's build (verify/genmc/lfht.c, which also sets RCU_MODEL_SELF) sets
 * it lower, through RCU__LFHT_MODEL_HELP_BATCH, to split a level of two bucket nodes between two
 * updaters; such a unit is the whole program.
 */
#if defined(RCU__LFHT_HELP_BATCH)
#error "rcu_lfht.h: RCU__LFHT_HELP_BATCH is not a configuration macro (a model checker's build sets RCU__LFHT_MODEL_HELP_BATCH)"
#elif defined(RCU__LFHT_MODEL_HELP_BATCH) && defined(RCU_MODEL_SELF)
#define RCU__LFHT_HELP_BATCH RCU__LFHT_MODEL_HELP_BATCH
#elif defined(RCU__LFHT_MODEL_HELP_BATCH)
#error "rcu_lfht.h: RCU__LFHT_MODEL_HELP_BATCH is for model checkers' builds only (with RCU_MODEL_SELF, see rcu.h)"
#else
#define RCU__LFHT_HELP_BATCH RCU__LFHT_BATCH
#endif

/* A split counter slot, on a cache line of its own. */
struct rcu__lfht_slot {
	unsigned long add, del; /* (atomic) free-running */
	char pad[RCU_CACHE_LINE - 2 * sizeof(unsigned long)];
};

/* resize_state bits (H9). */
enum rcu__lfht_resize_state {
	RCU__LFHT_QUEUED = 1,  /* the resize callback is queued or running */
	RCU__LFHT_AGAIN = 2,   /* a request came after the callback's last look at the target */
	RCU__LFHT_DESTROY = 4  /* rcu_lfht_destroy() ran: the callback stops and frees the table */
};

/**
 * struct rcu_lfht - a table. Opaque: make one with rcu_lfht_new(), free it with
 * rcu_lfht_destroy(). Its fields are private (they are here because lookups are inline).
 */
struct rcu_lfht {
	/* Read by every lookup. */
	unsigned long size;               /* (atomic) buckets in use: a power of two (H3, H4) */
	uintptr_t level_base[RCU__LFHT_BITS + 1]; /* (atomic) bucket i is at level_base[fls(i | 1)] + i
						     * nodes; set by the resizer before size (H3) */
	char pad_readers[RCU_CACHE_LINE];

	/* Updaters. */
	int flags;                        /* RCU_LFHT_AUTO_RESIZE | RCU_LFHT_ACCOUNTING */
	unsigned long max_buckets;        /* a power of two */
	unsigned max_level;               /* rcu__lfht_level(max_buckets - 1): the highest level used */
	unsigned long first_buckets;      /* bucket nodes in the first array: a power of two >= 2 */
	unsigned long resize_target;      /* (atomic) the size the resizer works towards */
	int32_t resize_state;             /* (atomic) enum rcu__lfht_resize_state (H9) */
	unsigned long slot_mask;          /* counter slots - 1 (0 without accounting) */
	long count;                       /* (atomic) committed node count (accounting) */
	struct rcu__lfht_slot *slots;     /* split counters (NULL without accounting) */
	char pad_updaters[RCU_CACHE_LINE];

	/* The resizer: under resize_lock (H10), or at creation and destruction. */
	pthread_mutex_t resize_lock;
	unsigned long grow_next;          /* the level being built, [size, 2 size): its bucket nodes
					   * [size, grow_next) are linked; 0: none is (see >>resize) */
	uint64_t pending_free;            /* levels unlinked by a shrink whose arrays await a grace period */
	void *level_mem[RCU__LFHT_BITS + 1]; /* each level's own array (NULL: none, or the first array) */
	void *first_mem;                  /* the first array */
	void *slots_mem;                  /* what was allocated for `slots` */
	struct rcu_head resize_head;      /* the resize callback's (H9) */
};

/* >>internals --------------------------------------------------------------------------------- */

/* The link's flags: they describe the node that holds the link. */
#define RCU__LFHT_REMOVED ((uintptr_t)1) /* logically deleted: the link is frozen */
#define RCU__LFHT_BUCKET ((uintptr_t)2)  /* a bucket node */
#define RCU__LFHT_FLAGS ((uintptr_t)7)

#define RCU__LFHT_SYM(n) RCU__SYM(lfht2_##n) /* 2: grow_next (the layout of struct rcu_lfht) */
#define rcu__lfht_fetch_or(p, v, mo) __atomic_fetch_or((p), (v), mo)
#define rcu__lfht_fetch_and(p, v, mo) __atomic_fetch_and((p), (v), mo)

static inline struct rcu_lfht_node *rcu__lfht_ptr(const struct rcu_lfht_node *link)
{
	return (struct rcu_lfht_node *)((uintptr_t)link & ~RCU__LFHT_FLAGS);
}

static inline uintptr_t rcu__lfht_flags(const struct rcu_lfht_node *link)
{
	return (uintptr_t)link & RCU__LFHT_FLAGS;
}

static inline struct rcu_lfht_node *rcu__lfht_link(const struct rcu_lfht_node *node, uintptr_t flags)
{
	return (struct rcu_lfht_node *)((uintptr_t)node | flags);
}

/*
 * v with its bits in reverse order: the split order's key. Clang's builtin, or a byte swap and
 * three swaps of bit groups; with RCU_C11_FENCES (a model checker's build, verify/genmc) shifts and
 * masks only, as GenMC's interpreter has neither builtin. Every way computes the same function.
 */
static inline unsigned long rcu__lfht_reverse(unsigned long v)
{
#if defined(RCU_C11_FENCES) && __SIZEOF_LONG__ == 8
	uint64_t x = (uint64_t)v;
	x = (x >> 32) | (x << 32);
	x = ((x >> 16) & 0x0000ffff0000ffffull) | ((x & 0x0000ffff0000ffffull) << 16);
	x = ((x >> 8) & 0x00ff00ff00ff00ffull) | ((x & 0x00ff00ff00ff00ffull) << 8);
	x = ((x >> 4) & 0x0f0f0f0f0f0f0f0full) | ((x & 0x0f0f0f0f0f0f0f0full) << 4);
	x = ((x >> 2) & 0x3333333333333333ull) | ((x & 0x3333333333333333ull) << 2);
	x = ((x >> 1) & 0x5555555555555555ull) | ((x & 0x5555555555555555ull) << 1);
	return (unsigned long)x;
#elif defined(__clang__) && __SIZEOF_LONG__ == 8
	return __builtin_bitreverse64(v);
#elif defined(__clang__)
	return __builtin_bitreverse32(v);
#elif __SIZEOF_LONG__ == 8
	uint64_t x = __builtin_bswap64((uint64_t)v);
	x = ((x >> 4) & 0x0f0f0f0f0f0f0f0full) | ((x & 0x0f0f0f0f0f0f0f0full) << 4);
	x = ((x >> 2) & 0x3333333333333333ull) | ((x & 0x3333333333333333ull) << 2);
	x = ((x >> 1) & 0x5555555555555555ull) | ((x & 0x5555555555555555ull) << 1);
	return (unsigned long)x;
#else
	uint32_t x = __builtin_bswap32((uint32_t)v);
	x = ((x >> 4) & 0x0f0f0f0fu) | ((x & 0x0f0f0f0fu) << 4);
	x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
	x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
	return (unsigned long)x;
#endif
}

/* The level of bucket index i: the position of its highest set bit, counted from 1 (0 and 1: 1). */
static inline unsigned rcu__lfht_level(unsigned long i)
{
	return (unsigned)(RCU__LFHT_BITS - __builtin_clzl(i | 1ul));
}

/* The smallest power of two >= x (1 for 0), at most 2^(bits - 1). */
static inline unsigned long rcu__lfht_pow2(unsigned long x)
{
	if (x <= 1)
		return 1;
	if (x > (1ul << (RCU__LFHT_BITS - 1)))
		return 1ul << (RCU__LFHT_BITS - 1);
	return 1ul << rcu__lfht_level(x - 1);
}

/* Bucket node i (i below the size the caller read, or below the size being built). */
static inline struct rcu_lfht_node *rcu__lfht_bucket(const struct rcu_lfht *ht, unsigned long i)
{
	uintptr_t base = rcu__load(&ht->level_base[rcu__lfht_level(i)], RCU__RELAXED);
	return (struct rcu_lfht_node *)(base + i * sizeof(struct rcu_lfht_node));
}

/* A node's link, as every walk loads it. */
static inline struct rcu_lfht_node *rcu__lfht_load_link(const struct rcu_lfht_node *node)
{
	/*
	 * H2: consume (acquire in practice, free on x86 and on Arm through the address
	 * dependency): the node the link leads to is seen initialised. Pairs with H1 and H5 (the
	 * releases that linked it) and H7 (the release that unlinked its predecessor).
	 */
	return rcu__load(&node->next, RCU__CONSUME);
}

/*
 * The full barrier around an update's commit that liburcu documents: on x86 the commit's locked
 * instruction is one already; elsewhere a seq_cst read-modify-write orders less, and a fence on
 * each side makes it full. RCU__LFHT_NO_CALLER_MB (verify/genmc only) leaves the fences out, so
 * that the model checker sees the orders the table itself relies on, not a stronger program.
 */
#if defined(RCU__LFHT_NO_CALLER_MB) || ((defined(__x86_64__) || defined(__i386__)) && !defined(RCU_C11_FENCES))
#define rcu__lfht_mb() rcu__fence_compiler()
#else
#define rcu__lfht_mb() rcu__fence_full()
#endif

#define RCU__LFHT_RULE_READER \
	"called outside a read-side critical section: the nodes it walks may be reclaimed under it (QSBR: the thread must be online)"
#define RCU__LFHT_CHECK_READER(call) RCU__CHECK(rcu_read_ongoing(), call, RCU__LFHT_RULE_READER)

/* Where an update's walk stops (see rcu__lfht_find). */
enum rcu__lfht_place {
	RCU__LFHT_AFTER_EQUAL = 0, /* behind every node of equal reversed hash (add, and gc) */
	RCU__LFHT_BEFORE_EQUAL,    /* in front of the regular nodes of equal reversed hash (add_unique) */
	RCU__LFHT_BUCKET_PLACE     /* in front of every node of equal reversed hash (a bucket node) */
};

/* A position between two nodes: prev (unmarked when read) and its link as read then. */
struct rcu__lfht_pos {
	struct rcu_lfht_node *prev;
	struct rcu_lfht_node *link; /* prev->next: the next node, with prev's flags */
	unsigned chain;             /* distinct hashes of regular nodes passed from the bucket */
};

/* Slow paths, one copy per program. */
void RCU__LFHT_SYM(find)(struct rcu_lfht_node *start, unsigned long rev, int place, struct rcu__lfht_pos *pos);
struct rcu_lfht_node *RCU__LFHT_SYM(insert)(struct rcu_lfht *ht, unsigned long size, unsigned long hash,
					    struct rcu_lfht_node *node, int (*match)(struct rcu_lfht_node *, const void *),
					    const void *key, struct rcu_lfht_iter *found, bool *helped);
int RCU__LFHT_SYM(replace)(struct rcu_lfht *ht, unsigned long size, struct rcu_lfht_node *old,
			   struct rcu_lfht_node *old_next, struct rcu_lfht_node *node);
int RCU__LFHT_SYM(del)(struct rcu_lfht *ht, unsigned long size, struct rcu_lfht_node *node);
void RCU__LFHT_SYM(commit)(struct rcu_lfht *ht, unsigned long size, bool removal, bool helped);
void RCU__LFHT_SYM(request)(struct rcu_lfht *ht, unsigned long size, unsigned long want, bool help);
void RCU__LFHT_SYM(kick)(struct rcu_lfht *ht);
void RCU__LFHT_SYM(help)(struct rcu_lfht *ht);
void RCU__LFHT_SYM(resize_locked)(struct rcu_lfht *ht);
void RCU__LFHT_SYM(resize_cb)(struct rcu_head *head);
void RCU__LFHT_SYM(free)(struct rcu_lfht *ht);
struct rcu_lfht *RCU__LFHT_SYM(new)(unsigned long init_size, unsigned long min_nr_alloc_buckets,
				    unsigned long max_nr_buckets, int flags);
int RCU__LFHT_SYM(destroy)(struct rcu_lfht *ht);
void RCU__LFHT_SYM(resize)(struct rcu_lfht *ht, unsigned long new_size);
void RCU__LFHT_SYM(count_nodes)(struct rcu_lfht *ht, long *approx_before, unsigned long *count, long *approx_after);

/*
 * The walk every update shares: from bucket node `start`, to the position where a node of
 * reversed hash `rev` goes (`place`), unlinking marked nodes met on the way (H7). On return
 * pos->prev was unmarked when its link was read, so the position was in the list then.
 */
RCU__WEAK void RCU__LFHT_SYM(find)(struct rcu_lfht_node *start, unsigned long rev, int place, struct rcu__lfht_pos *pos)
{
restart:;
	struct rcu_lfht_node *prev = start;
	struct rcu_lfht_node *link = rcu__lfht_load_link(prev);
	unsigned long last = start->reverse_hash;
	unsigned chain = 0;
	for (;;) {
		struct rcu_lfht_node *n = rcu__lfht_ptr(link);
		if (!n || n->reverse_hash > rev)
			break;
		struct rcu_lfht_node *next = rcu__lfht_load_link(n);
		if (rcu__lfht_flags(next) & RCU__LFHT_REMOVED) {
			struct rcu_lfht_node *past = rcu__lfht_link(rcu__lfht_ptr(next), rcu__lfht_flags(link));
			RCU__DELAY();
			/*
			 * H7: unlink the marked node n: release, so that a walker that reaches n's
			 * successor through prev sees it initialised (we saw it through n's link, H2,
			 * and pass that on); pairs with H2.
			 */
			if (rcu__cas(&prev->next, &link, past, RCU__RELEASE, RCU__RELAXED)) {
				link = past;
				continue;
			}
			/*
			 * H7: prev's link changed (an insert behind prev, another unlink, a mark) and
			 * may lead to a node this thread has never synchronised with. The failed CAS
			 * read it relaxed: C11 wants a failure order no stronger than the success's
			 * (acquire and release are not comparable), and GenMC gives a failed CAS the
			 * read half of the success order, so a consume failure order would be neither
			 * portable nor checked. Load it again with H2's order before following it;
			 * pairs with the release (H1, H5, H7) that wrote it. GenMC: verify/genmc/lfht.c,
			 * test unlink_race (which fails without this load's consume).
			 */
			link = rcu__load(&prev->next, RCU__CONSUME);
			if (rcu__lfht_flags(link) & RCU__LFHT_REMOVED)
				goto restart; /* prev was marked meanwhile: it may be gone from the list */
			continue;     /* go on from what prev holds now */
		}
		if (n->reverse_hash == rev &&
		    (place == RCU__LFHT_BUCKET_PLACE ||
		     (place == RCU__LFHT_BEFORE_EQUAL && !(rcu__lfht_flags(next) & RCU__LFHT_BUCKET))))
			break;
		if (!(rcu__lfht_flags(next) & RCU__LFHT_BUCKET) && n->reverse_hash != last)
			chain++;
		last = n->reverse_hash;
		prev = n;
		link = next;
	}
	pos->prev = prev;
	pos->link = link;
	pos->chain = chain;
}

/*
 * The counter slot of the calling thread: its reader record's address, hashed. Threads keep
 * their slot, so a thread's counting stays on one line; threads on other CPUs rarely share one.
 */
static inline struct rcu__lfht_slot *rcu__lfht_my_slot(const struct rcu_lfht *ht)
{
	uintptr_t a = (uintptr_t)rcu__self() / RCU_CACHE_LINE;
	a *= (uintptr_t)0x9e3779b97f4a7c15ull;
	return &ht->slots[(a >> (sizeof(uintptr_t) * 8 - 16)) & ht->slot_mask];
}

/*
 * Accounting: count an addition or a removal; every RCU__LFHT_COMMIT per slot, commit. `helped`:
 * the update has helped a growth already (insert()'s chain rule): the commit does not help again.
 */
static inline void rcu__lfht_count(struct rcu_lfht *ht, unsigned long size, bool removal, bool helped)
{
	if (!ht->slots)
		return;
	struct rcu__lfht_slot *s = rcu__lfht_my_slot(ht);
	/* Relaxed: statistics and resize policy only. */
	unsigned long n = rcu__fetch_add(removal ? &s->del : &s->add, 1ul, RCU__RELAXED) + 1;
	if (RCU__UNLIKELY((n & (RCU__LFHT_COMMIT - 1)) == 0))
		RCU__LFHT_SYM(commit)(ht, size, removal, helped);
}

/* >>read -------------------------------------------------------------------------------------- */

/**
 * rcu_lfht_lookup() - find the first node of hash `hash` for which match(node, key) is true.
 *
 * iter->node is the node, or NULL. Inside a read-side section (RCU_DEBUG aborts otherwise); the
 * node stays valid until the section ends. Wait-free: it walks forward from one bucket node and
 * never retries, writes or waits; a node present for the whole lookup is found, whatever
 * updates and resizes run meanwhile. Acts as rcu_dereference() of the node. Cost: the bucket
 * count's load, a bit reversal, the bucket's address (a bit scan and a load), then per node
 * passed two loads and a compare, and match() for nodes of equal hash (inlined when the caller
 * passes a known function).
 */
static inline void rcu_lfht_lookup(struct rcu_lfht *ht, unsigned long hash,
				   int (*match)(struct rcu_lfht_node *node, const void *key), const void *key,
				   struct rcu_lfht_iter *iter)
{
	RCU__LFHT_CHECK_READER("rcu_lfht_lookup()");
	unsigned long rev = rcu__lfht_reverse(hash);
	/* H4: acquire: the bucket level and its nodes, published before the count (H3). */
	unsigned long size = rcu__load(&ht->size, RCU__ACQUIRE);
	RCU__DELAY();
	struct rcu_lfht_node *n = rcu__lfht_ptr(rcu__lfht_load_link(rcu__lfht_bucket(ht, hash & (size - 1))));
	struct rcu_lfht_node *next = NULL;
	for (; n; n = rcu__lfht_ptr(next)) {
		unsigned long r = n->reverse_hash;
		if (r > rev) {
			n = NULL;
			break;
		}
		next = rcu__lfht_load_link(n);
		if (r == rev && !(rcu__lfht_flags(next) & (RCU__LFHT_REMOVED | RCU__LFHT_BUCKET)) && match(n, key))
			break;
	}
	iter->node = n;
	iter->next = n ? next : NULL;
}

/**
 * rcu_lfht_next_duplicate() - the next node after iter of the same hash for which match() is true.
 *
 * iter must come from a lookup, an iteration or a failed add_unique in the same read-side
 * section; iter->node becomes the node or NULL. Wait-free, as rcu_lfht_lookup().
 */
static inline void rcu_lfht_next_duplicate(struct rcu_lfht *ht, int (*match)(struct rcu_lfht_node *node, const void *key),
					   const void *key, struct rcu_lfht_iter *iter)
{
	(void)ht;
	RCU__LFHT_CHECK_READER("rcu_lfht_next_duplicate()");
	unsigned long rev = iter->node->reverse_hash;
	struct rcu_lfht_node *n = rcu__lfht_ptr(iter->next), *next = NULL;
	for (; n; n = rcu__lfht_ptr(next)) {
		if (n->reverse_hash > rev) {
			n = NULL;
			break;
		}
		next = rcu__lfht_load_link(n);
		if (!(rcu__lfht_flags(next) & (RCU__LFHT_REMOVED | RCU__LFHT_BUCKET)) && match(n, key))
			break;
	}
	iter->node = n;
	iter->next = n ? next : NULL;
}

/**
 * rcu_lfht_next() - the node after iter in the table's order (NULL after the last).
 *
 * Inside a read-side section. Wait-free. With rcu_lfht_first(), visits every node present for
 * the whole iteration exactly once, in hash-reversed order, and never a node removed before the
 * iteration began; nodes added or removed meanwhile may or may not be visited. Acts as
 * rcu_dereference() of the node.
 */
static inline void rcu_lfht_next(struct rcu_lfht *ht, struct rcu_lfht_iter *iter)
{
	(void)ht;
	RCU__LFHT_CHECK_READER("rcu_lfht_next()");
	struct rcu_lfht_node *n = rcu__lfht_ptr(iter->next), *next = NULL;
	for (; n; n = rcu__lfht_ptr(next)) {
		next = rcu__lfht_load_link(n);
		if (!(rcu__lfht_flags(next) & (RCU__LFHT_REMOVED | RCU__LFHT_BUCKET)))
			break;
	}
	iter->node = n;
	iter->next = n ? next : NULL;
}

/**
 * rcu_lfht_first() - the first node of the table (NULL if empty): start an iteration.
 *
 * Inside a read-side section. Wait-free. See rcu_lfht_next().
 */
static inline void rcu_lfht_first(struct rcu_lfht *ht, struct rcu_lfht_iter *iter)
{
	RCU__LFHT_CHECK_READER("rcu_lfht_first()");
	iter->next = rcu__lfht_load_link(rcu__lfht_bucket(ht, 0)); /* with H2; bucket 0 is never removed */
	rcu_lfht_next(ht, iter);
}

/** rcu_lfht_iter_get_node() - the node an iterator holds, or NULL. */
static inline struct rcu_lfht_node *rcu_lfht_iter_get_node(const struct rcu_lfht_iter *iter)
{
	return iter->node;
}

/* >>update ------------------------------------------------------------------------------------ */

/**
 * rcu_lfht_node_init() - nothing to do (liburcu's API has it); any node may be added as it is.
 */
static inline void rcu_lfht_node_init(struct rcu_lfht_node *node)
{
	(void)node;
}

/**
 * rcu_lfht_node_init_deleted() - mark a node not in any table as removed.
 *
 * rcu_lfht_is_node_deleted() is then true for it until it is added.
 */
static inline void rcu_lfht_node_init_deleted(struct rcu_lfht_node *node)
{
	rcu__store(&node->next, rcu__lfht_link(NULL, RCU__LFHT_REMOVED), RCU__RELAXED);
	node->reverse_hash = 0;
}

/*
 * Insert `node` (reverse_hash set) into bucket (hash mod size). Without match: behind the nodes of
 * equal hash, and returns node. With match: only if no node of equal hash matches key; returns
 * node, or the node found (and `found` holds its position, for replace). Sets *helped if it asked
 * for growth (its chain rule), which helped: the caller's commit must not help again.
 */
RCU__WEAK struct rcu_lfht_node *RCU__LFHT_SYM(insert)(struct rcu_lfht *ht, unsigned long size, unsigned long hash,
						     struct rcu_lfht_node *node,
						     int (*match)(struct rcu_lfht_node *, const void *),
						     const void *key, struct rcu_lfht_iter *found, bool *helped)
{
	RCU__DELAY(); /* the size read and the walk from its bucket: resizes run in between */
	struct rcu_lfht_node *start = rcu__lfht_bucket(ht, hash & (size - 1));
	unsigned long rev = node->reverse_hash;
	struct rcu__lfht_pos pos;
	for (;;) {
		RCU__LFHT_SYM(find)(start, rev, match ? RCU__LFHT_BEFORE_EQUAL : RCU__LFHT_AFTER_EQUAL, &pos);
		if (match) {
			/* The run of equal hash that begins at pos.link: a live node that matches wins. */
			struct rcu_lfht_node *n = rcu__lfht_ptr(pos.link);
			for (; n && n->reverse_hash == rev;) {
				struct rcu_lfht_node *next = rcu__lfht_load_link(n);
				if (!(rcu__lfht_flags(next) & (RCU__LFHT_REMOVED | RCU__LFHT_BUCKET)) && match(n, key)) {
					found->node = n;
					found->next = next;
					return n;
				}
				n = rcu__lfht_ptr(next);
			}
		}
		rcu__store(&node->next, rcu__lfht_ptr(pos.link), RCU__RELAXED);
		struct rcu_lfht_node *expected = pos.link;
		RCU__DELAY();
		/*
		 * H1: link node behind pos.prev: release (seq_cst, for the caller's barrier), so that
		 * a walker that reaches node sees it and the caller's object initialised; pairs with H2.
		 * It fails if prev was marked or its link changed since the walk read it: walk again.
		 */
		if (rcu__cas(&pos.prev->next, &expected, rcu__lfht_link(node, rcu__lfht_flags(pos.link)),
			     RCU__SEQ_CST, RCU__RELAXED))
			break;
	}
	if (RCU__UNLIKELY(pos.chain >= 3) && (ht->flags & RCU_LFHT_AUTO_RESIZE) &&
	    (!ht->slots || (unsigned long)rcu__load(&ht->count, RCU__RELAXED) < RCU__LFHT_COMMIT * (ht->slot_mask + 1))) {
		/* A long chain in a small table (or one without accounting): grow by its length. */
		unsigned g = rcu__lfht_level(pos.chain - 1);
		unsigned long want = size > (ht->max_buckets >> g) ? ht->max_buckets : size << g;
		if (ht->slots && want > rcu__lfht_pow2(RCU__LFHT_COMMIT * (ht->slot_mask + 1)))
			want = rcu__lfht_pow2(RCU__LFHT_COMMIT * (ht->slot_mask + 1));
		if (want > size) {
			RCU__LFHT_SYM(request)(ht, size, want, true);
			*helped = true;
		}
	}
	return node;
}

/**
 * rcu_lfht_add() - add node under hash; nodes of equal hash and key may already be there.
 *
 * Inside a read-side section (RCU_DEBUG aborts otherwise). Lock-free. May request a resize (a
 * call_rcu()) and help a growth, once per call: a trylock, then at most RCU__LFHT_HELP_BATCH
 * bucket nodes linked, and the malloc() of a level's array by the add that begins it (see >>doc);
 * it never waits. A full memory barrier before and after the commit (H1). The node is visible to
 * every lookup that starts after the call returns.
 */
static inline void rcu_lfht_add(struct rcu_lfht *ht, unsigned long hash, struct rcu_lfht_node *node)
{
	RCU__LFHT_CHECK_READER("rcu_lfht_add()");
	node->reverse_hash = rcu__lfht_reverse(hash);
	unsigned long size = rcu__load(&ht->size, RCU__ACQUIRE); /* H4 */
	rcu__lfht_mb();
	bool helped = false;
	RCU__LFHT_SYM(insert)(ht, size, hash, node, NULL, NULL, NULL, &helped);
	rcu__lfht_mb();
	rcu__lfht_count(ht, size, false, helped);
}

/**
 * rcu_lfht_add_unique() - add node unless a node of equal hash matches key; returns the winner.
 *
 * Returns node if it was added, or the node already present (node is then untouched by the
 * table: free or reuse it at once, no grace period needed). A key added only with add_unique and
 * add_replace is never in the table twice, even while they race: exactly one of N concurrent
 * add_unique() calls of a key succeeds. Inside a read-side section. Lock-free. On success a
 * full barrier before and after the commit (H1), and it may request a resize and help a growth
 * as rcu_lfht_add() does; on failure it acts as a lookup.
 */
static inline struct rcu_lfht_node *rcu_lfht_add_unique(struct rcu_lfht *ht, unsigned long hash,
							int (*match)(struct rcu_lfht_node *node, const void *key),
							const void *key, struct rcu_lfht_node *node)
{
	RCU__LFHT_CHECK_READER("rcu_lfht_add_unique()");
	struct rcu_lfht_iter found;
	node->reverse_hash = rcu__lfht_reverse(hash);
	unsigned long size = rcu__load(&ht->size, RCU__ACQUIRE); /* H4 */
	rcu__lfht_mb();
	bool helped = false;
	struct rcu_lfht_node *ret = RCU__LFHT_SYM(insert)(ht, size, hash, node, match, key, &found, &helped);
	if (ret == node) {
		rcu__lfht_mb();
		rcu__lfht_count(ht, size, false, helped);
	}
	return ret;
}

/**
 * rcu_lfht_add_replace() - add node, replacing the node of equal hash that matches key if any.
 *
 * Returns the node replaced (reclaim it after a grace period) or NULL if none was there. A
 * lookup of the key that runs meanwhile finds exactly one of the two. Never fails. Inside a
 * read-side section. Lock-free. A full barrier before and after the commit (H1 or H5). When it
 * adds without replacing, it may request a resize and help a growth as rcu_lfht_add() does.
 */
static inline struct rcu_lfht_node *rcu_lfht_add_replace(struct rcu_lfht *ht, unsigned long hash,
							 int (*match)(struct rcu_lfht_node *node, const void *key),
							 const void *key, struct rcu_lfht_node *node)
{
	RCU__LFHT_CHECK_READER("rcu_lfht_add_replace()");
	struct rcu_lfht_iter found;
	node->reverse_hash = rcu__lfht_reverse(hash);
	unsigned long size = rcu__load(&ht->size, RCU__ACQUIRE); /* H4 */
	rcu__lfht_mb();
	bool helped = false;
	for (;;) {
		struct rcu_lfht_node *old = RCU__LFHT_SYM(insert)(ht, size, hash, node, match, key, &found, &helped);
		if (old == node) {
			rcu__lfht_mb();
			rcu__lfht_count(ht, size, false, helped);
			return NULL;
		}
		if (RCU__LFHT_SYM(replace)(ht, size, old, found.next, node) == 0) {
			rcu__lfht_mb();
			return old;
		}
	}
}

/**
 * rcu_lfht_replace() - put new_node where old_iter's node is, atomically for readers.
 *
 * old_iter comes from a lookup or iteration in the same read-side section; hash and key must be
 * old's (match(old, key) true and equal hashes) or it returns -EINVAL; a NULL or already removed
 * node gives -ENOENT; 0 on success: reclaim the old node after a grace period. A lookup that
 * runs meanwhile finds exactly one of the two. Lock-free. On success a full barrier before and
 * after the commit (H5); none on failure.
 */
static inline int rcu_lfht_replace(struct rcu_lfht *ht, struct rcu_lfht_iter *old_iter, unsigned long hash,
				   int (*match)(struct rcu_lfht_node *node, const void *key), const void *key,
				   struct rcu_lfht_node *new_node)
{
	RCU__LFHT_CHECK_READER("rcu_lfht_replace()");
	new_node->reverse_hash = rcu__lfht_reverse(hash);
	struct rcu_lfht_node *old = old_iter->node;
	if (!old)
		return -ENOENT;
	if (old->reverse_hash != new_node->reverse_hash || !match(old, key))
		return -EINVAL;
	unsigned long size = rcu__load(&ht->size, RCU__ACQUIRE); /* H4 */
	rcu__lfht_mb();
	int ret = RCU__LFHT_SYM(replace)(ht, size, old, old_iter->next, new_node);
	if (ret == 0)
		rcu__lfht_mb();
	return ret;
}

/*
 * Link node behind old and mark old, in one compare-and-swap of old's link (old_next: its link
 * as last read), then unlink old. 0, or -ENOENT if old was marked first (by a del or a replace).
 */
RCU__WEAK int RCU__LFHT_SYM(replace)(struct rcu_lfht *ht, unsigned long size, struct rcu_lfht_node *old,
				     struct rcu_lfht_node *old_next, struct rcu_lfht_node *node)
{
	for (;;) {
		if (rcu__lfht_flags(old_next) & RCU__LFHT_REMOVED)
			return -ENOENT;
		rcu__store(&node->next, old_next, RCU__RELAXED);
		RCU__DELAY();
		/*
		 * H5: release (seq_cst, for the caller's barrier): node is initialised before a walker
		 * reaches it through old's link; pairs with H2. The same write marks old, so a walker
		 * on old either reads the old link (and takes old) or the new one (skips old, takes node).
		 * Failure: relaxed, though the retry copies the link it read (old's new successor) into
		 * node and our find below follows it: the CAS that succeeds is a read-modify-write of
		 * old's link, so it continues the release sequence of the store (H1, H5, H7) that wrote
		 * that successor, and whoever reads it with H2 (our find, before its H7, included)
		 * synchronises with that store. GenMC: verify/genmc/lfht.c, test replace, which takes
		 * the retry; lfht.sh checks it also with H5's own acquire taken away (H5:release).
		 */
		if (rcu__cas(&old->next, &old_next, rcu__lfht_link(node, RCU__LFHT_REMOVED), RCU__SEQ_CST, RCU__RELAXED))
			break;
	}
	struct rcu__lfht_pos pos;
	unsigned long rev = old->reverse_hash;
	RCU__LFHT_SYM(find)(rcu__lfht_bucket(ht, rcu__lfht_reverse(rev) & (size - 1)), rev, RCU__LFHT_AFTER_EQUAL, &pos);
	return 0;
}

/* Mark node, then unlink it: 0, or -ENOENT if it was marked already. */
RCU__WEAK int RCU__LFHT_SYM(del)(struct rcu_lfht *ht, unsigned long size, struct rcu_lfht_node *node)
{
	RCU__DELAY();
	struct rcu_lfht_node *link = rcu__load(&node->next, RCU__RELAXED);
	for (;;) {
		if (rcu__lfht_flags(link) & RCU__LFHT_REMOVED)
			return -ENOENT;
		/*
		 * H6: mark node: the thread whose CAS sets the bit owns the removal, and the link is
		 * frozen (every other CAS on it now fails). seq_cst for the caller's barrier; the table
		 * needs only the atomicity: the walk below reads links with H2.
		 */
		if (rcu__cas(&node->next, &link, rcu__lfht_link(link, RCU__LFHT_REMOVED), RCU__SEQ_CST, RCU__RELAXED))
			break;
	}
	struct rcu__lfht_pos pos;
	unsigned long rev = node->reverse_hash;
	RCU__LFHT_SYM(find)(rcu__lfht_bucket(ht, rcu__lfht_reverse(rev) & (size - 1)), rev, RCU__LFHT_AFTER_EQUAL, &pos);
	return 0;
}

/**
 * rcu_lfht_del() - remove node from the table: 0, or -ENOENT if it is NULL or already removed.
 *
 * Of several concurrent removals (or a removal and a replace) of one node, exactly one returns 0;
 * that caller owns the node and reclaims it after a grace period (call_rcu()). When it returns 0
 * the node is unreachable: lookups that start afterwards do not find it. Inside a read-side
 * section (the node typically comes from a lookup in the same section). Lock-free. On success a
 * full barrier before and after the commit (H6); none on failure.
 */
static inline int rcu_lfht_del(struct rcu_lfht *ht, struct rcu_lfht_node *node)
{
	RCU__LFHT_CHECK_READER("rcu_lfht_del()");
	if (!node)
		return -ENOENT;
	unsigned long size = rcu__load(&ht->size, RCU__ACQUIRE); /* H4 */
	rcu__lfht_mb();
	int ret = RCU__LFHT_SYM(del)(ht, size, node);
	if (ret == 0) {
		rcu__lfht_mb();
		rcu__lfht_count(ht, size, true, false);
	}
	return ret;
}

/**
 * rcu_lfht_is_node_deleted() - has node been removed (or replaced)? No barrier; callable by
 * readers in the section that found the node, and on nodes set up by rcu_lfht_node_init_deleted().
 */
static inline bool rcu_lfht_is_node_deleted(const struct rcu_lfht_node *node)
{
	return (rcu__lfht_flags(rcu__load(&node->next, RCU__RELAXED)) & RCU__LFHT_REMOVED) != 0;
}

/* >>resize ------------------------------------------------------------------------------------ */

/*
 * The resizer's read-side sections, in chunks of RCU__LFHT_BATCH buckets. QSBR: an offline caller
 * goes online for the chunk (rcu_lfht_resize() needs a registered thread, as in liburcu); an
 * online one reports a quiescent state after it (it holds no reference: it is outside
 * read-side sections, or a callback) by going offline and online again, not with
 * rcu_quiescent_state(): above RCU_CALLBACK_HIGH_WATER that runs a batch of callbacks on the
 * calling thread, and the batch may hold this table's resize callback, which would wait for the
 * resize lock that we hold.
 */
static inline bool rcu__lfht_enter(void)
{
#if defined(RCU_FLAVOUR_QSBR)
	if (rcu_read_ongoing())
		return false;
	rcu_thread_online();
	return true;
#else
	rcu_read_lock();
	return false;
#endif
}

static inline void rcu__lfht_exit(bool went_online)
{
#if defined(RCU_FLAVOUR_QSBR)
	rcu_thread_offline();
	if (!went_online)
		rcu_thread_online();
#else
	(void)went_online;
	rcu_read_unlock();
#endif
}

/*
 * The resize lock. Its holder waits for grace periods, so a QSBR thread that must wait for it
 * goes offline meanwhile (an online waiter would hold up the holder's grace period forever).
 * Never waited for inside a read-side section: there, updaters only try it (help()).
 * H10: the lock (acquire) and the unlock (release) carry a level that is partly built (its
 * array, base address, linked bucket nodes and grow_next) from one holder to the next, which
 * resumes it and whose H3 publishes it; pairs with itself. Holders: the resize callback,
 * rcu_lfht_resize(), destroy (outside a section), and updaters helping a growth.
 */
static inline void rcu__lfht_lock(struct rcu_lfht *ht)
{
	if (pthread_mutex_trylock(&ht->resize_lock) == 0)
		return;
#if defined(RCU_FLAVOUR_QSBR)
	bool online = rcu_read_ongoing();
	if (online)
		rcu_thread_offline();
	pthread_mutex_lock(&ht->resize_lock);
	if (online)
		rcu_thread_online();
#else
	pthread_mutex_lock(&ht->resize_lock);
#endif
}

static inline void rcu__lfht_unlock(struct rcu_lfht *ht)
{
	pthread_mutex_unlock(&ht->resize_lock);
}

/* Who else may walk the table while a resizer links bucket nodes, and which section covers it. */
enum rcu__lfht_walkers {
	RCU__LFHT_ALONE = 0,    /* nobody: rcu_lfht_new() */
	RCU__LFHT_OWN_SECTIONS, /* others: the resizer enters a section per batch (callback, rcu_lfht_resize()) */
	RCU__LFHT_IN_SECTION    /* others: the resizer is an updater inside its own section (help()): it
				 * must neither leave it nor, in QSBR, report a quiescent state */
};

/*
 * Link the bucket nodes [grow_next, to) of the level being built, [size, 2 size), each behind its
 * parent (bucket i - size, which exists), advancing grow_next after each. Under resize_lock.
 * Idempotent: a bucket node already linked (the walk from its parent meets it) is skipped, not
 * linked again (storing its link before the CAS would make it point to itself: a loop). Only a
 * holder that stopped between its CAS and the cursor's store leaves one behind, which today
 * means a fork that left the lock held (docs/lfht.md); the check costs one compare per link.
 */
static inline void rcu__lfht_link_buckets(struct rcu_lfht *ht, unsigned long size, unsigned long to,
					  enum rcu__lfht_walkers walkers)
{
	while (ht->grow_next < to) {
		unsigned long end = to - ht->grow_next > RCU__LFHT_BATCH ? ht->grow_next + RCU__LFHT_BATCH : to;
		bool online = walkers == RCU__LFHT_OWN_SECTIONS ? rcu__lfht_enter() : false;
		for (unsigned long i = ht->grow_next; i < end; i++) {
			struct rcu_lfht_node *b = rcu__lfht_bucket(ht, i);
			b->reverse_hash = rcu__lfht_reverse(i);
			struct rcu__lfht_pos pos;
			for (;;) {
				RCU__LFHT_SYM(find)(rcu__lfht_bucket(ht, i - size), b->reverse_hash, RCU__LFHT_BUCKET_PLACE, &pos);
				if (rcu__lfht_ptr(pos.link) == b)
					break; /* linked already */
				rcu__store(&b->next, rcu__lfht_link(rcu__lfht_ptr(pos.link), RCU__LFHT_BUCKET), RCU__RELAXED);
				struct rcu_lfht_node *expected = pos.link;
				/* H1, for a bucket node: release, as above; pairs with H2. */
				if (rcu__cas(&pos.prev->next, &expected, rcu__lfht_link(b, rcu__lfht_flags(pos.link)),
					     RCU__RELEASE, RCU__RELAXED))
					break;
			}
			ht->grow_next = i + 1; /* under resize_lock: the next holder resumes here (H10) */
		}
		if (walkers == RCU__LFHT_OWN_SECTIONS)
			rcu__lfht_exit(online);
	}
}

/* Mark and unlink the bucket nodes of [from, to), whose parents (i - from) stay. */
static inline void rcu__lfht_unlink_buckets(struct rcu_lfht *ht, unsigned long from, unsigned long to)
{
	for (unsigned long i = from; i < to;) {
		bool online = rcu__lfht_enter();
		unsigned long end = to - i > RCU__LFHT_BATCH ? i + RCU__LFHT_BATCH : to;
		for (; i < end; i++) {
			struct rcu_lfht_node *b = rcu__lfht_bucket(ht, i);
			struct rcu_lfht_node *link = rcu__load(&b->next, RCU__RELAXED);
			/*
			 * H8: mark the bucket node: only the atomicity matters (its link freezes; an
			 * insert behind it fails and walks again from its own, lower bucket). Relaxed:
			 * the grace period before this step ordered every update that used it as a start.
			 */
			while (!rcu__cas(&b->next, &link, rcu__lfht_link(link, RCU__LFHT_REMOVED), RCU__RELAXED, RCU__RELAXED))
				;
			struct rcu__lfht_pos pos;
			RCU__LFHT_SYM(find)(rcu__lfht_bucket(ht, i - from), b->reverse_hash, RCU__LFHT_AFTER_EQUAL, &pos);
		}
		rcu__lfht_exit(online);
	}
}

/* Free the arrays of levels that a shrink unlinked; a grace period has passed since. */
static inline void rcu__lfht_free_pending(struct rcu_lfht *ht)
{
	for (; ht->pending_free; ht->pending_free &= ht->pending_free - 1) {
		unsigned l = (unsigned)__builtin_ctzll(ht->pending_free);
		free(ht->level_mem[l]);
		ht->level_mem[l] = NULL;
	}
}

/* What a step of growth did. */
enum rcu__lfht_grown {
	RCU__LFHT_GROWN = 0,  /* the level is complete and the doubled count published */
	RCU__LFHT_GROWING,    /* bucket nodes were linked; the level is not complete */
	RCU__LFHT_NO_MEMORY   /* the level's array could not be allocated: nothing changed */
};

/*
 * Build the level above `size` (the count published now) for at most `budget` bucket nodes,
 * from where the last holder of resize_lock stopped (grow_next; none: allocate the level's
 * array first); when the level is complete, publish the doubled count (H3). Under resize_lock.
 */
static inline enum rcu__lfht_grown rcu__lfht_grow(struct rcu_lfht *ht, unsigned long size, unsigned long budget,
						  enum rcu__lfht_walkers walkers)
{
	if (!ht->grow_next) {
		unsigned l = rcu__lfht_level(size); /* the level of [size, 2 size) */
		if (2 * size > ht->first_buckets) {
			void *mem = malloc(size * sizeof(struct rcu_lfht_node));
			if (!mem)
				return RCU__LFHT_NO_MEMORY;
			ht->level_mem[l] = mem;
			/* Relaxed: walkers use it after H4 (H3 publishes it), resizers under the lock (H10). */
			rcu__store(&ht->level_base[l], (uintptr_t)mem - size * sizeof(struct rcu_lfht_node), RCU__RELAXED);
		}
		ht->grow_next = size;
	}
	unsigned long to = 2 * size - ht->grow_next > budget ? ht->grow_next + budget : 2 * size;
	rcu__lfht_link_buckets(ht, size, to, walkers);
	if (ht->grow_next < 2 * size)
		return RCU__LFHT_GROWING;
	ht->grow_next = 0;
	/*
	 * H3: publish the doubled count: release, so that a thread that reads it (H4, acquire) sees
	 * the level's base address and its linked, initialised bucket nodes, those linked by earlier
	 * holders of resize_lock included (their unlock, H10, happens before our lock); pairs with H4.
	 */
	rcu__store(&ht->size, 2 * size, RCU__RELEASE);
	return RCU__LFHT_GROWN;
}

/* Halve the buckets from `size`. */
static inline void rcu__lfht_shrink(struct rcu_lfht *ht, unsigned long size)
{
	unsigned long half = size / 2;
	rcu__store(&ht->size, half, RCU__RELEASE); /* H3, though the halved count publishes nothing new */
	/* Every update that read `size` (and may start from an upper bucket) has finished. */
	synchronize_rcu();
	rcu__lfht_free_pending(ht); /* unlinked before that grace period began */
	rcu__lfht_unlink_buckets(ht, half, size);
	/* Its array (none inside the first array, whose nodes must not be relinked before either). */
	ht->pending_free |= (uint64_t)1 << rcu__lfht_level(half);
}

/*
 * No memory for the level that `target` asked for: stay at `size`, and forget the target unless a
 * request raised it since we read it (that request is not lost: its kick makes the callback try
 * again, H9); a later request may try again too. Relaxed CAS, as request()'s: resizers read the
 * target under resize_lock or after H9's acquire, and no other data hangs on it.
 */
static inline void rcu__lfht_forget_target(struct rcu_lfht *ht, unsigned long target, unsigned long size)
{
	rcu__cas(&ht->resize_target, &target, size, RCU__RELAXED, RCU__RELAXED);
}

/* Resize towards the target until they agree (or destroy began); under resize_lock. */
RCU__WEAK void RCU__LFHT_SYM(resize_locked)(struct rcu_lfht *ht)
{
	for (;;) {
		if (rcu__load(&ht->resize_state, RCU__RELAXED) & RCU__LFHT_DESTROY)
			break;
		unsigned long size = rcu__load(&ht->size, RCU__RELAXED); /* only the lock's holders write it */
		unsigned long target = rcu__load(&ht->resize_target, RCU__RELAXED);
		/*
		 * A level that an updater began (grow_next) is finished first, whatever the target:
		 * a shrink from `size` would leave its linked bucket nodes behind. None is begun while
		 * pending_free is set (help() checks), so a level never waits for a grace period.
		 */
		if (ht->grow_next || target > size) {
			if (ht->pending_free) {
				synchronize_rcu(); /* readers may stand on unlinked bucket nodes */
				rcu__lfht_free_pending(ht);
			}
			if (rcu__lfht_grow(ht, size, ~0ul, RCU__LFHT_OWN_SECTIONS) == RCU__LFHT_NO_MEMORY) {
				rcu__lfht_forget_target(ht, target, size);
				break;
			}
		} else if (target < size) {
			rcu__lfht_shrink(ht, size);
		} else {
			break;
		}
	}
	if (ht->pending_free) {
		synchronize_rcu();
		rcu__lfht_free_pending(ht);
	}
}

/* The resize callback (H9): resize while requests keep coming; free the table if destroyed. */
RCU__WEAK void RCU__LFHT_SYM(resize_cb)(struct rcu_head *head)
{
	struct rcu_lfht *ht = rcu_container_of(head, struct rcu_lfht, resize_head);
	for (;;) {
		/* H9: acquire: take the requests so far (and their targets); pairs with the kick's release. */
		rcu__lfht_fetch_and(&ht->resize_state, ~(int32_t)RCU__LFHT_AGAIN, RCU__ACQUIRE);
		rcu__lfht_lock(ht);
		RCU__LFHT_SYM(resize_locked)(ht);
		rcu__lfht_unlock(ht);
		int32_t s = RCU__LFHT_QUEUED;
		/*
		 * H9: done, unless a request came meanwhile (AGAIN) or destroy began (DESTROY). On
		 * success, release: our accesses to the table before destroy, which may free it at once
		 * (its fetch_or acquires); on failure, acquire: destroy's accesses before our free.
		 */
		if (rcu__cas(&ht->resize_state, &s, 0, RCU__ACQ_REL, RCU__ACQUIRE))
			return;
		if (s & RCU__LFHT_DESTROY) {
			RCU__LFHT_SYM(free)(ht);
			return;
		}
	}
}

/*
 * Ask for `want` buckets (a power of two; growth only if none is pending the other way) and hand
 * the work to the resize callback; for growth, if `help`, help it (help(): at most once per
 * public call, so its callers pass false when the call helped already). Called by updaters,
 * inside read-side sections: never blocks.
 */
RCU__WEAK void RCU__LFHT_SYM(request)(struct rcu_lfht *ht, unsigned long size, unsigned long want, bool help)
{
	if (want > ht->max_buckets)
		want = ht->max_buckets;
	unsigned long t = rcu__load(&ht->resize_target, RCU__RELAXED);
	bool raised = false;
	while (!(want > size ? t >= want : (t > size || t <= want))) /* not asked for yet (a growth wins over a shrink) */
		if (rcu__cas(&ht->resize_target, &t, want, RCU__RELAXED, RCU__RELAXED)) {
			raised = true;
			break;
		}
	if (raised)
		RCU__LFHT_SYM(kick)(ht);
	if (help && want > size)
		RCU__LFHT_SYM(help)(ht);
}

/* Hand the target to the resize callback: queue it unless it is queued (H9). */
RCU__WEAK void RCU__LFHT_SYM(kick)(struct rcu_lfht *ht)
{
	/*
	 * H9: kick: release, so that the callback that takes this request (its fetch_and, acquire)
	 * sees the target; acquire, so that the last callback's end (its CAS to 0, release), and with
	 * it rcu.h's reads of resize_head before it ran, happen before we queue resize_head again.
	 * Queue the callback unless it is queued (then AGAIN makes it look again).
	 */
	int32_t old = rcu__lfht_fetch_or(&ht->resize_state, RCU__LFHT_QUEUED | RCU__LFHT_AGAIN, RCU__ACQ_REL);
	if (!(old & (RCU__LFHT_QUEUED | RCU__LFHT_DESTROY)))
		(call_rcu)(&ht->resize_head, RCU__LFHT_SYM(resize_cb));
}

/*
 * An updater helps a growth (see >>doc, "Where resizing runs"), inside its read-side section: if
 * resize_lock is free, it links up to RCU__LFHT_HELP_BATCH bucket nodes of the level being built
 * (publishing the doubled count if that completes it), unless the level needs a grace period
 * first (pending_free) or destroy began. Never blocks: a trylock, no grace period, no section
 * left (QSBR: no quiescent state), no call_rcu(); it may allocate the level's array.
 */
RCU__WEAK void RCU__LFHT_SYM(help)(struct rcu_lfht *ht)
{
	/*
	 * Nothing to build: a hint, read without the lock. A level that a holder began is finished by
	 * the callback (queued by the request that raised the target) or by rcu_lfht_resize().
	 */
	if (rcu__load(&ht->resize_target, RCU__RELAXED) <= rcu__load(&ht->size, RCU__RELAXED))
		return;
	/* H10: acquire: what the lock's last holder built (grow_next, the level); see resize_lock. */
	if (pthread_mutex_trylock(&ht->resize_lock) != 0)
		return; /* a resizer holds it, and does the work */
	unsigned long size = rcu__load(&ht->size, RCU__RELAXED); /* only the lock's holders write it */
	unsigned long target = rcu__load(&ht->resize_target, RCU__RELAXED);
	/*
	 * DESTROY: no update may run once destroy began (rcu_lfht_destroy()'s contract), so this is a
	 * guard, not an ordering point: relaxed, nothing is read on its account; it keeps an update
	 * that breaks the contract from building a level that the resize callback, which stops at
	 * DESTROY, would leave half built. pending_free: never set while the lock is free (each
	 * resizer frees the pending levels before it unlocks), so never here; the check states what
	 * help() relies on: growing into a level whose array awaits its grace period would overwrite
	 * level_mem[] (resize_locked() first waits and frees it; help() cannot wait).
	 */
	if (!(rcu__load(&ht->resize_state, RCU__RELAXED) & RCU__LFHT_DESTROY) && !ht->pending_free &&
	    (ht->grow_next || target > size) &&
	    rcu__lfht_grow(ht, size, RCU__LFHT_HELP_BATCH, RCU__LFHT_IN_SECTION) == RCU__LFHT_NO_MEMORY)
		rcu__lfht_forget_target(ht, target, size); /* as resize_locked() */
	rcu__lfht_unlock(ht); /* H10: release: what we built, for the next holder */
}

/*
 * A slot reached RCU__LFHT_COMMIT: move that many into the global count; check the policy (and
 * help a growth it asks for unless the update `helped` already).
 */
RCU__WEAK void RCU__LFHT_SYM(commit)(struct rcu_lfht *ht, unsigned long size, bool removal, bool helped)
{
	long delta = removal ? -(long)RCU__LFHT_COMMIT : (long)RCU__LFHT_COMMIT;
	long count = rcu__fetch_add(&ht->count, delta, RCU__RELAXED) + delta; /* statistics, policy */
	if (!(ht->flags & RCU_LFHT_AUTO_RESIZE) || count <= 0)
		return;
	unsigned long c = (unsigned long)count;
	if (!removal && c / 2 >= size)
		RCU__LFHT_SYM(request)(ht, size, rcu__lfht_pow2(c), !helped);
	else if (removal && c <= size / 8 && c >= RCU__LFHT_COMMIT * (ht->slot_mask + 1))
		RCU__LFHT_SYM(request)(ht, size, rcu__lfht_pow2(2 * c), false); /* a shrink: nothing to help */
}

/**
 * rcu_lfht_resize() - resize the table to new_size buckets (rounded up to a power of two, within
 * 1 and max_nr_buckets), and return when done.
 *
 * Blocks: waits for the resize lock and for grace periods (growing links the new bucket nodes;
 * shrinking waits about two grace periods per halving). Outside any read-side section (RCU_DEBUG
 * aborts; it would wait for itself), from a registered thread (QSBR: online or offline). Runs
 * while readers and updaters use the table. If automatic resizing changes the target meanwhile,
 * it resizes to that target instead. A level that updaters began building is finished first,
 * whatever new_size: called with the current size while one is half built, it doubles the table
 * and then halves it back.
 */
static inline void rcu_lfht_resize(struct rcu_lfht *ht, unsigned long new_size)
{
	RCU__CHECK(!rcu__in_section(rcu__self()), "rcu_lfht_resize()", RCU__RULE_IN_SECTION);
	RCU__LFHT_SYM(resize)(ht, new_size);
}

RCU__WEAK void RCU__LFHT_SYM(resize)(struct rcu_lfht *ht, unsigned long new_size)
{
	unsigned long want = rcu__lfht_pow2(new_size);
	if (want > ht->max_buckets)
		want = ht->max_buckets;
	rcu__store(&ht->resize_target, want, RCU__RELAXED);
	rcu__lfht_lock(ht);
	RCU__LFHT_SYM(resize_locked)(ht);
	rcu__lfht_unlock(ht);
}

/* >>table ------------------------------------------------------------------------------------- */

RCU__WEAK void RCU__LFHT_SYM(free)(struct rcu_lfht *ht)
{
	for (unsigned l = 0; l <= ht->max_level; l++)
		free(ht->level_mem[l]);
	free(ht->first_mem);
	free(ht->slots_mem);
	pthread_mutex_destroy(&ht->resize_lock);
	free(ht);
}

RCU__WEAK struct rcu_lfht *RCU__LFHT_SYM(new)(unsigned long init_size, unsigned long min_nr_alloc_buckets,
					      unsigned long max_nr_buckets, int flags)
{
	const unsigned long top = 1ul << (RCU__LFHT_BITS - 1);
	if (!init_size || (init_size & (init_size - 1)) || !min_nr_alloc_buckets ||
	    (min_nr_alloc_buckets & (min_nr_alloc_buckets - 1)) || (max_nr_buckets & (max_nr_buckets - 1)) ||
	    init_size > top || min_nr_alloc_buckets > top || (flags & ~(RCU_LFHT_AUTO_RESIZE | RCU_LFHT_ACCOUNTING)))
		return NULL;
	if (!max_nr_buckets)
		max_nr_buckets = top;
	if (max_nr_buckets < min_nr_alloc_buckets)
		max_nr_buckets = min_nr_alloc_buckets;
	if (init_size > max_nr_buckets)
		init_size = max_nr_buckets;
	struct rcu_lfht *ht = (struct rcu_lfht *)malloc(sizeof *ht);
	if (!ht)
		return NULL;
	ht->max_level = rcu__lfht_level(max_nr_buckets - 1);
	for (unsigned l = 0; l <= ht->max_level; l++) { /* the levels used; no memset: GenMC has none */
		ht->level_base[l] = 0;
		ht->level_mem[l] = NULL;
	}
	ht->resize_state = 0;
	ht->slot_mask = 0;
	ht->count = 0;
	ht->slots = NULL;
	ht->slots_mem = NULL;
	ht->pending_free = 0;
	ht->flags = flags;
	ht->max_buckets = max_nr_buckets;
	ht->first_buckets = min_nr_alloc_buckets < 2 ? 2 : min_nr_alloc_buckets;
	ht->first_mem = malloc(ht->first_buckets * sizeof(struct rcu_lfht_node));
	if (flags & RCU_LFHT_ACCOUNTING) {
#if defined(_SC_NPROCESSORS_CONF)
		long cpus = sysconf(_SC_NPROCESSORS_CONF);
#else
		long cpus = 16; /* not POSIX: a guess where the C library does not say */
#endif
		unsigned long n = rcu__lfht_pow2(4 * (unsigned long)(cpus > 0 ? cpus : 16));
		if (n > 4096)
			n = 4096;
		ht->slots_mem = calloc(n + 1, sizeof(struct rcu__lfht_slot));
		if (ht->slots_mem) {
			uintptr_t a = ((uintptr_t)ht->slots_mem + RCU_CACHE_LINE - 1) & ~(uintptr_t)(RCU_CACHE_LINE - 1);
			ht->slots = (struct rcu__lfht_slot *)a;
			ht->slot_mask = n - 1;
		}
	}
	if (!ht->first_mem || ((flags & RCU_LFHT_ACCOUNTING) && !ht->slots) ||
	    pthread_mutex_init(&ht->resize_lock, NULL) != 0) {
		free(ht->first_mem);
		free(ht->slots_mem);
		free(ht);
		return NULL;
	}
	for (unsigned l = 1; l <= rcu__lfht_level(ht->first_buckets - 1); l++)
		ht->level_base[l] = (uintptr_t)ht->first_mem;
	struct rcu_lfht_node *b0 = (struct rcu_lfht_node *)ht->first_mem;
	b0->reverse_hash = 0;
	rcu__store(&b0->next, rcu__lfht_link(NULL, RCU__LFHT_BUCKET), RCU__RELAXED);
	ht->size = 1;
	ht->grow_next = 0;
	while (ht->size < init_size)
		if (rcu__lfht_grow(ht, ht->size, ~0ul, RCU__LFHT_ALONE) != RCU__LFHT_GROWN) {
			RCU__LFHT_SYM(free)(ht);
			return NULL;
		}
	ht->resize_target = ht->size;
	return ht;
}

/**
 * rcu_lfht_new() - make a table; NULL if an argument is invalid or memory is short.
 *
 * init_size: buckets to start with; min_nr_alloc_buckets: buckets whose memory is allocated now
 * and never freed (the first array, at least 2); max_nr_buckets: the most buckets the table may
 * have (0: no limit). All three powers of two (max may be 0). flags: 0, RCU_LFHT_AUTO_RESIZE,
 * RCU_LFHT_ACCOUNTING, or both. Callable from any thread, registered or not, before any other
 * RCU call. Costs: one allocation for the table (about 1.3 KiB), one for the first bucket array
 * (16 bytes per bucket), with RCU_LFHT_ACCOUNTING one for the counters (a cache line each, 4 per
 * CPU rounded up to a power of two); then one per level beyond the first array.
 */
static inline struct rcu_lfht *rcu_lfht_new(unsigned long init_size, unsigned long min_nr_alloc_buckets,
					    unsigned long max_nr_buckets, int flags)
{
	return RCU__LFHT_SYM(new)(init_size, min_nr_alloc_buckets, max_nr_buckets, flags);
}

/* Does the table hold only bucket nodes? The caller makes the walk safe (see destroy). */
static inline bool rcu__lfht_empty(struct rcu_lfht *ht)
{
	for (struct rcu_lfht_node *n = rcu__lfht_bucket(ht, 0); n;) {
		struct rcu_lfht_node *next = rcu__lfht_load_link(n);
		if (!(rcu__lfht_flags(next) & RCU__LFHT_BUCKET))
			return false;
		n = rcu__lfht_ptr(next);
	}
	return true;
}

RCU__WEAK int RCU__LFHT_SYM(destroy)(struct rcu_lfht *ht)
{
	bool empty;
	if (rcu_read_ongoing()) {
		empty = rcu__lfht_empty(ht); /* the section keeps the bucket nodes we walk */
	} else {
		rcu__lfht_lock(ht);           /* no resize runs: nothing we walk is freed */
		empty = rcu__lfht_empty(ht);
		rcu__lfht_unlock(ht);
	}
	if (!empty)
		return -EPERM;
	/*
	 * H9: announce destroy: acq_rel. If the resize callback is queued or running, it sees
	 * DESTROY at its end (acquire on its failed CAS) and frees the table after our accesses;
	 * otherwise its last access came before its CAS cleared QUEUED (release), which we read.
	 */
	int32_t old = rcu__lfht_fetch_or(&ht->resize_state, RCU__LFHT_DESTROY, RCU__ACQ_REL);
	if (!(old & RCU__LFHT_QUEUED))
		RCU__LFHT_SYM(free)(ht);
	return 0;
}

/**
 * rcu_lfht_destroy() - free an empty table: 0, or -EPERM (and nothing changes) if it holds nodes.
 *
 * No other thread may use the table during or after the call. A resize the table queued may
 * still be pending or running: it stops, and the table is freed when it ends (rcu_barrier()
 * waits for that). Callable inside or outside a read-side section, from a registered thread or
 * not; not from a callback that the table's resize may be waiting behind (rcu_barrier()'s rule).
 */
static inline int rcu_lfht_destroy(struct rcu_lfht *ht)
{
	return RCU__LFHT_SYM(destroy)(ht);
}

RCU__WEAK void RCU__LFHT_SYM(count_nodes)(struct rcu_lfht *ht, long *approx_before, unsigned long *count,
					  long *approx_after)
{
	long sum = 0;
	for (unsigned long i = 0; ht->slots && i <= ht->slot_mask; i++)
		sum += (long)(rcu__load(&ht->slots[i].add, RCU__RELAXED) - rcu__load(&ht->slots[i].del, RCU__RELAXED));
	*approx_before = sum;
	unsigned long n = 0;
	for (struct rcu_lfht_node *p = rcu__lfht_bucket(ht, 0); p;) {
		struct rcu_lfht_node *next = rcu__lfht_load_link(p);
		if (!(rcu__lfht_flags(next) & (RCU__LFHT_REMOVED | RCU__LFHT_BUCKET)))
			n++;
		p = rcu__lfht_ptr(next);
	}
	*count = n;
	sum = 0;
	for (unsigned long i = 0; ht->slots && i <= ht->slot_mask; i++)
		sum += (long)(rcu__load(&ht->slots[i].add, RCU__RELAXED) - rcu__load(&ht->slots[i].del, RCU__RELAXED));
	*approx_after = sum;
}

/**
 * rcu_lfht_count_nodes() - count the nodes: walk the table, and read the counters before and after.
 *
 * *count: the nodes the walk met (as an iteration sees them). *approx_before, *approx_after:
 * additions minus removals in the counters (0 without RCU_LFHT_ACCOUNTING), read before and
 * after the walk. Inside a read-side section. Wait-free; linear in the nodes and buckets.
 */
static inline void rcu_lfht_count_nodes(struct rcu_lfht *ht, long *approx_before, unsigned long *count, long *approx_after)
{
	RCU__LFHT_CHECK_READER("rcu_lfht_count_nodes()");
	RCU__LFHT_SYM(count_nodes)(ht, approx_before, count, approx_after);
}

/**
 * rcu_lfht_buckets() - the number of buckets now (a power of two). Not in liburcu's API.
 *
 * Callable anywhere; a resize may change it at any moment.
 */
static inline unsigned long rcu_lfht_buckets(const struct rcu_lfht *ht)
{
	return rcu__load(&ht->size, RCU__RELAXED);
}

/* >>macros ------------------------------------------------------------------------------------ */

static inline void *rcu__lfht_entry(struct rcu_lfht_node *node, size_t offset)
{
	return node ? (void *)((char *)node - offset) : NULL;
}

/** rcu_lfht_entry(ptr, type, member) - the object of type `type` whose `member` node is ptr; NULL for NULL. */
#define rcu_lfht_entry(ptr, type, member) ((type *)rcu__lfht_entry((ptr), offsetof(type, member)))

/** rcu_lfht_for_each(ht, iter, node) - every node of the table, inside a read-side section. */
#define rcu_lfht_for_each(ht, iter, node) \
	for (rcu_lfht_first((ht), (iter)), (node) = rcu_lfht_iter_get_node(iter); (node) != NULL; \
	     rcu_lfht_next((ht), (iter)), (node) = rcu_lfht_iter_get_node(iter))

/** rcu_lfht_for_each_duplicate(ht, hash, match, key, iter, node) - every node of hash and key. */
#define rcu_lfht_for_each_duplicate(ht, hash, match, key, iter, node) \
	for (rcu_lfht_lookup((ht), (hash), (match), (key), (iter)), (node) = rcu_lfht_iter_get_node(iter); \
	     (node) != NULL; \
	     rcu_lfht_next_duplicate((ht), (match), (key), (iter)), (node) = rcu_lfht_iter_get_node(iter))

/** rcu_lfht_for_each_entry(ht, iter, pos, member) - every object of the table. */
#define rcu_lfht_for_each_entry(ht, iter, pos, member) \
	for (rcu_lfht_first((ht), (iter)), \
	     (pos) = rcu_lfht_entry(rcu_lfht_iter_get_node(iter), __typeof__(*(pos)), member); \
	     (pos) != NULL; \
	     rcu_lfht_next((ht), (iter)), \
	     (pos) = rcu_lfht_entry(rcu_lfht_iter_get_node(iter), __typeof__(*(pos)), member))

/** rcu_lfht_for_each_entry_duplicate(ht, hash, match, key, iter, pos, member) - every object of hash and key. */
#define rcu_lfht_for_each_entry_duplicate(ht, hash, match, key, iter, pos, member) \
	for (rcu_lfht_lookup((ht), (hash), (match), (key), (iter)), \
	     (pos) = rcu_lfht_entry(rcu_lfht_iter_get_node(iter), __typeof__(*(pos)), member); \
	     (pos) != NULL; \
	     rcu_lfht_next_duplicate((ht), (match), (key), (iter)), \
	     (pos) = rcu_lfht_entry(rcu_lfht_iter_get_node(iter), __typeof__(*(pos)), member))

RCU__EXTERN_C_END

#endif /* RCU_LFHT_H */
