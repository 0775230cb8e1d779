/* bfs.c - C reference of tests/workloads/bfs.cu: levels of a breadth-first search. */
static void ref_bfs(RefArgs *a)
{
	const uint32_t *edges = a->p[0];
	int32_t *cost = a->p[1];
	int n = (int32_t)a->v[2], deg = (int32_t)a->v[3], src = (int32_t)a->v[4];

	for (int i = 0; i < n; i++)
		cost[i] = i == src ? 0 : -1;
	for (int level = 0, grew = 1; grew; level++) {
		grew = 0;
		for (int i = 0; i < n; i++)
			if (cost[i] == level)
				for (int e = i * deg; e < (i + 1) * deg; e++)
					if (cost[edges[e]] == -1) {
						cost[edges[e]] = level + 1;
						grew = 1;
					}
	}
}
