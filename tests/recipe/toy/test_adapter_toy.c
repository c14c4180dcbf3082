/* test_adapter_toy.c - the toy adapter (tests/recipe/toy) on its answer. */
#include "gpucmp/adapter.h"

extern const struct adapter adapter_toy;
#define AD adapter_toy
#define FIX "tests/fixtures/http/toy"

#include "adapter_testutil.h"

/* Both instances, their GPUs inferred by adapter_emit. */
static void test_instances(void **state)
{
	(void)state;
	struct offer_store s;
	expect_parsed_file(0, FIX "/instances.json", &s, 0, 2);
	const struct offer *o = must_find(&s, "toy-h100x8", "toy-fra1");
	assert_string_equal(o->provider, "toy");
	assert_string_equal(o->gpu, "h100-sxm");
	assert_float_equal(o->gpu_count, 8, 0);
	assert_float_equal(o->price_hr, 19.5, 1e-9);
	offer_store_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_instances),
	};
	return cmocka_run_group_tests(tests, catalog_setup, catalog_teardown);
}
