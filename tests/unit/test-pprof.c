// SPDX-License-Identifier: GPL-2.0
/*
 * The pprof writer read back: tests/data/perf-g.data converted into memory,
 * gunzipped with zlib and unpacked by protoc-c's generated reader, then
 * held to profile.proto's rules (string 0 is "", every id points at
 * something, every sample has one value per sample type) and to the
 * input's counts.
 */
#include <errno.h>
#include <zlib.h>
#include <pulse/convert-pprof.h>
#include <pulse/session.h>
#include "profile.pb-c.h"
#include "test.h"

static char *profile_bytes;
static size_t profile_len;

/* gunzip @in into a malloc()ed buffer */
static int gunzip(const void *in, size_t len, uint8_t **out, size_t *out_len)
{
	z_stream z = { 0 };
	size_t alloc = 1 << 20;
	int ret;

	*out = malloc(alloc);
	*out_len = 0;
	if (!*out || inflateInit2(&z, 15 + 16) != Z_OK)
		return -ENOMEM;
	z.next_in = (Bytef *)in;
	z.avail_in = len;
	do {
		if (*out_len == alloc) {
			alloc *= 2;
			*out = realloc(*out, alloc);
			if (!*out)
				return -ENOMEM;
		}
		z.next_out = *out + *out_len;
		z.avail_out = alloc - *out_len;
		ret = inflate(&z, Z_NO_FLUSH);
		*out_len = alloc - z.avail_out;
	} while (ret == Z_OK);
	inflateEnd(&z);
	return ret == Z_STREAM_END ? 0 : -EBADMSG;
}

static Perftools__Profiles__Profile *convert(const char *path, struct pulse_pprof_stats *st)
{
	struct pulse_symbol_opts so = { .sz = sizeof(so) };
	struct pulse_session *s;
	FILE *f;
	uint8_t *raw;
	size_t raw_len;
	Perftools__Profiles__Profile *prof = NULL;

	free(profile_bytes);
	profile_bytes = NULL;
	if (pulse_session__new(&s, path, NULL))
		return NULL;
	f = open_memstream(&profile_bytes, &profile_len);
	if (f && !pulse_session__init_machine(s, &so) && !pulse_pprof__convert(s, f, NULL, st) &&
	    !fclose(f) && !gunzip(profile_bytes, profile_len, &raw, &raw_len)) {
		prof = perftools__profiles__profile__unpack(NULL, raw_len, raw);
		free(raw);
	}
	pulse_session__delete(s);
	return prof;
}

static void test_pprof__read_back(void)
{
	struct pulse_pprof_stats st;
	Perftools__Profiles__Profile *p = convert("tests/data/perf-g.data", &st);
	uint64_t count = 0;

	ASSERT_TRUE(p);
	ASSERT_TRUE(p->n_string_table > 0);
	ASSERT_STREQ(p->string_table[0], "");
	/* samples/count, then the one event's period */
	ASSERT_EQ(p->n_sample_type, 2);
	ASSERT_STREQ(p->string_table[p->sample_type[0]->type], "samples");
	ASSERT_STREQ(p->string_table[p->sample_type[0]->unit], "count");
	ASSERT_EQ(p->default_sample_type, p->sample_type[1]->type);
	ASSERT_EQ(p->n_sample, st.nr_pprof_samples);
	ASSERT_EQ(p->n_location, st.nr_locations);
	ASSERT_EQ(p->n_mapping, st.nr_mappings);
	for (size_t i = 0; i < p->n_sample; i++) {
		const Perftools__Profiles__Sample *smp = p->sample[i];

		ASSERT_EQ(smp->n_value, p->n_sample_type);
		ASSERT_TRUE(smp->n_location_id > 0);
		for (size_t l = 0; l < smp->n_location_id; l++)
			ASSERT_TRUE(smp->location_id[l] >= 1 &&
				    smp->location_id[l] <= p->n_location);
		ASSERT_EQ(smp->n_label, 3);
		ASSERT_STREQ(p->string_table[smp->label[0]->key], "comm");
		ASSERT_STREQ(p->string_table[smp->label[1]->key], "pid");
		ASSERT_STREQ(p->string_table[smp->label[2]->key], "tid");
		count += smp->value[0];
	}
	/* merging keeps every sample's count */
	ASSERT_EQ(count, st.nr_samples);
	for (size_t i = 0; i < p->n_location; i++) {
		const Perftools__Profiles__Location *loc = p->location[i];

		ASSERT_EQ(loc->id, i + 1);
		ASSERT_TRUE(loc->mapping_id <= p->n_mapping);
		for (size_t l = 0; l < loc->n_line; l++)
			ASSERT_TRUE(loc->line[l]->function_id >= 1 &&
				    loc->line[l]->function_id <= p->n_function);
	}
	for (size_t i = 0; i < p->n_function; i++)
		ASSERT_TRUE(p->function[i]->name > 0 && p->function[i]->name < p->n_string_table);
	perftools__profiles__profile__free_unpacked(p, NULL);
}

/* two events: a value column each, and a sample has a value in its own only */
static void test_pprof__two_events(void)
{
	struct pulse_pprof_stats st;
	Perftools__Profiles__Profile *p = convert("tests/data/perf-2ev.data", &st);
	uint64_t count = 0;

	ASSERT_TRUE(p);
	ASSERT_EQ(p->n_sample_type, 3);
	for (size_t i = 0; i < p->n_sample; i++) {
		const Perftools__Profiles__Sample *smp = p->sample[i];

		ASSERT_EQ(smp->n_value, 3);
		ASSERT_TRUE(!smp->value[1] || !smp->value[2]);
		count += smp->value[0];
	}
	ASSERT_EQ(count, st.nr_samples);
	perftools__profiles__profile__free_unpacked(p, NULL);
}

TEST_MAIN(TEST(test_pprof__read_back), TEST(test_pprof__two_events))
