// SPDX-License-Identifier: LGPL-2.1-or-later
/* /proc/zoneinfo: zones, their node and watermarks. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "internal.h"

static void assert_zone(const struct reclaim_zone *z, int node, const char *name, uint64_t free,
			uint64_t min, uint64_t low, uint64_t high, uint64_t managed)
{
	assert_int_equal(z->node, node);
	assert_string_equal(z->name, name);
	assert_int_equal(z->free, free);
	assert_int_equal(z->min, min);
	assert_int_equal(z->low, low);
	assert_int_equal(z->high, high);
	assert_int_equal(z->managed, managed);
}

/* A real /proc/zoneinfo of a 2-CPU Debian 12 guest: DMA, DMA32, Normal, and
 * the unpopulated Movable and Device zones, which must be left out. */
static void test_fixture(void **state)
{
	struct reclaim_zone *zones = NULL;
	struct reclaim_ctx *ctx;
	char *text = NULL;
	size_t n = 0;

	assert_int_equal(reclaim_new(&ctx, FIXTURES_DIR "/live-debian12-2cpu"), 0);
	assert_int_equal(reclaim_read_file(ctx, "/proc/zoneinfo", &text, NULL), 0);
	assert_int_equal(reclaim_zoneinfo_parse(text, &zones, &n, NULL), 0);
	assert_int_equal(n, 3);
	assert_zone(&zones[0], 0, "DMA", 3840, 33, 41, 49, 3840);
	assert_zone(&zones[1], 0, "DMA32", 772917, 6788, 8485, 10182, 772917);
	assert_zone(&zones[2], 0, "Normal", 547258, 10073, 12591, 15109, 1146880);
	reclaim_zones_free(zones, n);
	free(text);
	reclaim_unref(ctx);
}

static const char two_nodes[] = "Node 0, zone      DMA\n"
				"  per-node stats\n"
				"      nr_inactive_anon 1343\n"
				"      nr_free_pages 99\n"
				"  pages free     3840\n"
				"        boost    0\n"
				"        min      33\n"
				"        low      41\n"
				"        high     49\n"
				"        promo    57\n"
				"        spanned  4095\n"
				"        present  3998\n"
				"        managed  3840\n"
				"        protection: (0, 3019, 7499, 7499, 7499)\n"
				"      nr_free_pages 3840\n"
				"  pagesets\n"
				"    cpu: 0\n"
				"              count:    6356\n"
				"              high:     6421\n"
				"              batch:    63\n"
				"  vm stats threshold: 4\n"
				"  node_unreclaimable:  0\n"
				"  start_pfn:           1\n"
				"Node 0, zone  Movable\n"
				"  pages free     0\n"
				"        min      32\n"
				"        low      32\n"
				"        high     32\n"
				"        present  0\n"
				"        managed  0\n"
				"Node 1, zone   Normal\n"
				"  pages free     1000\n"
				"        min      100\n"
				"        low      200\n"
				"        high     300\n"
				"        present  5000\n"
				"        managed  4000\n"
				"Node 1, zone   Device\n"
				"  pages free     0\n"
				"        present  0\n"
				"        managed  0\n";

static void test_two_nodes(void **state)
{
	struct reclaim_zone *zones = NULL;
	size_t n = 0;

	assert_int_equal(reclaim_zoneinfo_parse(two_nodes, &zones, &n, NULL), 0);
	assert_int_equal(n, 2);
	/* Pageset "high:" and per-cpu counts must not override the watermarks. */
	assert_zone(&zones[0], 0, "DMA", 3840, 33, 41, 49, 3840);
	/* The empty Movable zone in between is dropped, the next one kept intact. */
	assert_zone(&zones[1], 1, "Normal", 1000, 100, 200, 300, 4000);
	reclaim_zones_free(zones, n);
}

static void test_zone_without_present_line_is_kept(void **state)
{
	struct reclaim_zone *zones = NULL;
	size_t n = 0;

	assert_int_equal(reclaim_zoneinfo_parse("Node 3, zone Normal\n"
						"  pages free 5\n"
						"        min 1\n"
						"        low 2\n"
						"        high 3\n"
						"        managed 9",
						&zones, &n, NULL),
			 0);
	assert_int_equal(n, 1);
	assert_zone(&zones[0], 3, "Normal", 5, 1, 2, 3, 9);
	reclaim_zones_free(zones, n);
}

static void test_present_resets_per_zone(void **state)
{
	struct reclaim_zone *zones = NULL;
	size_t n = 0;

	/* "present 0" of one zone must not make the next zone (without a present line) vanish. */
	assert_int_equal(reclaim_zoneinfo_parse("Node 0, zone DMA\n"
						"        present  0\n"
						"Node 0, zone Normal\n"
						"        min 1\n        low 2\n        high 3\n"
						"        managed  7\n",
						&zones, &n, NULL),
			 0);
	assert_int_equal(n, 1);
	assert_string_equal(zones[0].name, "Normal");
	assert_int_equal(zones[0].managed, 7);
	reclaim_zones_free(zones, n);
}

