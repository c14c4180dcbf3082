/* fuzz_team.c - libFuzzer target for a pulled team snapshot's payload
 * (team_merge, the step of `refresh --from` after the manifest, signature
 * and sha256 checks; docs/TEAM.md).
 *
 * The input is a force byte, then the inflated payload: NDJSON lines, each
 * a provider record ({"type":"provider",...}) followed by its offers.  The
 * merge runs in one transaction on an in-memory cache: it must never crash
 * or leak, every offer it stores passes the door (fuzz_common.h), and a
 * refused payload changes nothing (the offer count stays).  The line
 * reader and its gzip side alone: fuzz_team_lines.c; the manifest:
 * fuzz_team_manifest.c.  Seeds: tests/fuzz/regress/team/.
 */
#include "fuzz_common.h"
#include "gpucmp/cache.h"
#include "gpucmp/team.h"

static struct cache *cache;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_load_catalog();
	struct cache_open_info info;
	char *err = NULL;
	if (cache_open(&cache, NULL, &fuzz_cat, &info, &err) != GC_OK)
		fuzz_fail("cannot open an in-memory cache: %s", err ? err : "?");
	cache_open_info_release(&info);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	char *text = fuzz_copy(data + 1, size - 1);
	long long before = 0, after = 0;
	cache_count(cache, &before, NULL);
	struct team_pull_result r;
	char *err = NULL;
	enum gc_status st = team_merge(cache, text, size - 1, data[0] & 1, &r, &err);
	cache_count(cache, &after, NULL);
	if (st != GC_OK && after != before)
		fuzz_fail("a refused payload changed the cache (%lld -> %lld offers)", before,
			  after);
	if (st != GC_OK && !err)
		fuzz_fail("refused without a message");
	for (size_t i = 0; st == GC_OK && i < r.nproviders; i++)
		if (!r.providers[i].id[0])
			fuzz_fail("provider #%zu has no id", i);
	team_pull_result_release(&r);
	free(err);
	free(text);
	return 0;
}
