/* SPDX-License-Identifier: 0BSD */
/*
 * test/cxx/p2545.cpp: C++ written to P2545 (C++26 <rcu>), whose reader threads never call a
 * registration function (issue #19). MEMB, MB and BP: a thread's first rcu::rcu_read_guard or
 * rcu_default_domain().lock() registers it, so that synchronize_rcu(), rcu_synchronize(),
 * rcu_retire() and rcu_barrier() in another thread wait for its sections; thread exit takes it
 * out of the registry; rcu_register_thread() after a guard is no second registration. QSBR:
 * such a guard aborts with a sentence (the death tests are in p2545_main.c; the bodies here).
 * Registered as tests by p2545_main.c; built in release and RCU_DEBUG builds (test/cxx/meson.build).
 */
#include "rcu.h"

#include <mutex>
#include <thread>
#include <vector>

#include "cxx_check.h"
#include "p2545.h"

using cxxtest::check_waits_for;
using cxxtest::holder;
using cxxtest::sleep_ms;

namespace {

/* Never registers: the reader body runs in a thread that calls nothing but the guard. */
void guard_body(holder &h)
{
	rcu::rcu_read_guard g;
	h.inside();
}

void domain_lock_body(holder &h)
{
	std::lock_guard<rcu::rcu_domain> l(rcu::rcu_default_domain());
	h.inside();
}

/* An object retired while a reader that never registered holds it. */
struct retired : rcu::rcu_obj_base<retired> {
	std::atomic<int> *deleted;
	~retired()
	{
		deleted->store(1);
	}
};

} /* namespace */

#if !defined(RCU_FLAVOUR_QSBR)

namespace {

/* Threads in the flavour's registry (white-box: rcu.h's private state, under its lock). */
int registry_size()
{
	struct rcu__state *s = &RCU__SYM(state);
	pthread_mutex_lock(&s->registry_lock);
	int n = 0;
	for (struct rcu__reader *r = s->readers; r; r = r->next)
		n++;
	pthread_mutex_unlock(&s->registry_lock);
	return n;
}

void try_lock_body(holder &h)
{
	rcu::rcu_domain &d = rcu::rcu_default_domain();
	CXX_CHECK(d.try_lock());
	h.inside();
	d.unlock();
}

} /* namespace */

void cxx_p2545_guard_unregistered_holds(void)
{
	const bool unregistered = false;
	check_waits_for(guard_body, [] { synchronize_rcu(); }, unregistered);
	check_waits_for(guard_body, [] { rcu::rcu_synchronize(); }, unregistered);
	check_waits_for(guard_body, [] { rcu::rcu_default_domain().synchronize(); }, unregistered);
}

void cxx_p2545_domain_lock_unregistered_holds(void)
{
	check_waits_for(domain_lock_body, [] { rcu::rcu_synchronize(); }, false);
	check_waits_for(try_lock_body, [] { synchronize_rcu(); }, false);
}

void cxx_p2545_nested_guards_unregistered(void)
{
	/* The outer guard still holds after the inner one, the thread's first, has ended. */
	check_waits_for(
		[](holder &h) {
			rcu::rcu_read_guard outer;
			{
				rcu::rcu_read_guard inner;
			}
			h.inside();
		},
		[] { synchronize_rcu(); }, false);
}

void cxx_p2545_retire_waits_for_unregistered(void)
{
	/* rcu_obj_base::retire() and rcu_barrier(): the object outlives the reader's section. */
	std::atomic<int> deleted(0);
	check_waits_for(guard_body,
		[&deleted] {
			retired *o = new retired;
			o->deleted = &deleted;
			o->retire();
			rcu::rcu_barrier();
		},
		false);
	CXX_CHECK(deleted.load() == 1);
}

void cxx_p2545_thread_exit_leaves_registry(void)
{
	rcu_barrier(); /* the callback worker has started (it may join the registry) */
	int before = registry_size();
	std::atomic<int> inside(0), release(0);
	std::thread t([&] {
		{
			rcu::rcu_read_guard g;
			inside = registry_size();
		}
		while (!release.load())
			sleep_ms(1);
	});
	while (!inside.load())
		sleep_ms(1);
	CXX_CHECK(inside.load() == before + 1); /* the guard put the thread in the registry */
	release = 1;
	t.join();
	CXX_CHECK(registry_size() == before); /* and its exit took it out */
	/* A grace period after the exit does not look at the dead thread's record (hang or crash). */
	synchronize_rcu();
}