static void test_empty(void **state)
{
	struct reclaim_zone *zones = NULL;
	size_t n = 99;

	assert_int_equal(reclaim_zoneinfo_parse("", &zones, &n, NULL), 0);
	assert_int_equal(n, 0);
	reclaim_zones_free(zones, n);

	/* Lines before the first header belong to no zone. */
	assert_int_equal(reclaim_zoneinfo_parse("  pages free 5\n  min 3\n", &zones, &n, NULL), 0);
	assert_int_equal(n, 0);
	reclaim_zones_free(zones, n);
}

static void test_only_empty_zones(void **state)
{
	struct reclaim_zone *zones = NULL;
	size_t n = 99;

	assert_int_equal(reclaim_zoneinfo_parse("Node 0, zone Movable\n  present 0\n"
						"Node 0, zone Device\n  present 0\n",
						&zones, &n, NULL),
			 0);
	assert_int_equal(n, 0);
	reclaim_zones_free(zones, n);
}

static void test_malformed_header(void **state)
{
	struct reclaim_zone *zones = NULL;
	size_t n = 99;

	assert_int_equal(reclaim_zoneinfo_parse("Node x, zone DMA\n", &zones, &n, NULL), -EINVAL);
	assert_int_equal(reclaim_zoneinfo_parse("Node 0 zone DMA\n", &zones, &n, NULL), -EINVAL);
	assert_int_equal(reclaim_zoneinfo_parse("Node 0, zone\n", &zones, &n, NULL), -EINVAL);
	assert_int_equal(reclaim_zoneinfo_parse("Node -1, zone DMA\n", &zones, &n, NULL), -EINVAL);
	/* After good zones: what was built so far is freed (valgrind checks). */
	assert_int_equal(reclaim_zoneinfo_parse("Node 0, zone DMA\n  pages free 1\n"
						"Node 0, zone Normal\n  pages free 2\n"
						"Node 1, zone\n",
						&zones, &n, NULL),
			 -EINVAL);
	assert_int_equal(n, 99);
}

static void test_trailing_garbage_on_value_line(void **state)
{
	struct reclaim_zone *zones = NULL;
	size_t n = 0;

	/* A watermark line must hold a plain number: "min 5 x" or "low 0x18" is damage. */
	assert_int_equal(reclaim_zoneinfo_parse("Node 0, zone DMA\n        min 5 x\n        low 6\n"
						"        high 7\n",
						&zones, &n, NULL),
			 -EINVAL);
	assert_int_equal(
	    reclaim_zoneinfo_parse("Node 0, zone DMA\n        min 5\n        low 0x18\n"
				   "        high 7\n",
				   &zones, &n, NULL),
	    -EINVAL);
	/* A populated zone cut off before its watermarks: a truncated file. */
	assert_int_equal(
	    reclaim_zoneinfo_parse("Node 0, zone DMA\n        min 5\n        low 6\n"
				   "        high 7\nNode 0, zone Normal\n  pages free 3\n"
				   "        min 1\n",
				   &zones, &n, NULL),
	    -EINVAL);
	/* Control bytes in a line. */
	assert_int_equal(
	    reclaim_zoneinfo_parse("Node 0, zone DMA\n  pages free \001\n", &zones, &n, NULL),
	    -EINVAL);
}

static void test_long_lines(void **state)
{
	struct reclaim_zone *zones = NULL;
	size_t n = 0, len;
	char *text;

	/* A line far longer than the parser's line buffer, then a normal zone. */
	text = malloc(5000);
	assert_non_null(text);
	strcpy(text, "Node 0, zone DMA\n        protection: (");
	len = strlen(text);
	memset(text + len, '7', 4000);
	strcpy(text + len + 4000, ")\n        min 10\n        low 11\n        high 12\n");
	assert_int_equal(reclaim_zoneinfo_parse(text, &zones, &n, NULL), 0);
	assert_int_equal(n, 1);
	assert_int_equal(zones[0].high, 12);
	reclaim_zones_free(zones, n);
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_fixture),
	    cmocka_unit_test(test_two_nodes),
	    cmocka_unit_test(test_zone_without_present_line_is_kept),
	    cmocka_unit_test(test_present_resets_per_zone),
	    cmocka_unit_test(test_empty),
	    cmocka_unit_test(test_only_empty_zones),
	    cmocka_unit_test(test_malformed_header),
	    cmocka_unit_test(test_trailing_garbage_on_value_line),
	    cmocka_unit_test(test_long_lines),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
