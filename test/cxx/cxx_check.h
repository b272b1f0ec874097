/* SPDX-License-Identifier: 0BSD */
/*
 * test/cxx/cxx_check.h: what the C++ test bodies share. The bodies are C++ functions with C
 * linkage, registered as tests by test/cxx/cxx_main.c, a C file that includes test/harness.h: so
 * the same tests run under Criterion and under test/runner.h (the ThreadSanitizer build, whose
 * runner is C). A failed CXX_CHECK prints where and what, and aborts: both runners take the
 * test's process dying of SIGABRT for a failure, from whichever thread it happens.
 */
#ifndef RCU_TEST_CXX_CHECK_H
#define RCU_TEST_CXX_CHECK_H

#ifdef __cplusplus
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>

#define CXX_CHECK(cond) \
	do { \
		if (!(cond)) { \
			std::fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
			std::fflush(stderr); \
			std::abort(); \
		} \
	} while (0)

namespace cxxtest {

inline void sleep_ms(int ms)
{
	std::this_thread::sleep_for(std::chrono::milliseconds(ms));
}

/* Wait until flag is set, 10 s at most (a liveness bound, not a timing check). */
inline bool wait_for(const std::atomic<int> &flag)
{
	for (int i = 0; i < 10000 && !flag.load(); i++)
		sleep_ms(1);
	return flag.load() != 0;
}

/*
 * A reader thread that runs body(*this). The body enters a section, calls inside(), and leaves
 * when inside() returns, which is after release(). start() registers the thread (and it reports
 * a quiescent state after the body): while it waits it neither leaves nor reports, so in QSBR
 * too it holds the default domain's grace periods. start_unregistered() does not register, as an
 * SRCU reader need not: it holds up its SRCU domain only, in every flavour.
 */
class holder {
public:
	template <class Body> void start(Body body)
	{
		run([body](holder &h) {
			rcu_register_thread();
			body(h);
			rcu_quiescent_state();
			rcu_unregister_thread();
		});
	}
	template <class Body> void start_unregistered(Body body)
	{
		run(body);
	}
	void inside()
	{
		inside_ = 1;
		while (!release_.load())
			sleep_ms(1);
	}
	void release()
	{
		release_ = 1;
		thread_.join();
	}

private:
	template <class Body> void run(Body body)
	{
		inside_ = 0;
		release_ = 0;
		thread_ = std::thread([this, body]() { body(*this); });
		CXX_CHECK(wait_for(inside_));
	}
	std::atomic<int> inside_{ 0 }, release_{ 0 };
	std::thread thread_;
};

/* A call (a grace period, a barrier) in a thread of its own, so that the test can watch it. */
class waiter {
public:
	template <class Call> void start(Call call)
	{
		done_ = 0;
		thread_ = std::thread([this, call]() {
			call();
			done_ = 1;
		});
	}
	bool done() const
	{
		return done_.load() != 0;
	}
	void join()
	{
		thread_.join();
	}

private:
	std::atomic<int> done_{ 0 };
	std::thread thread_;
};

/* `call` must not return while a reader started by `enter_section` (in a registered thread, or
 * not) is inside: checked after 50 ms (a correct RCU never returns then, however long one looks),
 * and it returns once the reader has left. */
template <class Body, class Call> void check_waits_for(Body enter_section, Call call, bool registered = true)
{
	holder h;
	if (registered)
		h.start(enter_section);
	else
		h.start_unregistered(enter_section);
	waiter w;
	w.start(call);
	sleep_ms(50);
	CXX_CHECK(!w.done());
	h.release();
	w.join();
	CXX_CHECK(w.done());
}

} /* namespace cxxtest */
#endif /* __cplusplus */

/* The test bodies, for the C driver. */
#ifdef __cplusplus
extern "C" {
#endif
void cxx_guard_holds_grace_periods(void);
void cxx_guard_nests_and_unwinds(void);
void cxx_domain_is_lockable(void);
void cxx_domain_with_a_mutex(void);
void cxx_srcu_guard_and_domain(void);
void cxx_srcu_view(void);
void cxx_obj_base_retire(void);
void cxx_obj_base_retire_srcu(void);
void cxx_rcu_retire(void);
void cxx_callbacks_and_barrier(void);
void cxx_default_domain(void);
void cxx_pointers_plain_values(void);
void cxx_pointers_plain_race(void);
void cxx_pointers_std_atomic_values(void);
void cxx_pointers_std_atomic_race(void);
void cxx_pointers_c23_atomic_values(void); /* a no-op before C++23 (or without <stdatomic.h>) */
void cxx_pointers_c23_atomic_race(void);
void cxx_pointers_conversions(void);
#ifdef __cplusplus
}
#endif

#endif /* RCU_TEST_CXX_CHECK_H */