void cxx_p2545_register_after_guard(void)
{
	/* A guard, then the C registration calls (a C library's, say), then a guard again: no
	 * second registration (RCU_DEBUG would abort), and the last guard still holds. */
	check_waits_for(
		[](holder &h) {
			{
				rcu::rcu_read_guard g;
			}
			rcu_register_thread();
			{
				rcu::rcu_read_guard g;
			}
			rcu_unregister_thread();
			rcu::rcu_read_guard g;
			h.inside();
		},
		[] { synchronize_rcu(); }, false);
}

namespace {

/* A node that the deleter poisons and keeps (never freed while readers run). */
struct node {
	long value;
	std::atomic<long> alive;
};
std::atomic<node *> shared_node(nullptr);
std::mutex graveyard_lock;
std::vector<node *> graveyard;
struct poison {
	void operator()(node *n) const
	{
		n->alive.store(0);
		std::lock_guard<std::mutex> l(graveyard_lock);
		graveyard.push_back(n);
	}
};

} /* namespace */

void cxx_p2545_readers_never_register(void)
{
	/* Readers that only use guards and the domain's lock, an updater that replaces and retires:
	 * no reader may see a node its deleter has run for. */
	shared_node.store(new node{ 0, { 1 } });
	std::atomic<int> stop(0);
	std::atomic<long> seen(0), bad(0);
	std::vector<std::thread> readers;
	for (int i = 0; i < 3; i++)
		readers.emplace_back([&, i] {
			while (!stop.load(std::memory_order_relaxed)) {
				if (i == 0) {
					std::lock_guard<rcu::rcu_domain> l(rcu::rcu_default_domain());
					node *n = rcu_dereference(shared_node);
					for (int k = 0; k < 50; k++)
						if (n->alive.load(std::memory_order_relaxed) != 1)
							bad++;
				} else {
					rcu::rcu_read_guard g;
					node *n = rcu_dereference(shared_node);
					for (int k = 0; k < 50; k++)
						if (n->alive.load(std::memory_order_relaxed) != 1)
							bad++;
				}
				seen++;
			}
		});
	for (long v = 1; v <= 300; v++) {
		node *fresh = new node{ v, { 1 } };
		node *old = rcu_xchg_pointer(&shared_node, fresh);
		rcu::rcu_retire(old, poison());
		if (v % 100 == 0)
			rcu::rcu_barrier();
	}
	while (seen.load() < 300)
		sleep_ms(1);
	stop = 1;
	for (auto &t : readers)
		t.join();
	rcu::rcu_retire(rcu_xchg_pointer(&shared_node, (node *)nullptr), poison());
	rcu::rcu_barrier();
	CXX_CHECK(bad.load() == 0);
	std::lock_guard<std::mutex> l(graveyard_lock);
	CXX_CHECK(graveyard.size() == 301);
	for (node *n : graveyard)
		delete n;
	graveyard.clear();
}

#else /* QSBR */

void cxx_p2545_qsbr_registered_guard_holds(void)
{
	/* The control: a registered, online QSBR thread's guard works as before. */
	check_waits_for(guard_body, [] { synchronize_rcu(); });
	check_waits_for(domain_lock_body, [] { rcu::rcu_synchronize(); });
}

#endif

/* Death-test bodies (every flavour builds them; p2545_main.c runs QSBR's). */
void cxx_p2545_guard_in_new_thread(void *arg)
{
	(void)arg;
	std::thread t([] { rcu::rcu_read_guard g; });
	t.join();
}

void cxx_p2545_domain_lock_in_new_thread(void *arg)
{
	(void)arg;
	std::thread t([] {
		rcu::rcu_default_domain().lock();
		rcu::rcu_default_domain().unlock();
	});
	t.join();
}

void cxx_p2545_guard_offline(void *arg)
{
	(void)arg;
	std::thread t([] {
		rcu_register_thread();
		rcu_thread_offline();
		rcu::rcu_read_guard g;
	});
	t.join();
}
