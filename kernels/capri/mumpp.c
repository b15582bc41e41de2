/* mumpp: MUMmerGPU++ (CAPRI Table 2's MUM++, after Gharaibeh & Ripeanu, "Size Matters:
 * Space/Time Tradeoffs to Improve GPGPU Applications Performance", SC'10). Its design
 * trades computation for a compact index: the reference's suffix array (4 bytes a base)
 * in place of MUMmerGPU's suffix tree, searched by binary search, so every query start is
 * matched afresh (no suffix links) at O(log n) probes. Its kernel's source was not to be
 * found: this is that design written as MUMmerGPU's kernel is (mum.c), one thread per query,
 * for every start with at least min_match_len bases left: a binary search of the suffix
 * array whose probes compare the query with the probed suffix base by base from
 * min(lcp(lo), lcp(hi)) (Manber & Myers' skip) until a mismatch or the query's end;
 * the longest match met is recorded if it is at least min_match_len long. Inputs as
 * mum.c's (a 20 000-base reference at 35% GC, 25-base reads drawn from a 5.2 Mbp genome,
 * -l 20, CTAs of 256), 61 440 queries (240 CTAs: two waves of 30 cores of 4 CTAs), where
 * the study's first input had 9 984 (39 CTAs, 0.3 waves: mumpp_small.c): a start costs a
 * whole binary search here (about 15 probes of a few bases each, some 4 000 instructions
 * a query against MUM's 750). More queries of the same kind; WPDOM's tail stays 11.5%
 * (14.2% at 360 CTAs, three waves: not the waves' rounding). The CTAs do the same work
 * (counted: every CTA's base comparisons within 1.6% of their mean, 50 329); the tail is
 * the sticky round robin's (§4: a CTA's warps keep priority), under which a core's 4 CTAs
 * end one after another (the first at cycle 380 000, the 120th about 650 000), so the
 * last CTAs start late on few cores: with `--set sticky_cta=false` the tail is 0.9%
 * (775 346 cycles against 868 028; `weft run kernels/capri/mumpp.c --machine capri
 * --set divergence=pdom [--set sticky_cta=false] --json`).
 * weft_setup sorts the suffixes (merge sort).
 * Barrier-free: the native run is the oracle. */
#include "weft.h"

/* The input generator's seed (`weft eval capri` runs two more with -DSEED=N). */
#ifndef SEED
#define SEED 5227u
#endif

#define CTA 256
#ifndef CTAS /* the study's first input sets it */
#define CTAS 240
#endif
#define QUERIES (CTAS * CTA)
#define QLEN 25
#define MIN_MATCH 20
#define STARTS (QLEN - MIN_MATCH + 1)
#define REF_LEN 20000
#define SA_LEN (REF_LEN + 1) /* the suffixes, "$" included */
#define GENOME 5227293u      /* NC_003997's length */
WEFT_LAUNCH(QUERIES, CTA);

struct match {
    uint32_t refpos, length;
};

char ref[REF_LEN + 1];
uint32_t suffix_array[SA_LEN];
char queries[QUERIES * (QLEN + 1)]; /* each its bases, then '\0' */
int32_t query_addrs[QUERIES], query_lengths[QUERIES];
struct match matches[QUERIES * STARTS];

static uint32_t sa_tmp[SA_LEN];

static uint32_t rng = SEED;
static char random_base(void) {
    rng = rng * 1664525u + 1013904223u;
    uint32_t r = (rng >> 8) % 1000; /* 35.4% GC */
    return r < 323 ? 'A' : r < 646 ? 'T' : r < 823 ? 'C' : 'G';
}

/* Suffix a before suffix b ('$' < A < C < G < T; '$' is unique, so they differ by then). */
static int suffix_less(uint32_t a, uint32_t b) {
    while (ref[a] == ref[b]) a++, b++;
    return ref[a] < ref[b];
}

void weft_setup(void) {
    for (uint32_t i = 0; i < REF_LEN; i++) ref[i] = random_base();
    ref[REF_LEN] = '$';
    /* Bottom-up merge sort of the suffixes. */
    for (uint32_t i = 0; i < SA_LEN; i++) suffix_array[i] = i;
    for (uint32_t w = 1; w < SA_LEN; w *= 2) {
        for (uint32_t lo = 0; lo < SA_LEN; lo += 2 * w) {
            uint32_t mid = lo + w < SA_LEN ? lo + w : SA_LEN;
            uint32_t hi = lo + 2 * w < SA_LEN ? lo + 2 * w : SA_LEN;
            uint32_t a = lo, b = mid, k = lo;
            while (a < mid && b < hi)
                sa_tmp[k++] = suffix_less(suffix_array[b], suffix_array[a]) ? suffix_array[b++] : suffix_array[a++];
            while (a < mid) sa_tmp[k++] = suffix_array[a++];
            while (b < hi) sa_tmp[k++] = suffix_array[b++];
        }
        for (uint32_t i = 0; i < SA_LEN; i++) suffix_array[i] = sa_tmp[i];
    }
    /* Queries: 25-base reads of the genome, 0.4% of them inside the reference. */
    for (uint32_t q = 0; q < QUERIES; q++) {
        char *s = &queries[q * (QLEN + 1)];
        query_addrs[q] = (int32_t)(q * (QLEN + 1));
        query_lengths[q] = QLEN;
        rng = rng * 1664525u + 1013904223u;
        uint32_t at = rng % GENOME;
        for (uint32_t j = 0; j < QLEN; j++) s[j] = at + QLEN <= REF_LEN ? ref[at + j] : random_base();
        s[QLEN] = '\0';
    }
}

/* The query's common prefix with the suffix at p, from `from` bases known to match. */
static int32_t common(const char *q, uint32_t p, int32_t from) {
    int32_t m = from;
    while (q[m] != '\0' && q[m] == ref[p + (uint32_t)m]) m++;
    return m;
}

void weft_kernel(void) {
    int32_t qryid = (int32_t)weft_tid(), min_match_len = MIN_MATCH;
    int32_t qlen = query_lengths[qryid];
    const char *q = queries + query_addrs[qryid];
    struct match *result = matches + qryid * STARTS;
    int32_t last = qlen - min_match_len;

    for (int32_t qrystart = 0; qrystart <= last; qrystart++, result++, q++) {
        /* Binary search between the first and the last suffix. */
        int32_t lo = 0, hi = SA_LEN - 1;
        int32_t llcp = common(q, suffix_array[lo], 0), rlcp = common(q, suffix_array[hi], 0);
        int32_t best = llcp, best_pos = (int32_t)suffix_array[lo];
        if (rlcp > best) {
            best = rlcp;
            best_pos = (int32_t)suffix_array[hi];
        }
        while (hi - lo > 1) {
            int32_t mid = (lo + hi) / 2;
            uint32_t p = suffix_array[mid];
            int32_t m = common(q, p, llcp < rlcp ? llcp : rlcp);
            if (m > best) {
                best = m;
                best_pos = (int32_t)p;
            }
            if (q[m] < ref[p + (uint32_t)m]) {
                hi = mid;
                rlcp = m;
            } else {
                lo = mid;
                llcp = m;
            }
        }
        if (best >= min_match_len) {
            result->refpos = (uint32_t)best_pos;
            result->length = (uint32_t)best;
        }
    }
}
