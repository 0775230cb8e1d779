/* json.c - JSON strings, written the same way by every folder that writes JSON (warpc
 * --explain=json in backend/, the traces and --explore-json in report/): opt/ is the one
 * folder below both. Quotes, backslashes and control characters are escaped; every other
 * byte passes as it is (UTF-8 stays UTF-8). */
#include <stdio.h>
#include "opt/opt.h"

const char *opt_json_esc(unsigned char c, char e[7])
{
	if (c == '"' || c == '\\')
		snprintf(e, 7, "\\%c", c);
	else if (c < 0x20)
		snprintf(e, 7, "\\u%04x", c);
	else {
		e[0] = (char)c;
		e[1] = 0;
	}
	return e;
}

void opt_json_str(FILE *f, const char *s)
{
	char e[7];

	fputc('"', f);
	for (; *s; s++)
		fputs(opt_json_esc((unsigned char)*s, e), f);
	fputc('"', f);
}
