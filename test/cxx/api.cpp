/* SPDX-License-Identifier: 0BSD */
/*
 * test/cxx/api.cpp: the C++ layer of rcu.h (namespace rcu): the scoped reader guards, the C++26
 * <rcu> names (rcu_domain, rcu_default_domain(), rcu_obj_base, rcu_retire(), rcu_synchronize(),
 * rcu_barrier()) and the SRCU domains behind them. Each check is one a wrong implementation
 * fails: a guard that does not hold grace periods, a domain that std::scoped_lock cannot lock or
 * that locks the wrong domain, an object reclaimed before its readers are done or never.
 * Registered as tests by cxx_main.c (see cxx_check.h for why the driver is C).
 */
#include "rcu.h"

#include <mutex>
#include <type_traits>

#include "cxx_check.h"

using cxxtest::check_waits_for;
using cxxtest::holder;
using cxxtest::sleep_ms;

namespace {

/* Is the calling thread inside an rcu_read_lock() section? QSBR cannot tell (an online thread
 * is always "inside"), so the section checks below that need it are for the other flavours. */
#if defined(RCU_FLAVOUR_QSBR)
const bool can_tell_sections = false;
#else
const bool can_tell_sections = true;
#endif

} /* namespace */

void cxx_guard_holds_grace_periods(void)
{
	auto guard = [](holder &h) {
		rcu::rcu_read_guard g;
		h.inside();
	};
	check_waits_for(guard, [] { synchronize_rcu(); });
	check_waits_for(guard, [] { rcu::rcu_synchronize(); });
	check_waits_for(guard, [] { rcu::rcu_synchronize(rcu::rcu_default_domain()); });
}

void cxx_guard_nests_and_unwinds(void)
{
	rcu_register_thread();
	{
		rcu::rcu_read_guard outer;
		{
			rcu::rcu_read_guard inner;
			CXX_CHECK(rcu_read_ongoing());
		}
		CXX_CHECK(rcu_read_ongoing()); /* the outer section is still open */
	}
	if (can_tell_sections)
		CXX_CHECK(!rcu_read_ongoing());
	/* An exception leaves the section too. */
	bool caught = false;
	try {
		rcu::rcu_read_guard g;
		throw 42;
	} catch (int) {
		caught = true;
	}
	CXX_CHECK(caught);
	if (can_tell_sections)
		CXX_CHECK(!rcu_read_ongoing());
	synchronize_rcu(); /* would deadlock if a section had been left open */
	rcu_unregister_thread();
}

void cxx_domain_is_lockable(void)
{
	static_assert(!std::is_copy_constructible<rcu::rcu_domain>::value, "rcu_domain is not copyable");
	static_assert(!std::is_copy_assignable<rcu::rcu_domain>::value, "rcu_domain is not assignable");
	static_assert(noexcept(rcu::rcu_default_domain().lock()), "lock() is noexcept (C++26)");
	static_assert(noexcept(rcu::rcu_default_domain().unlock()), "unlock() is noexcept (C++26)");
	static_assert(noexcept(rcu::rcu_default_domain().try_lock()), "try_lock() is noexcept");
	static_assert(std::is_same<decltype(rcu::rcu_default_domain().try_lock()), bool>::value, "try_lock() -> bool");

	/* The standard's RAII locks take the domain and hold grace periods for their scope. */
	check_waits_for([](holder &h) {
		std::lock_guard<rcu::rcu_domain> lk(rcu::rcu_default_domain());
		h.inside();
	}, [] { synchronize_rcu(); });
#if __cplusplus >= 201703L
	check_waits_for([](holder &h) {
		std::scoped_lock lk(rcu::rcu_default_domain());
		h.inside();
	}, [] { rcu::rcu_synchronize(); });
#endif
	check_waits_for([](holder &h) {
		std::unique_lock<rcu::rcu_domain> lk(rcu::rcu_default_domain(), std::try_to_lock);
		CXX_CHECK(lk.owns_lock());
		h.inside();
	}, [] { synchronize_rcu(); });

	rcu_register_thread();
	{
		std::unique_lock<rcu::rcu_domain> lk(rcu::rcu_default_domain());
		CXX_CHECK(lk.owns_lock() && rcu_read_ongoing());
		lk.unlock();
		if (can_tell_sections)
			CXX_CHECK(!rcu_read_ongoing());
		CXX_CHECK(lk.try_lock());
		CXX_CHECK(rcu_read_ongoing());
	}
	if (can_tell_sections)
		CXX_CHECK(!rcu_read_ongoing());
	rcu_unregister_thread();
}

