// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * jsonq - a tiny JSON checker/query tool for the VM guest (busybox has no jq).
 *
 *   jsonq [-l|-k|-a|-c|-t|-e|-f] FILE|- [PATH]
 *
 * Parses the whole document strictly (RFC 8259; trailing garbage is an error),
 * then prints the value at PATH (default "."). PATH is a sequence of .name and
 * [index] steps, e.g. .nodes[0].kswapd[1].name or .knobs.kswapd_threads.value
 * (a name may also be written ["name"]).
 *
 *   (default) scalars raw (strings unquoted), arrays/objects as compact JSON
 *   -l  length of an array/object/string
 *   -k  object keys, one per line
 *   -a  array elements, one per line (scalars raw)
 *   -c  array elements joined with ","
 *   -t  type: object array string number true false null
 *   -e  print nothing, just the exit status
 *   -f  flatten: one line per value under PATH, for loading into a shell
 *       associative array in one go (a fork costs ~25 ms under TCG):
 *         PATH:type=object|array|string|number|true|false|null
 *         PATH:len=N          (arrays and objects)
 *         PATH=VALUE          (scalars raw, newlines as \n; arrays whose
 *                              elements are all scalars: joined with ",")
 *       e.g. .nodes[0].cpus=0,1  .nodes[0].kswapd[1].name=kswapd0:1
 *
 * Exit status: 0 found, 1 PATH not present (or wrong type for the mode),
 * 2 usage error, 3 invalid JSON.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum type { J_NULL, J_FALSE, J_TRUE, J_NUMBER, J_STRING, J_ARRAY, J_OBJECT };
static const char *const type_names[] = {"null",   "false", "true",  "number",
					 "string", "array", "object"};

struct val {
	enum type type;
	char *str;  /* decoded string, or number text */
	size_t len; /* string length in bytes */
	size_t n;   /* children */
	struct val **kids;
	char **keys; /* object member names */
};

static const char *src, *pos;
static const char *err_msg;

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n);
	if (!p) {
		fputs("jsonq: out of memory\n", stderr);
		exit(2);
	}
	return p;
}

static void skip_ws(void)
{
	while (*pos == ' ' || *pos == '\t' || *pos == '\n' || *pos == '\r')
		pos++;
}

static struct val *fail(const char *msg)
{
	if (!err_msg)
		err_msg = msg;
	return NULL;
}

static struct val *new_val(enum type t)
{
	struct val *v = xrealloc(NULL, sizeof(*v));

	memset(v, 0, sizeof(*v));
	v->type = t;
	return v;
}

