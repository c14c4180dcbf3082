/* fuzz_team_manifest.c - libFuzzer target for a pulled team snapshot's
 * manifest reader (team_manifest_read, team.h; docs/TEAM.md): the size
 * cap, the JSON value cap, the format and version, the payload's size and
 * sha256, the provider list and its counts.
 *
 * The input is the manifest's text.  It must never crash or leak; every
 * refusal has a message; a manifest it takes names a payload of at least
 * one byte and a sha256 of 64 lowercase hex digits, and lists valid
 * provider ids, each once, whose offers add up to its total.  Seeds: a
 * manifest as export writes it (tests/fuzz/seeds.sh).
 */
#include "fuzz_common.h"
#include "gpucmp/import.h"
#include "gpucmp/team.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

static void check(const struct team_manifest *m)
{
	if (m->payload_bytes < 1 || strlen(m->sha256) != 64 ||
	    strspn(m->sha256, "0123456789abcdef") != 64)
		fuzz_fail("a manifest taken with payload %zu bytes, sha256 '%s'", m->payload_bytes,
			  m->sha256);
	size_t sum = 0;
	for (size_t i = 0; i < m->nproviders; i++) {
		if (!import_valid_id(m->providers[i].id))
			fuzz_fail("provider #%zu has the id '%s'", i, m->providers[i].id);
		for (size_t k = 0; k < i; k++)
			if (strcmp(m->providers[k].id, m->providers[i].id) == 0)
				fuzz_fail("provider '%s' twice", m->providers[i].id);
		sum += m->providers[i].offers;
	}
	if (sum != m->offers)
		fuzz_fail("the providers hold %zu offers, the total is %zu", sum, m->offers);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_copy(data, size);
	struct team_manifest m;
	char *err = NULL;
	enum gc_status st = team_manifest_read(text, size, &m, &err);
	fuzz_check_err(st, err);
	if (st == GC_OK)
		check(&m);
	team_manifest_release(&m);
	free(err);
	free(text);
	return 0;
}
