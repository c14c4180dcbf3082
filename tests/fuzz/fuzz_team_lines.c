/* fuzz_team_lines.c - libFuzzer target for a pulled team snapshot's
 * payload line parser (team_lines_*, team.h; docs/TEAM.md): the lines of
 * a payload read one at a time, inflated from gzip as they are needed,
 * each parsed under TEAM_LINE_MAX_VALUES, then read as a provider record
 * or an offer (team_offer_read).
 *
 * The input is a mode byte (bit 0: gzip, else plain text), then the
 * payload.  It must never crash or leak; every refusal has a message;
 * every line it returns is JSON; in plain text it returns at most one
 * line per newline, plus one.  Seeds: the team target's payloads, plain
 * and gzipped (tests/fuzz/seeds.sh).
 */
#include <jansson.h>

#include "fuzz_common.h"
#include "gpucmp/team.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	int gz = data[0] & 1;
	char *text = fuzz_copy(data + 1, size - 1);
	struct team_lines *l = NULL;
	char *err = NULL;
	if (team_lines_open(&l, text, size - 1, gz, &err) != GC_OK)
		fuzz_fail("cannot open the lines: %s", err ? err : "?");
	team_lines_cap(l, (size_t)16 << 20); /* a bomb's time, not its memory */
	size_t n = 0, newlines = 0;
	for (size_t i = 1; i < size; i++)
		newlines += data[i] == '\n';
	enum gc_status st;
	json_t *j = NULL;
	while ((st = team_lines_next(l, &j, &err)) == GC_OK && j) {
		n++;
		struct offer o;
		int stale;
		if (!json_is_object(j) || !json_object_get(j, "type"))
			team_offer_read(j, &o, &stale, NULL);
		json_decref(j);
	}
	fuzz_check_err(st, err);
	if (!gz && n > newlines + 1)
		fuzz_fail("%zu lines from %zu newlines", n, newlines);
	team_lines_close(l);
	free(err);
	free(text);
	return 0;
}
