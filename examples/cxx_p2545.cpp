/* SPDX-License-Identifier: 0BSD */
/*
 * examples/cxx_p2545.cpp: code written against C++26's <rcu> (P2545: std::rcu_domain,
 * std::rcu_default_domain(), std::rcu_obj_base, std::rcu_retire(), std::rcu_synchronize(),
 * std::rcu_barrier()) compiled today against rcu.h's namespace rcu. The one line that chooses
 * is the namespace alias below: when the standard library has <rcu>, `namespace stdx = std;`.
 *
 * A small routing table: readers hold the default domain with std::scoped_lock, as C++26 lets
 * them (rcu_domain is Cpp17Lockable); the updater replaces routes, retires the old ones with
 * rcu_retire() and a deleter of its own, waits for readers with rcu_synchronize() before reusing
 * a slot, and waits for the deleters with rcu_barrier(). Exits 0 when its checks hold.
 */
#include "rcu.h"

#include <array>
#include <atomic>
#include <cstdio>
#include <mutex>
#include <thread>

#if defined(__cpp_lib_rcu)
#include <rcu>
namespace stdx = std;
#else
namespace stdx = rcu;
#endif

namespace {

struct route {
	int destination;
	int gateway; /* destination + 100 while in use; -1 once deleted */
};

std::atomic<long> deleted(0), bad(0), reads(0);

struct route_deleter {
	void operator()(route *r) const
	{
		r->gateway = -1;
		delete r;
		deleted++;
	}
};

std::array<std::atomic<route *>, 8> table;
std::atomic<bool> stop(false);

void reader()
{
#if defined(RCU_FLAVOUR_QSBR)
	/* rcu.h's QSBR only: readers register and report quiescent states. C++26 needs no call, nor
	 * do MEMB, MB and BP: a thread's first lock of the default domain registers it. */
	rcu_register_thread();
#endif
	while (!stop.load(std::memory_order_relaxed)) {
		for (auto &slot : table) {
#if __cplusplus >= 201703L
			std::scoped_lock lock(stdx::rcu_default_domain());
#else
			std::lock_guard<stdx::rcu_domain> lock(stdx::rcu_default_domain());
#endif
			route *r = slot.load(std::memory_order_acquire); /* C++26 code loads with acquire */
			if (r && r->gateway != r->destination + 100)
				bad++;
		}
		reads++;
#if defined(RCU_FLAVOUR_QSBR)
		rcu_quiescent_state(); /* between sections */
#endif
	}
#if defined(RCU_FLAVOUR_QSBR)
	rcu_unregister_thread();
#endif
}

} /* namespace */

int main()
{
	std::thread t1(reader), t2(reader);
	long retired = 0;
	for (int round = 0; round < 400; round++) {
		int i = round % static_cast<int>(table.size());
		route *r = new route{ round, round + 100 };
		route *old = table[i].exchange(r, std::memory_order_acq_rel);
		if (old) {
			if (round % 3 == 0) {
				stdx::rcu_retire(old, route_deleter()); /* deleted after a grace period */
			} else {
				stdx::rcu_synchronize(); /* wait for readers, then reuse at once */
				route_deleter()(old);
			}
			retired++;
		}
	}
	while (reads.load() < 10)
		std::this_thread::yield();
	stop = true;
	t1.join();
	t2.join();
	stdx::rcu_barrier();
	for (auto &slot : table)
		route_deleter()(slot.exchange(nullptr));
	std::printf("%ld reads, %ld routes deleted, %ld bad reads\n", reads.load(), deleted.load(), bad.load());
	return bad == 0 && deleted == retired + static_cast<long>(table.size()) ? 0 : 1;
}