static void put_utf8(char **buf, size_t *len, unsigned long cp)
{
	char tmp[4];
	size_t n;

	if (cp < 0x80) {
		tmp[0] = (char)cp;
		n = 1;
	} else if (cp < 0x800) {
		tmp[0] = (char)(0xc0 | (cp >> 6));
		tmp[1] = (char)(0x80 | (cp & 0x3f));
		n = 2;
	} else if (cp < 0x10000) {
		tmp[0] = (char)(0xe0 | (cp >> 12));
		tmp[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		tmp[2] = (char)(0x80 | (cp & 0x3f));
		n = 3;
	} else {
		tmp[0] = (char)(0xf0 | (cp >> 18));
		tmp[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
		tmp[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
		tmp[3] = (char)(0x80 | (cp & 0x3f));
		n = 4;
	}
	*buf = xrealloc(*buf, *len + n + 1);
	memcpy(*buf + *len, tmp, n);
	*len += n;
}

static int hex4(const char *p, unsigned long *out)
{
	*out = 0;
	for (int i = 0; i < 4; i++) {
		int c = p[i];

		if (!isxdigit(c))
			return -1;
		*out = *out * 16 + (unsigned long)(isdigit(c) ? c - '0' : (tolower(c) - 'a' + 10));
	}
	return 0;
}

static char *parse_string(size_t *out_len)
{
	char *buf = xrealloc(NULL, 1);
	size_t len = 0;

	pos++; /* opening quote */
	for (;;) {
		unsigned char c = (unsigned char)*pos;

		if (c == '"') {
			pos++;
			break;
		}
		if (c < 0x20) { /* includes the terminating NUL */
			free(buf);
			fail("unterminated string or control character in string");
			return NULL;
		}
		if (c == '\\') {
			char e = pos[1];
			unsigned long cp;

			pos += 2;
			switch (e) {
			case '"':
				cp = '"';
				break;
			case '\\':
				cp = '\\';
				break;
			case '/':
				cp = '/';
				break;
			case 'b':
				cp = '\b';
				break;
			case 'f':
				cp = '\f';
				break;
			case 'n':
				cp = '\n';
				break;
			case 'r':
				cp = '\r';
				break;
			case 't':
				cp = '\t';
				break;
			case 'u':
				if (hex4(pos, &cp)) {
					free(buf);
					fail("bad \\u escape");
					return NULL;
				}
				pos += 4;
				if (cp >= 0xd800 && cp < 0xdc00 && pos[0] == '\\' &&
				    pos[1] == 'u') {
					unsigned long lo;

					if (!hex4(pos + 2, &lo) && lo >= 0xdc00 && lo < 0xe000) {
						cp =
						    0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
						pos += 6;
					}
				}
				break;
			default:
				free(buf);
				fail("bad escape in string");
				return NULL;
			}
			put_utf8(&buf, &len, cp);
			continue;
		}
		buf = xrealloc(buf, len + 2);
		buf[len++] = (char)c;
		pos++;
	}
	buf[len] = '\0';
	*out_len = len;
	return buf;
}

static struct val *parse_value(int depth);

static struct val *parse_number(void)
{
	const char *start = pos;

	if (*pos == '-')
		pos++;
	if (*pos == '0')
		pos++;
	else if (isdigit((unsigned char)*pos))
		while (isdigit((unsigned char)*pos))
			pos++;
	else
		return fail("bad number");
	if (*pos == '.') {
		pos++;
		if (!isdigit((unsigned char)*pos))
			return fail("bad number");
		while (isdigit((unsigned char)*pos))
			pos++;
	}
	if (*pos == 'e' || *pos == 'E') {
		pos++;
		if (*pos == '+' || *pos == '-')
			pos++;
		if (!isdigit((unsigned char)*pos))
			return fail("bad number");
		while (isdigit((unsigned char)*pos))
			pos++;
	}
	struct val *v = new_val(J_NUMBER);
	v->len = (size_t)(pos - start);
	v->str = strndup(start, v->len);
	return v;
}

static struct val *parse_container(int depth, int is_obj)
{
	struct val *v = new_val(is_obj ? J_OBJECT : J_ARRAY);
	char close = is_obj ? '}' : ']';

	pos++;
	skip_ws();
	if (*pos == close) {
		pos++;
		return v;
	}
	for (;;) {
		char *key = NULL;

		skip_ws();
		if (is_obj) {
			size_t klen;

			if (*pos != '"')
				return fail("expected a member name");
			key = parse_string(&klen);
			if (!key)
				return NULL;
			skip_ws();
			if (*pos != ':')
				return fail("expected ':'");
			pos++;
		}
		struct val *kid = parse_value(depth + 1);
		if (!kid)
			return NULL;
		v->kids = xrealloc(v->kids, (v->n + 1) * sizeof(*v->kids));
		v->keys = xrealloc(v->keys, (v->n + 1) * sizeof(*v->keys));
		v->kids[v->n] = kid;
		v->keys[v->n] = key;
		v->n++;
		skip_ws();
		if (*pos == ',') {
			pos++;
			continue;
		}
		if (*pos == close) {
			pos++;
			return v;
		}
		return fail(is_obj ? "expected ',' or '}'" : "expected ',' or ']'");
	}
}

static struct val *parse_value(int depth)
{
	if (depth > 200)
		return fail("nesting too deep");
	skip_ws();
	switch (*pos) {
	case '{':
		return parse_container(depth, 1);
	case '[':
		return parse_container(depth, 0);
	case '"': {
		struct val *v = new_val(J_STRING);

		v->str = parse_string(&v->len);
		return v->str ? v : NULL;
	}
	case 't':
		if (!strncmp(pos, "true", 4)) {
			pos += 4;
			return new_val(J_TRUE);
		}
		break;
	case 'f':
		if (!strncmp(pos, "false", 5)) {
			pos += 5;
			return new_val(J_FALSE);
		}
		break;
	case 'n':
		if (!strncmp(pos, "null", 4)) {
			pos += 4;
			return new_val(J_NULL);
		}
		break;
	default:
		if (*pos == '-' || isdigit((unsigned char)*pos))
			return parse_number();
	}
	return fail("unexpected character");
}

static void print_string_json(const char *s, size_t len)
{
	putchar('"');
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '"' || c == '\\')
			printf("\\%c", c);
		else if (c < 0x20)
			printf("\\u%04x", c);
		else
			putchar(c);
	}
	putchar('"');
}

static void print_json(const struct val *v)
{
	switch (v->type) {
	case J_STRING:
		print_string_json(v->str, v->len);
		break;
	case J_NUMBER:
		fputs(v->str, stdout);
		break;
	case J_ARRAY:
	case J_OBJECT:
		putchar(v->type == J_ARRAY ? '[' : '{');
		for (size_t i = 0; i < v->n; i++) {
			if (i)
				putchar(',');
			if (v->type == J_OBJECT) {
				print_string_json(v->keys[i], strlen(v->keys[i]));
				putchar(':');
			}
			print_json(v->kids[i]);
		}
		putchar(v->type == J_ARRAY ? ']' : '}');
		break;
	default:
		fputs(type_names[v->type], stdout);
	}
}

static void print_raw(const struct val *v)
{
	if (v->type == J_STRING)
		fwrite(v->str, 1, v->len, stdout);
	else
		print_json(v);
}

static void print_flat_scalar(const struct val *v)
{
	if (v->type != J_STRING) {
		print_raw(v);
		return;
	}
	for (size_t i = 0; i < v->len; i++) {
		if (v->str[i] == '\n')
			fputs("\\n", stdout);
		else
			putchar(v->str[i]);
	}
}

static void flatten(const struct val *v, char *path, size_t plen, size_t cap)
{
	printf("%s:type=%s\n", path, type_names[v->type]);
	if (v->type != J_ARRAY && v->type != J_OBJECT) {
		printf("%s=", path);
		print_flat_scalar(v);
		putchar('\n');
		return;
	}
	printf("%s:len=%zu\n", path, v->n);
	if (v->type == J_ARRAY) {
		int scalars = 1;

		for (size_t i = 0; i < v->n; i++)
			if (v->kids[i]->type == J_ARRAY || v->kids[i]->type == J_OBJECT)
				scalars = 0;
		if (scalars) {
			printf("%s=", path);
			for (size_t i = 0; i < v->n; i++) {
				if (i)
					putchar(',');
				print_flat_scalar(v->kids[i]);
			}
			putchar('\n');
		}
	}
	/* the root is ".", its children ".key" / ".[i]" */
	size_t base = (plen == 1 && path[0] == '.') ? 0 : plen;
	for (size_t i = 0; i < v->n; i++) {
		int n;

		if (v->type == J_ARRAY)
			n = snprintf(path + base, cap - base, "%s[%zu]", base ? "" : ".", i);
		else
			n = snprintf(path + base, cap - base, ".%s", v->keys[i]);
		if (n < 0 || (size_t)n >= cap - base) {
			fputs("jsonq: path too long\n", stderr);
			exit(2);
		}
		flatten(v->kids[i], path, base + (size_t)n, cap);
		path[plen] = '\0';
	}
}

/* Returns the value at path, NULL if absent; *bad set on a malformed path. */
static const struct val *lookup(const struct val *v, const char *p, int *bad)
{
	while (*p) {
		if (*p == '.') {
			p++;
			if (!*p || *p == '[' || *p == '.')
				continue; /* "." alone, ".[0]", ".." */
			size_t n = strcspn(p, ".[");
			if (v->type != J_OBJECT)
				return NULL;
			const struct val *next = NULL;
			for (size_t i = v->n; i-- > 0;) /* last duplicate wins */
				if (strlen(v->keys[i]) == n && !strncmp(v->keys[i], p, n)) {
					next = v->kids[i];
					break;
				}
			if (!next)
				return NULL;
			v = next;
			p += n;
		} else if (*p == '[' && p[1] == '"') {
			const char *end = strstr(p + 2, "\"]");
			if (!end) {
				*bad = 1;
				return NULL;
			}
			size_t n = (size_t)(end - (p + 2));
			if (v->type != J_OBJECT)
				return NULL;
			const struct val *next = NULL;
			for (size_t i = v->n; i-- > 0;)
				if (strlen(v->keys[i]) == n && !strncmp(v->keys[i], p + 2, n)) {
					next = v->kids[i];
					break;
				}
			if (!next)
				return NULL;
			v = next;
			p = end + 2;
		} else if (*p == '[') {
			char *end;
			long idx = strtol(p + 1, &end, 10);
			if (end == p + 1 || *end != ']') {
				*bad = 1;
				return NULL;
			}
			if (v->type != J_ARRAY)
				return NULL;
			if (idx < 0)
				idx += (long)v->n;
			if (idx < 0 || (size_t)idx >= v->n)
				return NULL;
			v = v->kids[idx];
			p = end + 1;
		} else {
			*bad = 1;
			return NULL;
		}
	}
	return v;
}

static char *slurp(const char *path)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	char *buf = NULL;
	size_t len = 0, cap = 0, n;

	if (!f) {
		perror(path);
		exit(2);
	}
	do {
		if (cap - len < 4096) {
			cap = cap ? cap * 2 : 65536;
			buf = xrealloc(buf, cap + 1);
		}
		n = fread(buf + len, 1, cap - len, f);
		len += n;
	} while (n > 0);
	if (ferror(f)) {
		perror(path);
		exit(2);
	}
	if (f != stdin)
		fclose(f);
	if (memchr(buf, '\0', len)) {
		fprintf(stderr, "jsonq: %s: NUL byte in input\n", path);
		exit(3);
	}
	buf[len] = '\0';
	return buf;
}

