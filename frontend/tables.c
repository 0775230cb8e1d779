/* tables.c - the frontend's growable vectors and scoped hash tables of names. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "frontend/build.h"

/* ------------------------------------------------------------------ vectors and tables */
void
pvec_grow_(void **a, int *cap, size_t elsize)
{
	int n = *cap ? *cap * 2 : 16;
	void *p;

	if (*cap > INT_MAX / 4)
		die("table too large");
	p = realloc(*a, (size_t)n * elsize);
	if (!p)
		die("out of memory");
	*a = p;
	*cap = n;
}

uint32_t
ptab_hash(const char *s, int n)
{
	uint32_t h = 2166136261u;
	for (int i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

void
ptab_init(PTab *t, int nbucket)
{
	memset(t, 0, sizeof *t);
	t->nbucket = nbucket;
	t->bucket = malloc(sizeof *t->bucket * (size_t)nbucket);
	if (!t->bucket)
		die("out of memory");
	memset(t->bucket, -1, sizeof *t->bucket * (size_t)nbucket);
}

void
ptab_free(PTab *t)
{
	free(t->bucket);
	free(t->ent.a);
	memset(t, 0, sizeof *t);
}

void
ptab_clear(PTab *t)
{
	ptab_pop_to(t, 0);
}

static void
ptab_rehash(PTab *t)
{
	int nb = t->nbucket * 4;
	int *b = malloc(sizeof *b * (size_t)nb);

	if (!b)
		die("out of memory");
	memset(b, -1, sizeof *b * (size_t)nb);
	/* entries in insertion order, so later (shadowing) ones end up first in a chain */
	for (int i = 0; i < t->ent.n; i++) {
		PTabEnt *e = &t->ent.a[i];
		int h = (int)(e->hash & (uint32_t)(nb - 1));
		e->next = b[h];
		b[h] = i;
	}
	free(t->bucket);
	t->bucket = b;
	t->nbucket = nb;
}

PTabEnt *
ptab_find(PTab *t, const char *name, int len)
{
	uint32_t h = ptab_hash(name, len);
	for (int i = t->bucket[h & (uint32_t)(t->nbucket - 1)]; i >= 0; i = t->ent.a[i].next) {
		PTabEnt *e = &t->ent.a[i];
		if (e->hash == h && e->len == len && memcmp(e->name, name, (size_t)len) == 0)
			return e;
	}
	return NULL;
}

void
ptab_add(PTab *t, const char *name, int len, int kind, int idx)
{
	PTabEnt e = { name, len, ptab_hash(name, len), -1, kind, idx };
	int b;

	if (t->ent.n >= t->nbucket)
		ptab_rehash(t);
	b = (int)(e.hash & (uint32_t)(t->nbucket - 1));
	e.next = t->bucket[b];
	pvec_push(t->ent, e);
	t->bucket[b] = t->ent.n - 1;
}

void
ptab_pop_to(PTab *t, int n)
{
	while (t->ent.n > n) {
		PTabEnt *e = &t->ent.a[--t->ent.n];
		/* the entry is the head of its chain: it was added last */
		t->bucket[e->hash & (uint32_t)(t->nbucket - 1)] = e->next;
	}
}

