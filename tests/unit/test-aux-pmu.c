// SPDX-License-Identifier: GPL-2.0
/*
 * Tests of the AUX-area PMU helpers (lib/event/aux-pmu.c) on the fake
 * sysfs tree tests/data/sysfs-pt (an intel_pt PMU with a Skylake's caps).
 */
#include <errno.h>
#include <pulse/event.h>
#include "test.h"

static const struct pulse_parse_opts fake = { .sz = sizeof(fake), .sysfs = "tests/data/sysfs-pt" };

static void test_aux_pmu__kinds(void)
{
	ASSERT_EQ(pulse_aux_pmu__kind("intel_pt"), PULSE_AUX_PMU_INTEL_PT);
	ASSERT_EQ(pulse_aux_pmu__kind("intel_bts"), PULSE_AUX_PMU_INTEL_BTS);
	ASSERT_EQ(pulse_aux_pmu__kind("cs_etm"), PULSE_AUX_PMU_CS_ETM);
	ASSERT_EQ(pulse_aux_pmu__kind("arm_spe"), PULSE_AUX_PMU_ARM_SPE);
	ASSERT_EQ(pulse_aux_pmu__kind("arm_spe_0"), PULSE_AUX_PMU_ARM_SPE);
	ASSERT_EQ(pulse_aux_pmu__kind("arm_spe_x"), PULSE_AUX_PMU_NONE);
	ASSERT_EQ(pulse_aux_pmu__kind("intel_ptx"), PULSE_AUX_PMU_NONE);
	ASSERT_EQ(pulse_aux_pmu__kind("cpu"), PULSE_AUX_PMU_NONE);
	ASSERT_EQ(pulse_aux_pmu__kind(NULL), PULSE_AUX_PMU_NONE);
	ASSERT_STREQ(pulse_aux_pmu__title(PULSE_AUX_PMU_INTEL_PT), "Intel PT");
}

static void test_aux_pmu__caps(void)
{
	__u64 v;
	__u32 n, d;

	ASSERT_EQ(pulse_aux_pmu__cap(&fake, "intel_pt", "mtc_periods", &v), 0);
	ASSERT_EQ(v, 0x249);
	ASSERT_EQ(pulse_aux_pmu__cap(&fake, "intel_pt", "psb_cyc", &v), 0);
	ASSERT_EQ(v, 1);
	ASSERT_EQ(pulse_aux_pmu__cap(&fake, "intel_pt", "nosuchcap", &v), -ENOENT);
	ASSERT_EQ(pulse_aux_pmu__cap(&fake, "../x", "mtc", &v), -EINVAL);
	ASSERT_EQ(pulse_aux_pmu__tsc_art_ratio(&fake, &n, &d), 0);
	ASSERT_EQ(n, 2);
	ASSERT_EQ(d, 200);
}

static void test_aux_pmu__default_config(void)
{
	struct pulse_evlist el = { 0 };
	char buf[256];

	ASSERT_EQ(pulse_aux_pmu__default_config(&fake, "intel_pt", buf, sizeof(buf)), 0);
	ASSERT_STREQ(buf, "tsc,mtc,mtc_period=3,psb_period=3,pt,branch");
	ASSERT_EQ(pulse_aux_pmu__default_config(&fake, "cs_etm", buf, sizeof(buf)), 0);
	ASSERT_STREQ(buf, "");
	ASSERT_EQ(pulse_evlist__parse(&el, "intel_pt//", &fake, NULL), 0);
	ASSERT_EQ(el.nr, 1);
	ASSERT_EQ(el.entries[0]->attr.type, 8);
	ASSERT_EQ(el.entries[0]->attr.config, 0x300e601);
	ASSERT_TRUE(pulse_evsel__is_aux(el.entries[0]));
	pulse_evlist__exit(&el);
}

static void test_aux_pmu__missing(void)
{
	struct pulse_evlist el = { 0 };
	struct pulse_parse_error err;

	ASSERT_EQ(pulse_evlist__parse(&el, "intel_pt//", &(struct pulse_parse_opts){
		.sz = sizeof(struct pulse_parse_opts), .sysfs = "tests/data/sysfs" }, &err), -ENOENT);
	ASSERT_STREQ(err.msg, "this CPU has no Intel PT: no PMU 'intel_pt' in /sys/bus/event_source/devices");
	ASSERT_TRUE(err.hint[0] != 0);
	pulse_evlist__exit(&el);
}

TEST_MAIN(TEST(test_aux_pmu__kinds),
	  TEST(test_aux_pmu__caps),
	  TEST(test_aux_pmu__default_config),
	  TEST(test_aux_pmu__missing))
