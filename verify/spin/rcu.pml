/* SPDX-License-Identifier: 0BSD */
/*
 * verify/spin/rcu.pml: a Promela model of rcu.h's reader fast path and synchronize_rcu().
 *
 * What is modelled (see docs/testing.md for what is left out):
 *   - gp_seq / gp_completed, the snapshot s and target s + 1, the advance under gp_lock, and
 *     sharing of grace periods between NU concurrent synchronize_rcu() callers: trylock, and a
 *     caller that loses it sets the waiters' bit of gp_done_word (D1, a compare-exchange on the
 *     value it read) and sleeps on the word until the holder bumps it and, finding the bit,
 *     clears it and wakes the sleepers (D2), then returns if its target has completed or tries
 *     again;
 *   - the reader's outermost lock and unlock (MB, MEMB with membarrier, QSBR quiescent states);
 *   - the scan, slot by slot, the spin-then-sleep on the futex word, the re-check after arming,
 *     and the wake by the last reader out (MB: the timed sleep that stands in for the wake);
 *   - weak memory for the store-buffering pattern: every reader store goes into a FIFO store
 *     buffer (a channel) that a flusher process drains into memory at any time; a reader's full
 *     fence drains its own buffer; membarrier drains every reader's buffer, one at a time (as the
 *     IPIs do). Reader loads read memory (the readers never load what they store, except QSBR's
 *     own slot, which reads the reader's last store: store forwarding). Updaters are sequentially
 *     consistent: each of their stores is followed by a full fence or is a locked read-modify-write
 *     before any load the algorithm depends on (G1, G3, G5).
 *
 * Pick one flavour with -DMB, -DMEMB or -DQSBR. Broken variants (the checks must find them):
 *   -DBROKEN_READER_FENCE   MB: the reader's R1 fence is dropped
 *   -DBROKEN_NO_MEMBARRIER  MEMB: the updater's G1 membarrier is a plain fence (readers not fenced)
 *   -DBROKEN_NO_RECHECK     the rescan after arming the futex (G3) is dropped: lost wake-up
 *   -DBROKEN_TARGET         synchronize_rcu() waits for grace period s instead of s + 1
 *   -DBROKEN_NO_TIMEOUT     MB: the updater sleeps without its timeout: lost wake-up
 *   -DBROKEN_ZERO_BLOCKS    the scan forgets that slot 0 means "not reading": waits forever
 *   -DBROKEN_DONE_RECHECK   a caller that finds gp_lock taken sleeps without re-checking the
 *                           completion or the word it read (D1): lost wake-up between callers
 *   -DBROKEN_DONE_FLAG      the waiters' bit kept apart from the word, in a flag that the wake
 *                           clears with an exchange (a design tried and reverted): with three
 *                           callers a waker clears the flag of a waiter that already read its
 *                           bump, and the waiter sleeps with nobody left to wake it
 * Reachability probes (the check must reach the assert, showing the paths are exercised):
 *   -DCOVER_SHARE           a caller returns on a grace period that another caller ran
 *   -DCOVER_WAKE            a sleeping updater is woken by a reader
 *   -DCOVER_STALE           a scan reads a slot whose newer value is still in a store buffer
 *   -DCOVER_DONE_WAKE       a caller asleep on gp_done_word is woken by the one that ran the period
 *   -DCOVER_DONE_ODD        a caller sleeps on a value whose waiters' bit another caller set, read
 *                           as it was (no compare-exchange of its own)
 *   -DCOVER_DONE_SEEN       a caller sleeps after its compare-exchange failed on the value with
 *                           the bit that another caller had just set
 *                           (these two: shape D only, they need three callers)
 *
 *   -DDATA_ONLY             leave out the ghost assert: the data check alone must catch the bug
 *
 * Properties: the assert in Updater (a reader section whose first access preceded the call is
 * over when synchronize_rcu() returns), the assert in Reader (never a freed node), valid end
 * states (no caller left asleep or waiting once every reader has finished: no lost wake-up), and,
 * in the non-progress search under weak fairness, no cycle that runs forever without finishing.
 *
 * The labels (R0-R3, Q0-Q3, G0-G5, D1-D2) are rcu.h's, as listed in docs/ordering.md. Run every
 * check with verify/spin/run.sh; docs/testing.md says what the model covers and what it leaves out.
 */

