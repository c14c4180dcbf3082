/* fuzz_profile.c - libFuzzer target for the provider profile loader
 * (profile_load, as `providers --check FILE` calls it on a file's bytes).
 *
 * The input is the YAML document.  A profile's id must match its file
 * name, so the file is named after the first "id: WORD" line of the input
 * ("providers/fuzz.yaml" when there is none): most inputs get past that
 * check and reach the fields.  A loaded profile is read back through
 * profile_value / profile_text for every field of the schema.
 */
#include <ctype.h>

#include "fuzz_common.h"
#include "gpucmp/profile.h"

static long today;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	today = str_date_days(FUZZ_TODAY);
	return 0;
}

/* "providers/<id>.yaml" for the first line "id: <id>" of data. */
static void file_name(char *out, size_t cap, const uint8_t *data, size_t size)
{
	snprintf(out, cap, "providers/fuzz.yaml");
	for (size_t i = 0; i + 3 < size; i++) {
		if ((i == 0 || data[i - 1] == '\n') && memcmp(data + i, "id:", 3) == 0) {
			size_t b = i + 3, e;
			while (b < size && data[b] == ' ')
				b++;
			for (e = b; e < size && e - b < 64 && !isspace(data[e]) && data[e]; e++)
				;
			snprintf(out, cap, "providers/%.*s.yaml", (int)(e - b),
				 (const char *)data + b);
			return;
		}
	}
}

static void read_back(const struct profile *p)
{
	if (!p->id || !p->name || !p->site || !p->kind || !p->verified || !p->file)
		fuzz_fail("profile loaded without a header field");
	for (size_t i = 0; i < profile_field_count; i++) {
		const struct pvalue *v = profile_value(p, (int)i);
		char path[128];
		snprintf(path, sizeof path, "%s%s%s", profile_fields[i].group,
			 *profile_fields[i].group ? "." : "", profile_fields[i].key);
		const char *t = profile_text(p, path);
		if (!v || !t)
			fuzz_fail("no value for field '%s'", path);
		for (size_t j = 0; j < v->nlist; j++)
			if (!v->list[j])
				fuzz_fail("NULL list element in '%s'", path);
		(void)strlen(t);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char file[128];
	file_name(file, sizeof file, data, size);
	char *copy = fuzz_copy(data, size);
	struct profile *p = NULL;
	char *err = NULL;
	enum gc_status st = profile_load(&p, file, copy, size, today, &err);
	fuzz_check_err(st, err);
	if ((st == GC_OK) != (p != NULL))
		fuzz_fail("status %d with profile %p", (int)st, (void *)p);
	if (p)
		read_back(p);
	profile_free(p);
	free(err);
	free(copy);
	return 0;
}
