/* SPDX-License-Identifier: 0BSD */
/*
 * examples/cxx_config.cpp: the configuration-reload pattern in C++. Reader threads look at the
 * current configuration inside an rcu::rcu_read_guard (a scoped read-side section); the reloader
 * builds a new configuration, publishes it with one pointer exchange on a std::atomic pointer,
 * and retires the old one with rcu_obj_base's retire(), which deletes it once no reader can still
 * be looking at it. At the end, rcu::rcu_barrier() waits for the last deletions.
 *
 * Checks: every configuration a reader sees is whole (its checksum matches and it is not being
 * destroyed), a reader never sees versions go backwards, and after rcu_barrier() every retired
 * configuration has been destroyed, once. Exits 0 when they hold.
 */
#include "rcu.h"

#include <atomic>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

namespace {

std::atomic<long> destroyed(0), bad_reads(0), lookups(0);

class config : public rcu::rcu_obj_base<config> {
public:
	explicit config(unsigned v) : version(v), name("config-" + std::to_string(v)), checksum(sum()) {}
	~config()
	{
		checksum = ~checksum; /* a reader that sees this saw a destroyed object */
		destroyed++;
	}
	bool whole() const
	{
		return checksum == sum();
	}
	const unsigned version;
	const std::string name;

private:
	unsigned sum() const
	{
		unsigned s = version * 2654435761u;
		for (char c : name)
			s = (s ^ static_cast<unsigned char>(c)) * 16777619u;
		return s;
	}
	unsigned checksum;
};

std::atomic<config *> current(nullptr);
std::atomic<bool> done(false);

void reader()
{
	rcu_register_thread(); /* a no-op in BP */
	unsigned last = 0;
	while (!done.load(std::memory_order_relaxed)) {
		{
			rcu::rcu_read_guard guard;
			const config *c = rcu_dereference(current);
			if (!c->whole() || c->version < last)
				bad_reads++;
			last = c->version;
		}
		lookups++;
		rcu_quiescent_state(); /* QSBR: between sections; elsewhere a no-op */
	}
	rcu_unregister_thread();
}

} /* namespace */

int main()
{
	const unsigned reloads = 2000;
	rcu_assign_pointer(current, new config(1));
	std::vector<std::thread> readers;
	for (int i = 0; i < 2; i++)
		readers.emplace_back(reader);
	for (unsigned v = 2; v <= reloads; v++) {
		config *old = rcu_xchg_pointer(&current, new config(v));
		old->retire(); /* deleted after a grace period */
	}
	while (lookups.load() < 10)
		std::this_thread::yield();
	done = true;
	for (auto &t : readers)
		t.join();
	rcu::rcu_barrier();
	const long retired = reloads - 1;
	std::printf("%ld lookups, %ld configurations retired and destroyed, %ld bad reads\n", lookups.load(),
		destroyed.load(), bad_reads.load());
	delete rcu_xchg_pointer(&current, nullptr);
	return bad_reads == 0 && destroyed == retired + 1 ? 0 : 1;
}
