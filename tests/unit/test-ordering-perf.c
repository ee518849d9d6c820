// SPDX-License-Identifier: GPL-2.0
/*
 * pulse_ordered against perf 6.1's ordered_events, record by record.
 *
 * perf keeps its queue as a sorted list and remembers max_timestamp only
 * when a record becomes the newest pending one or lands in an empty queue;
 * a FINISHED_ROUND flushes up to the max_timestamp of the round before, and
 * does nothing at all when the queue is empty. So once a round has
 * delivered everything, the next limit starts again from whatever is
 * queued next, even a record older than what was delivered. Files written
 * under load have such rounds (a few late records, then a round with
 * nothing newer), and a pulse that kept the largest timestamp ever seen
 * flushed records perf still held, so later, older records (an exec COMM,
 * say) came after samples perf gives them before.
 *
 * The model below is written from that description of perf's list, not
 * from the sort pulse uses, and random streams must come out of both in
 * the same order.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <linux/perf_event.h>
#include <pulse/ordering.h>
#include "test.h"

/* a queue, or NULL */
static struct pulse_ordered *ordered_new(pulse_ordered_fn fn, void *arg)
{
	struct pulse_ordered *q;

	return pulse_ordered__new(&q, fn, arg) ? NULL : q;
}

#define MAX_RECS 512

struct order_log {
	uint64_t seen[MAX_RECS];
	int n;
};

static int log_rec(const struct perf_event_header *rec, uint64_t file_offset, void *arg)
{
	struct order_log *log = arg;

	if (log->n < MAX_RECS)
		log->seen[log->n++] = file_offset;
	return 0;
}

/* ---- the model: perf's ordered_events as a sorted doubly linked list ---- */

struct model_ev {
	uint64_t ts, off;
	int prev, next;		/* indexes into model.ev; 0 is the list head */
};

struct model {
	struct model_ev ev[MAX_RECS + 1];
	int nr_ev;		/* entries used in ev[], the head included */
	int last;		/* the last queued record, 0: none */
	unsigned int nr_events;	/* pending */
	uint64_t next_flush, max_timestamp, last_flush;
	uint64_t nr_unordered;	/* queued older than last_flush */
	struct order_log *log;
};

static void model__init(struct model *m, struct order_log *log)
{
	memset(m, 0, sizeof(*m));
	m->nr_ev = 1;
	m->log = log;
}

static void model__link_after(struct model *m, int n, int pos)
{
	m->ev[n].prev = pos;
	m->ev[n].next = m->ev[pos].next;
	m->ev[m->ev[pos].next].prev = n;
	m->ev[pos].next = n;
}

/* perf walks from the last queued record to the new one's place */
static void model__queue(struct model *m, uint64_t ts, uint64_t off)
{
	int n = m->nr_ev++, pos = m->last;

	if (ts < m->last_flush)
		m->nr_unordered++;
	m->ev[n].ts = ts;
	m->ev[n].off = off;
	m->nr_events++;
	m->last = n;
	if (!pos) {
		model__link_after(m, n, 0);
		m->max_timestamp = ts;
		return;
	}
	if (m->ev[pos].ts <= ts) {
		while (m->ev[pos].ts <= ts) {
			if (m->ev[pos].next == 0) {
				model__link_after(m, n, pos);
				m->max_timestamp = ts;
				return;
			}
			pos = m->ev[pos].next;
		}
		model__link_after(m, n, m->ev[pos].prev);
	} else {
		while (m->ev[pos].ts > ts) {
			if (m->ev[pos].prev == 0) {
				model__link_after(m, n, 0);
				return;
			}
			pos = m->ev[pos].prev;
		}
		model__link_after(m, n, pos);
	}
}

static void model__flush(struct model *m, bool final)
{
	uint64_t limit, last_ts;
	int e;

	if (!m->nr_events)
		return;
	limit = final ? UINT64_MAX : m->next_flush;
	last_ts = m->last ? m->ev[m->last].ts : 0;
	if (limit) {
		while ((e = m->ev[0].next) && m->ev[e].ts <= limit) {
			log_rec(NULL, m->ev[e].off, m->log);
			m->last_flush = m->ev[e].ts;
			m->ev[0].next = m->ev[e].next;
			m->ev[m->ev[e].next].prev = 0;
			m->nr_events--;
		}
		if (!m->ev[0].next)
			m->last = 0;
		else if (last_ts <= limit)
			m->last = m->ev[0].prev;
	}
	if (!final)
		m->next_flush = m->max_timestamp;
}

/* ---- tests ---------------------------------------------------------------- */

/*
 * Round 2 delivers everything; 5 then starts a new maximum although 10 was
 * delivered, so round 4 stops at 5 and 7 waits for the late 6.
 */