int main(int argc, char **argv)
{
	char mode = 'v';
	int argi = 1;

	if (argi < argc && argv[argi][0] == '-' && argv[argi][1] && argv[argi][2] == '\0' &&
	    strchr("lkactef", argv[argi][1]))
		mode = argv[argi++][1];
	if (argi >= argc || argc - argi > 2) {
		fputs("usage: jsonq [-l|-k|-a|-c|-t|-e|-f] FILE|- [PATH]\n", stderr);
		return 2;
	}
	const char *file = argv[argi], *path = argi + 1 < argc ? argv[argi + 1] : ".";

	src = pos = slurp(file);
	struct val *root = parse_value(0);
	if (root) {
		skip_ws();
		if (*pos)
			root = fail("trailing characters after the JSON value");
	}
	if (!root) {
		size_t off = (size_t)(pos - src);
		unsigned line = 1;
		for (const char *c = src; c < pos; c++)
			line += *c == '\n';
		fprintf(stderr, "jsonq: %s: invalid JSON at line %u (offset %zu): %s\n", file, line,
			off, err_msg ? err_msg : "?");
		return 3;
	}
	int bad = 0;
	const struct val *v = lookup(root, path, &bad);
	if (bad) {
		fprintf(stderr, "jsonq: malformed path: %s\n", path);
		return 2;
	}
	if (!v)
		return 1;

	switch (mode) {
	case 'e':
		return 0;
	case 'f': {
		char buf[4096];

		snprintf(buf, sizeof(buf), "%s", path);
		flatten(v, buf, strlen(buf), sizeof(buf));
		return 0;
	}
	case 't':
		puts(type_names[v->type]);
		return 0;
	case 'l':
		if (v->type == J_STRING)
			printf("%zu\n", v->len);
		else if (v->type == J_ARRAY || v->type == J_OBJECT)
			printf("%zu\n", v->n);
		else
			return 1;
		return 0;
	case 'k':
		if (v->type != J_OBJECT)
			return 1;
		for (size_t i = 0; i < v->n; i++)
			puts(v->keys[i]);
		return 0;
	case 'a':
	case 'c':
		if (v->type != J_ARRAY)
			return 1;
		for (size_t i = 0; i < v->n; i++) {
			if (mode == 'c' && i)
				putchar(',');
			print_raw(v->kids[i]);
			if (mode == 'a')
				putchar('\n');
		}
		if (mode == 'c')
			putchar('\n');
		return 0;
	default:
		print_raw(v);
		putchar('\n');
		return 0;
	}
}