#if !defined(MB) && !defined(MEMB) && !defined(QSBR)
#define MEMB 1
#endif

#ifndef NR
#define NR 2            /* readers (at most 3) */
#endif
#ifndef NU
#define NU 2            /* concurrent synchronize_rcu() callers */
#endif
#ifndef SECTIONS
#define SECTIONS 2      /* read-side sections per reader (QSBR: data accesses) */
#endif
#define NODES (NU + 1)  /* node 0 is published first; updater u publishes node u */
#define ARMED 255       /* the futex word's -1 */

byte gp_seq = 1;
byte gp_completed = 1;
bit gp_lock;
byte gp_done_word;      /* completions in twos, bumped after each release of gp_lock (D2); bit 0: waiters */
#ifdef BROKEN_DONE_FLAG
bit gp_done_waiters;    /* the broken variant's flag, apart from the word */
#endif
bit done_sleep[NU + 1]; /* futex sleepers on gp_done_word, by updater number */
byte gp_futex;          /* 0 or ARMED */
byte slot[NR];          /* the readers' slots, as memory holds them */
chan sb[NR] = [2 * SECTIONS + 2] of { byte };  /* the readers' store buffers */
hidden byte tmp;        /* scratch, only used inside atomic sequences */

/* The data: an RCU-protected pointer to one of NODES nodes; a freed node must not be read. */
byte ptr;
bit freed[NODES];

/* Ghosts: is reader r inside a section (since its first access), and which section. */
bit in_cs[NR];
byte sec[NR];
#ifdef COVER_WAKE
bit woken_by_reader;
#endif
#ifdef COVER_DONE_WAKE
bit done_woken;
#endif

/* A full fence of reader r: its buffered stores reach memory (all at once: the flushers cover
 * every earlier partial drain). */
#define DRAIN(r) atomic { do :: sb[r]?tmp -> slot[r] = tmp :: empty(sb[r]) -> break od; tmp = 0 }

/* membarrier(): every reader executes a full fence, each at its own instant. */
#define MEMBARRIER() \
	i = 0; \
	do \
	:: i < NR -> DRAIN(i); i++ \
	:: else -> i = 0; break \
	od

/* rcu__wake_gp(): the exchange of the futex word (not modelled as a fence: C11 relaxed). */
#ifdef COVER_WAKE
#define WAKE() atomic { if :: gp_futex == ARMED -> gp_futex = 0; woken_by_reader = 1 :: else fi }
#else
#define WAKE() atomic { if :: gp_futex == ARMED -> gp_futex = 0 :: else fi }
#endif
#define CHECK_WAKE() if :: gp_futex == ARMED -> WAKE() :: else fi

/* A slot that holds up no grace period: 0, "not reading". */
#ifdef BROKEN_ZERO_BLOCKS
#define IDLE(v) false
#else
#define IDLE(v) ((v) == 0)
#endif

/* The section's first access: the ghost marks it. Then the data access. */
#define ACCESS() \
	atomic { p = ptr; if :: !in_cs[me] -> in_cs[me] = 1; sec[me]++ :: else fi }; \
	atomic { assert(!freed[p]); p = 0 }

/* The store buffers drain into memory, one store at a time, whenever they like. */
#define FLUSH(r) atomic { sb[r]?tmp -> slot[r] = tmp; tmp = 0 }
proctype Flusher()
{
end:	do
	:: FLUSH(0)
#if NR > 1
	:: FLUSH(1)
#endif
#if NR > 2
	:: FLUSH(2)
#endif
	od
}