static void test_ordering__limit_restarts_after_empty_queue(void)
{
	struct order_log log = { 0 };
	struct pulse_ordered *q = ordered_new(log_rec, &log);
	struct perf_event_header rec = { PERF_RECORD_SAMPLE, 0, 8 };
	static const uint64_t want[] = { 1, 2, 3, 5, 4 };

	ASSERT_TRUE(q != NULL);
	ASSERT_EQ(pulse_ordered__queue(q, &rec, 10, 1), 0);
	ASSERT_EQ(pulse_ordered__flush_round(q), 0);
	ASSERT_EQ(pulse_ordered__flush_round(q), 0);
	ASSERT_EQ(log.n, 1);
	ASSERT_EQ(pulse_ordered__queue(q, &rec, 5, 2), 0);
	ASSERT_EQ(pulse_ordered__flush_round(q), 0);
	ASSERT_EQ(log.n, 2);
	ASSERT_EQ(pulse_ordered__queue(q, &rec, 4, 3), 0);
	ASSERT_EQ(pulse_ordered__queue(q, &rec, 7, 4), 0);
	ASSERT_EQ(pulse_ordered__flush_round(q), 0);
	ASSERT_EQ(log.n, 3);		/* 7 is newer than the limit, 5 */
	ASSERT_EQ(pulse_ordered__queue(q, &rec, 6, 5), 0);
	ASSERT_EQ(pulse_ordered__flush(q), 0);
	ASSERT_EQ(log.n, 5);
	for (int i = 0; i < 5; i++)
		ASSERT_EQ(log.seen[i], want[i]);
	/* 5 after 10 was delivered, 4 after 5: perf's "out of order events" */
	ASSERT_EQ(pulse_ordered__nr_unordered(q), 2);
	pulse_ordered__delete(q);
}

/* A round with nothing queued leaves the limit where it was. */
static void test_ordering__empty_round(void)
{
	struct order_log log = { 0 };
	struct pulse_ordered *q = ordered_new(log_rec, &log);
	struct perf_event_header rec = { PERF_RECORD_SAMPLE, 0, 8 };

	ASSERT_TRUE(q != NULL);
	ASSERT_EQ(pulse_ordered__flush_round(q), 0);
	ASSERT_EQ(pulse_ordered__queue(q, &rec, 20, 1), 0);
	ASSERT_EQ(pulse_ordered__flush_round(q), 0);	/* limit 0: none */
	ASSERT_EQ(pulse_ordered__flush_round(q), 0);	/* up to 20 */
	ASSERT_EQ(pulse_ordered__flush_round(q), 0);	/* empty */
	ASSERT_EQ(pulse_ordered__queue(q, &rec, 15, 2), 0);
	ASSERT_EQ(pulse_ordered__queue(q, &rec, 25, 3), 0);
	ASSERT_EQ(pulse_ordered__flush_round(q), 0);	/* up to 20 still */
	ASSERT_EQ(log.n, 2);
	ASSERT_EQ(log.seen[1], 2);
	ASSERT_EQ(pulse_ordered__flush(q), 0);
	ASSERT_EQ(log.n, 3);
	pulse_ordered__delete(q);
}

static uint64_t rnd_state;

static uint32_t rnd(uint32_t n)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 7;
	rnd_state ^= rnd_state << 17;
	return (uint32_t)(rnd_state >> 11) % n;
}

/*
 * Streams like a loaded recording's: timestamps mostly rising, some late
 * by up to a few rounds, many equal, rounds of every size including empty
 * ones, a few records without a time.
 */
static void test_ordering__random_streams_as_perf(void)
{
	static struct model m;
	struct perf_event_header rec = { PERF_RECORD_SAMPLE, 0, 8 };
	int streams_differing = 0;

	rnd_state = 0x9e3779b97f4a7c15ULL;
	for (int it = 0; it < 20000; it++) {
		struct order_log a = { 0 }, b = { 0 };
		struct pulse_ordered *q = ordered_new(log_rec, &b);
		uint32_t n = rnd(MAX_RECS), step = 1 + rnd(6), late = 1 + rnd(40);
		uint32_t round_every = 2 + rnd(30);
		uint64_t base = 100, off = 0;

		ASSERT_TRUE(q != NULL);
		model__init(&m, &a);
		for (uint32_t i = 0; i < n; i++) {
			uint64_t ts;

			if (!rnd(round_every)) {
				model__flush(&m, false);
				ASSERT_EQ(pulse_ordered__flush_round(q), 0);
				continue;
			}
			base += rnd(step);
			ts = base - rnd(late);
			if (!rnd(50))
				ts = 0;
			off++;
			if (ts)
				model__queue(&m, ts, off);
			else
				log_rec(NULL, off, &a);
			if (pulse_ordered__queue(q, &rec, ts, off) == -ETIME)
				log_rec(NULL, off, &b);
		}
		model__flush(&m, true);
		ASSERT_EQ(pulse_ordered__flush(q), 0);
		ASSERT_EQ(pulse_ordered__nr_queued(q), 0);
		ASSERT_EQ(pulse_ordered__nr_unordered(q), m.nr_unordered);
		pulse_ordered__delete(q);
		ASSERT_EQ(a.n, off);
		ASSERT_EQ(b.n, off);
		if (memcmp(a.seen, b.seen, off * sizeof(a.seen[0])))
			streams_differing++;
	}
	ASSERT_EQ(streams_differing, 0);
}

TEST_MAIN(TEST(test_ordering__limit_restarts_after_empty_queue), TEST(test_ordering__empty_round),
	  TEST(test_ordering__random_streams_as_perf))
