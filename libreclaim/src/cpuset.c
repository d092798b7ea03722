// SPDX-License-Identifier: LGPL-2.1-or-later
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "internal.h"

/* Far above any NR_CPUS; bounds what a corrupt file can make us allocate. */
#define MAX_CPU 65535u

struct cpuvec {
	unsigned int *v;
	size_t n, cap;
};

static int cpuvec_push(struct cpuvec *cv, unsigned int cpu)
{
	if (cv->n == cv->cap) {
		size_t cap = cv->cap ? cv->cap * 2 : 16;
		unsigned int *v = realloc(cv->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		cv->v = v;
		cv->cap = cap;
	}
	cv->v[cv->n++] = cpu;
	return 0;
}

static int cmp_uint(const void *a, const void *b)
{
	unsigned int x = *(const unsigned int *)a, y = *(const unsigned int *)b;

	return (x > y) - (x < y);
}

void reclaim_cpus_normalize(unsigned int *cpus, size_t *count)
{
	size_t n = 0;

	if (*count == 0)
		return;
	qsort(cpus, *count, sizeof(*cpus), cmp_uint);
	for (size_t i = 0; i < *count; i++)
		if (n == 0 || cpus[n - 1] != cpus[i])
			cpus[n++] = cpus[i];
	*count = n;
}

static void cpuvec_finish(struct cpuvec *cv, unsigned int **cpus, size_t *count)
{
	reclaim_cpus_normalize(cv->v, &cv->n);
	*cpus = cv->v;
	*count = cv->n;
}

static int parse_cpu(const char **s, unsigned int *cpu)
{
	unsigned long x = 0;

	if (!isdigit((unsigned char)**s))
		return -EINVAL;
	while (isdigit((unsigned char)**s)) {
		x = x * 10 + (unsigned long)(**s - '0');
		if (x > MAX_CPU)
			return -ERANGE;
		(*s)++;
	}
	*cpu = (unsigned int)x;
	return 0;
}

#define NWORDS ((MAX_CPU + 64) / 64)

/* Sets bits @a..@b a word at a time: "0-65535" repeated costs the words, not the CPUs. */
static void set_range(uint64_t *w, unsigned int a, unsigned int b)
{
	for (unsigned int c = a; c <= b;) {
		unsigned int bit = c % 64, n = 64 - bit;

		if (b - c + 1 < n)
			n = b - c + 1;
		w[c / 64] |= (n == 64 ? ~UINT64_C(0) : ((UINT64_C(1) << n) - 1) << bit);
		c += n;
	}
}

/* The bitmap as a sorted list; -ENOMEM. */
static int bits_to_list(const uint64_t *w, unsigned int **cpus, size_t *count)
{
	size_t n = 0, k = 0;
	unsigned int *v;

	for (size_t i = 0; i < NWORDS; i++)
		n += (size_t)__builtin_popcountll(w[i]);
	v = malloc((n ? n : 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < NWORDS; i++)
		for (uint64_t x = w[i]; x; x &= x - 1)
			v[k++] = (unsigned int)(i * 64 + (size_t)__builtin_ctzll(x));
	*cpus = v;
	*count = n;
	return 0;
}

/*
 * "0-3,8,10-11". Linear in the length of the text: ranges go into a bitmap
 * of MAX_CPU + 1 bits, so repeated or overlapping ranges cost nothing more.
 */
int reclaim_cpulist_parse(const char *s, unsigned int **cpus, size_t *count)
{
	uint64_t *w = calloc(NWORDS, sizeof(*w));
	int r = 0;

	if (!w)
		return -ENOMEM;
	while (isspace((unsigned char)*s))
		s++;
	while (*s && !isspace((unsigned char)*s)) {
		unsigned int a, b;

		r = parse_cpu(&s, &a);
		if (r < 0)
			goto out;
		b = a;
		if (*s == '-') {
			s++;
			r = parse_cpu(&s, &b);
			if (r < 0)
				goto out;
			if (b < a) {
				r = -EINVAL;
				goto out;
			}
		}
		set_range(w, a, b);
		if (*s == ',' && isdigit((unsigned char)s[1]))
			s++;
		else if (*s && !isspace((unsigned char)*s)) {
			r = -EINVAL;
			goto out;
		}
	}
	while (isspace((unsigned char)*s))
		s++;
	r = *s ? -EINVAL : bits_to_list(w, cpus, count);
out:
	free(w);
	return r;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = (char)tolower((unsigned char)c);
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/* Comma-separated 32-bit hex words, most significant first: "00000100,0000ff00". */
int reclaim_cpumap_parse(const char *s, unsigned int **cpus, size_t *count)
{
	struct cpuvec cv = {0};
	size_t len, word = 0, digit = 0;
	int r = 0;

	while (isspace((unsigned char)*s))
		s++;
	len = strlen(s);
	while (len > 0 && isspace((unsigned char)s[len - 1]))
		len--;
	if (len == 0)
		goto fail_inval;
	/* Walk from the least significant digit; each word holds 32 CPUs, 4 per digit. */
	while (len-- > 0) {
		int v;

		if (s[len] == ',') {
			if (digit == 0 || len == 0)
				goto fail_inval;
			word++;
			digit = 0;
			continue;
		}
		v = hexval(s[len]);
		if (v < 0 || digit == 8)
			goto fail_inval;
		for (int k = 0; k < 4; k++) {
			size_t bit = word * 32 + digit * 4 + (size_t)k;

			if (!(v & (1 << k)))
				continue;
			if (bit > MAX_CPU) {
				r = -ERANGE;
				goto fail;
			}
			r = cpuvec_push(&cv, (unsigned int)bit);
			if (r < 0)
				goto fail;
		}
		digit++;
	}
	if (digit == 0)
		goto fail_inval;
	cpuvec_finish(&cv, cpus, count);
	return 0;
fail_inval:
	r = -EINVAL;
fail:
	free(cv.v);
	return r;
}