proctype Reader(byte me)
{
	byte s, p, n;
#ifdef QSBR
	byte mine;      /* the reader's own last slot store (store forwarding) */
	/* rcu_register_thread(): online. Q0, the slot store, Q3. */
	s = gp_seq;
	atomic { sb[me]!s; mine = s; s = 0 };
	DRAIN(me);
	do
	:: n < SECTIONS ->
		ACCESS();
		/* rcu_quiescent_state() */
		s = gp_seq;                                     /* Q0 */
		if
		:: mine == s -> s = 0                           /* nothing to report: still inside */
		:: else ->
			atomic { in_cs[me] = 0; sb[me]!s; mine = s; s = 0 };   /* Q1 */
			DRAIN(me);                                      /* Q2 */
			CHECK_WAKE()
		fi;
		n++
	:: else -> break
	od;
	/* rcu_thread_offline() / rcu_unregister_thread() */
	atomic { in_cs[me] = 0; sb[me]!0 };
	DRAIN(me);
	CHECK_WAKE()
#else
	do
	:: n < SECTIONS ->
		/* outermost rcu_read_lock() */
		s = gp_seq;                                     /* R0 */
		atomic { sb[me]!s; s = 0 };
#if defined(MB) && !defined(BROKEN_READER_FENCE)
		DRAIN(me);                                      /* R1 */
#endif
		ACCESS();
		/* outermost rcu_read_unlock() */
		atomic { in_cs[me] = 0; sb[me]!0 };             /* R2 */
		CHECK_WAKE();                                   /* R3: no fence before the check */
		n++
	:: else -> break
	od
#endif
}

