/* synth.h - what the benchmark generators (genoffers.c, genhistory.c)
 * share: splitmix64's mixing step and the regions and GPU counts their
 * synthetic offers draw from. */
#ifndef GPUCMP_BENCH_SYNTH_H
#define GPUCMP_BENCH_SYNTH_H

/* splitmix64: z advanced by its constant, then finalized */
static inline unsigned long long synth_mix(unsigned long long z)
{
	z += 0x9e3779b97f4a7c15ULL;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static const char *const synth_regions[8] = {"us-east-1", "us-west-2", "eu-west-1",
					     "eu-north1", "asia-south-1", "us-central1",
					     "europe-west4", "FIN-01"};
static const double synth_counts[6] = {1, 1, 1, 2, 4, 8};

#endif