void cxx_domain_with_a_mutex(void)
{
	/* std::lock's deadlock avoidance over a mutex and the domain: both held, then both released. */
	static std::mutex m;
	rcu_register_thread();
	{
		std::unique_lock<rcu::rcu_domain> a(rcu::rcu_default_domain(), std::defer_lock);
		std::unique_lock<std::mutex> b(m, std::defer_lock);
		std::lock(a, b);
		CXX_CHECK(a.owns_lock() && b.owns_lock() && rcu_read_ongoing());
		std::thread t([] { CXX_CHECK(!m.try_lock()); });
		t.join();
	}
	if (can_tell_sections)
		CXX_CHECK(!rcu_read_ongoing());
	CXX_CHECK(m.try_lock());
	m.unlock();
#if __cplusplus >= 201703L
	{
		std::scoped_lock lk(m, rcu::rcu_default_domain());
		CXX_CHECK(rcu_read_ongoing());
	}
	if (can_tell_sections)
		CXX_CHECK(!rcu_read_ongoing());
#endif
	rcu_unregister_thread();
}

/*
 * The SRCU domains these tests create live in the test function (their destructor runs at its
 * end, as a scoped object's does); the lambdas reach the current one through this pointer.
 * A domain object that lives until exit is test/cxx/static_domain.cpp's subject.
 */
static rcu::srcu_domain *test_domain;

void cxx_srcu_guard_and_domain(void)
{
	rcu::srcu_domain dom("cxx test domain");
	test_domain = &dom;
	auto reader = [](holder &h) {
		rcu::srcu_read_guard g(test_domain->srcu_struct());
		CXX_CHECK(srcu_read_lock_held(&test_domain->srcu_struct()));
		h.inside();
	};
	/* A reader of the domain (no registration needed) holds the domain's grace periods... */
	check_waits_for(reader, [] { rcu::rcu_synchronize(*test_domain); }, false);
	check_waits_for(reader, [] { synchronize_srcu(&test_domain->srcu_struct()); }, false);
	check_waits_for(reader, [] { rcu::rcu_synchronize(*test_domain); }); /* registered too */
	/* ...and not the default domain's. */
	holder h;
	h.start_unregistered(reader);
	synchronize_rcu(); /* returns: the test would time out otherwise */
	rcu::rcu_synchronize();
	h.release();

	/* The domain as a Cpp17Lockable. */
	check_waits_for([](holder &hh) {
		std::lock_guard<rcu::rcu_domain> lk(*test_domain);
		CXX_CHECK(srcu_read_lock_held(&test_domain->srcu_struct()));
		hh.inside();
	}, [] { rcu::rcu_synchronize(*test_domain); }, false);
	CXX_CHECK(dom.srcu() == &dom.srcu_struct());
	CXX_CHECK(!srcu_read_lock_held(&dom.srcu_struct()));
}

DEFINE_STATIC_SRCU(view_a);
DEFINE_STATIC_SRCU(view_b);

void cxx_srcu_view(void)
{
	/* rcu_domain(srcu_struct &): a domain object over an SRCU domain the program defined. */
	static rcu::rcu_domain a(view_a);
	static rcu::rcu_domain b(view_b);
	CXX_CHECK(a.srcu() == &view_a && b.srcu() == &view_b && rcu::rcu_default_domain().srcu() == nullptr);
	rcu_register_thread();
	{
		std::lock_guard<rcu::rcu_domain> la(a);
		CXX_CHECK(srcu_read_lock_held(&view_a) && !srcu_read_lock_held(&view_b));
		{
			std::lock_guard<rcu::rcu_domain> lb(b);
			std::lock_guard<rcu::rcu_domain> la2(a); /* nested in the same domain */
			CXX_CHECK(srcu_read_lock_held(&view_a) && srcu_read_lock_held(&view_b));
		}
		CXX_CHECK(srcu_read_lock_held(&view_a) && !srcu_read_lock_held(&view_b));
	}
	CXX_CHECK(!srcu_read_lock_held(&view_a) && !srcu_read_lock_held(&view_b));
#if __cplusplus >= 201703L
	{
		std::scoped_lock lk(rcu::rcu_default_domain(), a, b);
		CXX_CHECK(rcu_read_ongoing() && srcu_read_lock_held(&view_a) && srcu_read_lock_held(&view_b));
	}
	CXX_CHECK(!srcu_read_lock_held(&view_a) && !srcu_read_lock_held(&view_b));
	if (can_tell_sections)
		CXX_CHECK(!rcu_read_ongoing());
#endif
	rcu_unregister_thread();
	/* A reader of view_a holds view_a's grace periods, not view_b's. */
	check_waits_for([](holder &h) {
		std::lock_guard<rcu::rcu_domain> l(a);
		h.inside();
	}, [] { rcu::rcu_synchronize(a); }, false);
	holder h;
	h.start_unregistered([](holder &hh) {
		std::lock_guard<rcu::rcu_domain> l(a);
		hh.inside();
	});
	rcu::rcu_synchronize(b);
	synchronize_srcu(&view_b);
	h.release();
}

