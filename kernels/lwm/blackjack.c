/* blackjack: Monte Carlo estimate of the blackjack house edge, modelled on the
 * "blackjack" benchmark of the LWM paper (Table 2). Each of 1024 threads plays HANDS
 * hands from an infinite shoe with its own LCG: the player follows a simplified basic
 * strategy (hard and soft totals, ace counted as 11 while that does not bust) in a
 * data-dependent draw loop, then the dealer draws to 17 (stands on soft 17). Outcomes
 * are tallied per dealer upcard in a private array, then each thread writes its
 * win/loss/push/natural counts and net result in half-bets. Input: per-thread seeds
 * from an LCG (seed 1987) in weft_setup. Size: 1024 threads x 48 hands. */
#include "weft.h"

#define N 1024
#define HANDS 48
WEFT_LAUNCH(N, 256);

uint32_t seed[N];
uint32_t wins[N], losses[N], pushes[N], naturals[N];
int32_t net_half[N]; /* net winnings in half-bets (a natural pays 3:2 = +3) */

static uint32_t lcg(uint32_t *s) { return *s = *s * 1664525u + 1013904223u; }

void weft_setup(void) {
    uint32_t s = 1987;
    for (int i = 0; i < N; i++) seed[i] = lcg(&s);
}

/* One card from an infinite shoe: 1 (ace) .. 10 (ten and faces). */
static uint32_t card(uint32_t *s) {
    uint32_t r = ((lcg(s) >> 16) * 13u) >> 16; /* 0..12 */
    return r >= 9 ? 10u : r + 1u;
}

void weft_kernel(void) {
    uint32_t i = weft_tid();
    uint32_t s = seed[i];
    uint32_t tally[11][3]; /* [dealer upcard][win, loss, push], private memory */
    for (int u = 0; u < 11; u++) tally[u][0] = tally[u][1] = tally[u][2] = 0;
    uint32_t nat = 0;
    int32_t net = 0;

    for (int h = 0; h < HANDS; h++) {
        uint32_t p1 = card(&s), d_up = card(&s), p2 = card(&s), d_hole = card(&s);
        uint32_t p = p1 + p2, p_aces = (p1 == 1) + (p2 == 1);
        uint32_t d = d_up + d_hole, d_aces = (d_up == 1) + (d_hole == 1);
        int p_nat = (p == 11 && p_aces > 0);
        int d_nat = (d == 11 && d_aces > 0);
        int outcome; /* 0 win, 1 loss, 2 push */
        if (p_nat || d_nat) {
            if (p_nat && d_nat) outcome = 2;
            else if (p_nat) { outcome = 0; nat++; net += 3; }
            else { outcome = 1; net -= 2; }
            tally[d_up][outcome]++;
            continue;
        }
        /* Player: simplified basic strategy on hard and soft totals. */
        for (;;) {
            int soft = p_aces > 0 && p + 10 <= 21;
            uint32_t best = soft ? p + 10 : p;
            int hit;
            if (soft) {
                if (best <= 17) hit = 1;
                else if (best == 18) hit = (d_up >= 9 || d_up == 1);
                else hit = 0;
            } else {
                if (best <= 11) hit = 1;
                else if (best == 12) hit = (d_up < 4 || d_up > 6);
                else if (best <= 16) hit = (d_up >= 7 || d_up == 1);
                else hit = 0;
            }
            if (!hit) break;
            uint32_t c = card(&s);
            p += c;
            p_aces += (c == 1);
            if (p > 21) break;
        }
        uint32_t p_final = (p_aces > 0 && p + 10 <= 21) ? p + 10 : p;
        if (p_final > 21) {
            outcome = 1;
            net -= 2;
        } else {
            /* Dealer: draw to 17, stand on soft 17. */
            for (;;) {
                uint32_t dt = (d_aces > 0 && d + 10 <= 21) ? d + 10 : d;
                if (dt >= 17) break;
                uint32_t c = card(&s);
                d += c;
                d_aces += (c == 1);
            }
            uint32_t d_final = (d_aces > 0 && d + 10 <= 21) ? d + 10 : d;
            if (d_final > 21 || p_final > d_final) { outcome = 0; net += 2; }
            else if (p_final < d_final) { outcome = 1; net -= 2; }
            else outcome = 2;
        }
        tally[d_up][outcome]++;
    }

    uint32_t w = 0, l = 0, q = 0;
    for (int u = 1; u < 11; u++) { w += tally[u][0]; l += tally[u][1]; q += tally[u][2]; }
    wins[i] = w;
    losses[i] = l;
    pushes[i] = q;
    naturals[i] = nat;
    net_half[i] = net;
}