proctype Updater(byte u)
{
	byte s, target, cur, old, i, word;
	bit set;        /* D1: the waiters' bit is set in `word`; D2: the bump found it set */
	byte how;       /* D1: 0 the caller set the bit, 1 it read it set, 2 its compare-exchange found it set */
	byte pre[NR];
	bit ran;        /* this caller ran a grace period itself */

	/* The update, under the update-side lock: publish node u, remember the old one. */
	atomic { old = ptr; ptr = u };

	/* synchronize_rcu(): G5 (a fence: nothing to model), the snapshot; the ghost records
	 * which sections have begun before the call. */
	atomic {
		s = gp_seq;
		do
		:: i < NR -> if :: in_cs[i] -> pre[i] = sec[i] :: else -> pre[i] = 0 fi; i++
		:: else -> i = 0; break
		od
	};
#ifdef BROKEN_TARGET
	target = s;
#else
	target = s + 1;
#endif
	s = 0;
	/* gp_share(): return once the target has completed (another caller's grace period may
	 * serve us), or take gp_lock with trylock and run it; a caller that finds the lock taken
	 * sleeps on gp_done_word (futex: it sleeps only if the word still holds what it read) until
	 * the holder bumps the word and, seeing waiters, wakes them. */
	do
	:: word = gp_done_word;                                 /* D1 */
		if
		:: gp_completed >= target -> goto returned
		:: else
		fi;
		if
		:: atomic { gp_lock == 0 -> gp_lock = 1; word = 0 }; break   /* trylock won */
		:: gp_lock != 0 ->                                           /* trylock lost */
#if defined(BROKEN_DONE_FLAG)
			gp_done_waiters = 1;
			set = 1;
#else
			/* D1: compare-exchange word -> word | 1 (already set: sleep on it as it is) */
			atomic {
				if
				:: (word & 1) -> set = 1; how = 1
				:: else ->
					if
					:: gp_done_word == word -> gp_done_word = word | 1; word = word | 1; set = 1; how = 0
					:: gp_done_word == (word | 1) -> word = word | 1; set = 1; how = 2
					:: else -> set = 0              /* bumped: look again */
					fi
				fi
			};
#endif
#ifndef BROKEN_DONE_RECHECK
			if
			:: set && gp_completed < target ->
				atomic { if :: gp_done_word == word -> done_sleep[u] = 1 :: else fi;
#ifdef COVER_DONE_ODD
					assert(!(done_sleep[u] && how == 1));
#endif
#ifdef COVER_DONE_SEEN
					assert(!(done_sleep[u] && how == 2));
#endif
					how = 0 };
				done_sleep[u] == 0;
#ifdef COVER_DONE_WAKE
				assert(!done_woken);
#endif
			:: else
			fi;
#else
			done_sleep[u] = 1;                      /* sleeps without re-checking anything */
			done_sleep[u] == 0;
#endif
			atomic { word = 0; set = 0 }
		fi
	od;
	if
	:: gp_completed >= target -> goto unlock                /* shared, under the lock */
	:: else
	fi;
	atomic { cur = gp_seq; if :: cur < target -> gp_seq = cur + 1; cur = cur + 1 :: else fi; target = 0 };  /* G0 */
#if defined(MEMB) && !defined(BROKEN_NO_MEMBARRIER)
	MEMBARRIER();                                           /* G1 */
#endif
scan:	/* rcu__readers_done(): one slot at a time */
	do
	:: i < NR ->
		if
		:: !IDLE(slot[i]) && slot[i] < cur -> i = 0; goto blocked
		:: else ->
#ifdef COVER_STALE
			assert(len(sb[i]) == 0);
#endif
			i++
		fi
	:: else -> i = 0; goto finished
	od;
blocked:
	if
	:: goto scan                                            /* spin */
	:: skip                                                 /* sleep */
	fi;
	gp_futex = ARMED;
#if defined(MEMB)
	MEMBARRIER();                                           /* G3 */
#endif
#ifndef BROKEN_NO_RECHECK
	do
	:: i < NR ->
		if
		:: !IDLE(slot[i]) && slot[i] < cur -> i = 0; break
		:: else -> i++
		fi
	:: else -> i = 0; gp_futex = 0; goto finished
	od;
#endif
	/* futex_wait(&gp_futex, -1): until a reader disarms the word (MB: or the timeout). */
	if
	:: gp_futex != ARMED -> skip
#if defined(MB) && !defined(BROKEN_NO_TIMEOUT)
	:: timeout -> skip
#endif
	fi;
#ifdef COVER_WAKE
	assert(!woken_by_reader);
#endif
	goto scan;
finished:
	atomic { gp_completed = cur; cur = 0; ran = 1 };        /* G4 */
unlock:
	gp_lock = 0;
#ifdef BROKEN_DONE_FLAG
	gp_done_word = gp_done_word + 2;                        /* D2 */
	if
	:: atomic { gp_done_waiters -> gp_done_waiters = 0 } ->     /* exchange: it was set */
#else
	atomic { set = gp_done_word & 1; gp_done_word = gp_done_word + 2 };   /* D2: fetch_add */
	if
	:: set ->
		gp_done_word = gp_done_word & 254;              /* fetch_and: clear the bit */
#endif
		atomic {                                        /* futex wake of every sleeper */
			set = 0;
			i = 1;
			do
#ifdef COVER_DONE_WAKE
			:: i <= NU -> if :: done_sleep[i] -> done_woken = 1 :: else fi; done_sleep[i] = 0; i++
#else
			:: i <= NU -> done_sleep[i] = 0; i++
#endif
			:: else -> i = 0; break
			od
		}
	:: else
	fi;
returned:
#ifdef COVER_SHARE
	assert(ran);
#endif
	/* synchronize_rcu() returns. The grace-period guarantee: no section that began before the
	 * call is still running. Then reclaim the node that was replaced. */
	atomic {
		do
#ifndef DATA_ONLY
		:: i < NR -> assert(!(pre[i] != 0 && in_cs[i] && sec[i] == pre[i])); i++
#else
		:: i < NR -> i++
#endif
		:: else -> i = 0; break
		od;
		freed[old] = 1
	}
}

init
{
	byte k;
	atomic {
		run Flusher();
		do
		:: k < NR -> run Reader(k); k++
		:: else -> break
		od;
		k = 1;
		do
		:: k <= NU -> run Updater(k); k++
		:: else -> break
		od;
		k = 0
	}
}