namespace {

/* Objects retired through RCU; `reclaimed` counts their destructions. */
std::atomic<int> reclaimed(0), deleter_calls(0);

struct config : rcu::rcu_obj_base<config> {
	int value;
	explicit config(int v) : value(v) {}
	~config() { reclaimed++; value = -1; }
};

struct counting_deleter {
	template <class T> void operator()(T *p) const
	{
		deleter_calls++;
		delete p;
	}
};

struct config_d : rcu::rcu_obj_base<config_d, counting_deleter> {
	int value;
	explicit config_d(int v) : value(v) {}
	~config_d() { reclaimed++; }
};

} /* namespace */

/* What a reader saw of the object after it was retired: its value, still intact. */
static std::atomic<int> seen_after_retire(0);

template <class T> static void retire_while_read(T *obj, rcu::rcu_domain &dom, void (*retire)(T *))
{
	static std::atomic<T *> shared(nullptr);
	static rcu::rcu_domain *d;
	d = &dom;
	rcu_assign_pointer(shared, obj);
	reclaimed = 0;
	holder h;
	h.start([](holder &hh) {
		std::lock_guard<rcu::rcu_domain> l(*d);
		T *p = rcu_dereference(shared);
		hh.inside(); /* the updater retires p meanwhile */
		seen_after_retire = p->value;
	});
	rcu_assign_pointer(shared, nullptr);
	retire(obj);
	sleep_ms(50);
	CXX_CHECK(reclaimed == 0); /* a reader holds it: not before a grace period */
	h.release();
	CXX_CHECK(seen_after_retire == 7);
	rcu::rcu_barrier(dom);
	CXX_CHECK(reclaimed == 1); /* and once after it */
}

void cxx_obj_base_retire(void)
{
	retire_while_read<config>(new config(7), rcu::rcu_default_domain(), [](config *p) { p->retire(); });
	deleter_calls = 0;
	retire_while_read<config_d>(new config_d(7), rcu::rcu_default_domain(), [](config_d *p) {
		p->retire(counting_deleter());
	});
	CXX_CHECK(deleter_calls == 1); /* the class's D, called once */
}

void cxx_obj_base_retire_srcu(void)
{
	rcu::srcu_domain dom("retire domain");
	test_domain = &dom;
	retire_while_read<config>(new config(7), dom, [](config *p) {
		p->retire(std::default_delete<config>(), *test_domain);
	});
}

void cxx_rcu_retire(void)
{
	rcu::srcu_domain dom("rcu_retire domain");
	test_domain = &dom;
	struct plain {
		int value;
		~plain() { reclaimed++; }
	};
	retire_while_read<plain>(new plain{ 7 }, rcu::rcu_default_domain(), [](plain *p) { rcu::rcu_retire(p); });
	retire_while_read<plain>(new plain{ 7 }, dom, [](plain *p) {
		rcu::rcu_retire(p, std::default_delete<plain>(), *test_domain);
	});
	/* A deleter of the caller's type, run once, after the grace period. */
	static std::atomic<int> calls(0);
	struct del {
		void operator()(plain *p) const
		{
			calls++;
			delete p;
		}
	};
	retire_while_read<plain>(new plain{ 7 }, rcu::rcu_default_domain(), [](plain *p) { rcu::rcu_retire(p, del()); });
	CXX_CHECK(calls == 1);
}

void cxx_callbacks_and_barrier(void)
{
	/* call_rcu() from C++ with a lambda (a captureless lambda converts to the callback type;
	 * the deleted nullptr overload must not get in its way). */
	static std::atomic<int> runs(0);
	static struct rcu_head heads[8];
	for (auto &h : heads)
		call_rcu(&h, [](struct rcu_head *) { runs++; });
	rcu::rcu_barrier();
	CXX_CHECK(runs == 8);
	rcu::rcu_domain &dom = rcu::rcu_default_domain();
	for (auto &h : heads)
		dom.call(&h, [](struct rcu_head *) { runs++; });
	rcu_barrier(); /* the C function: the same barrier */
	CXX_CHECK(runs == 16);
}

void cxx_default_domain(void)
{
	CXX_CHECK(&rcu::rcu_default_domain() == &rcu::rcu_default_domain());
	CXX_CHECK(rcu::rcu_default_domain().srcu() == nullptr);
	/* C++26 spells them std::; code written against P2545 compiles with a namespace alias. */
	namespace stdx = rcu;
	stdx::rcu_domain &dom = stdx::rcu_default_domain();
	stdx::rcu_synchronize(dom);
	stdx::rcu_barrier(dom);
	stdx::rcu_synchronize();
	stdx::rcu_barrier();
}
