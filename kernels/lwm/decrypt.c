/* decrypt: AES-128 decryption (LWM Table 2's decrypt; FIPS-197's inverse cipher in its
 * table-driven "equivalent inverse cipher" form). weft_setup builds the S-boxes from
 * their definition (inverses in GF(2^8) and the affine map), the decryption T-tables and
 * the round keys of one key, and fills 256 KB of ciphertext from a seeded LCG; block 0 is
 * FIPS-197's example C.1, whose plaintext the tests check. Each of 1024 threads decrypts
 * 16 blocks (block k of thread t at k*1024 + t): 10 rounds of table lookups in global
 * memory (4 KB of tables and 176 bytes of keys, cached in L1), no data-dependent
 * branches. */
#include "weft.h"

#define N 1024
#define BLOCKS 16
WEFT_LAUNCH(N, 256);

uint32_t cipher[BLOCKS * N][4] __attribute__((aligned(128)));
uint32_t plain[BLOCKS * N][4] __attribute__((aligned(128)));
uint8_t fips_plain[16], expected_fips_plain[16];
uint32_t td[4][256];
uint8_t inv_sbox[256];
uint32_t dk[44]; /* decryption round keys */

static uint8_t sbox[256];

static uint8_t xtime(uint8_t a) { return (uint8_t)((a << 1) ^ ((a >> 7) * 0x1b)); }
static uint8_t mul(uint8_t a, uint8_t b) {
    uint8_t p = 0;
    for (int i = 0; i < 8; i++) {
        if (b & 1) p ^= a;
        a = xtime(a);
        b >>= 1;
    }
    return p;
}
static uint32_t word(uint8_t a, uint8_t b, uint8_t c, uint8_t d) {
    return (uint32_t)a << 24 | (uint32_t)b << 16 | (uint32_t)c << 8 | d;
}
static uint32_t ror8(uint32_t w) { return w >> 8 | w << 24; }
static uint32_t inv_mix(uint32_t w) {
    uint8_t a = (uint8_t)(w >> 24), b = (uint8_t)(w >> 16), c = (uint8_t)(w >> 8), d = (uint8_t)w;
    return word(mul(a, 14) ^ mul(b, 11) ^ mul(c, 13) ^ mul(d, 9),
                mul(a, 9) ^ mul(b, 14) ^ mul(c, 11) ^ mul(d, 13),
                mul(a, 13) ^ mul(b, 9) ^ mul(c, 14) ^ mul(d, 11),
                mul(a, 11) ^ mul(b, 13) ^ mul(c, 9) ^ mul(d, 14));
}
static uint32_t sub_word(uint32_t w) {
    return word(sbox[w >> 24], sbox[(w >> 16) & 255], sbox[(w >> 8) & 255], sbox[w & 255]);
}

void weft_setup(void) {
    /* S-box: the multiplicative inverse, then the affine transform. */
    for (int x = 0; x < 256; x++) {
        uint8_t inv = 0;
        for (int y = 1; y < 256 && x; y++)
            if (mul((uint8_t)x, (uint8_t)y) == 1) inv = (uint8_t)y;
        uint8_t s = inv, r = inv;
        for (int i = 0; i < 4; i++) {
            r = (uint8_t)(r << 1 | r >> 7);
            s ^= r;
        }
        sbox[x] = s ^ 0x63;
        inv_sbox[sbox[x]] = (uint8_t)x;
    }
    for (int x = 0; x < 256; x++) {
        uint8_t s = inv_sbox[x];
        td[0][x] = word(mul(s, 14), mul(s, 9), mul(s, 13), mul(s, 11));
        for (int t = 1; t < 4; t++) td[t][x] = ror8(td[t - 1][x]);
    }
    /* Key expansion of FIPS-197's example key 00 01 .. 0f, then the decryption keys. */
    uint32_t ek[44];
    for (int i = 0; i < 4; i++)
        ek[i] = word((uint8_t)(4 * i), (uint8_t)(4 * i + 1), (uint8_t)(4 * i + 2), (uint8_t)(4 * i + 3));
    uint8_t rcon = 1;
    for (int i = 4; i < 44; i++) {
        uint32_t t = ek[i - 1];
        if (i % 4 == 0) {
            t = sub_word(t << 8 | t >> 24) ^ (uint32_t)rcon << 24;
            rcon = xtime(rcon);
        }
        ek[i] = ek[i - 4] ^ t;
    }
    for (int r = 0; r <= 10; r++)
        for (int c = 0; c < 4; c++) {
            uint32_t k = ek[4 * (10 - r) + c];
            dk[4 * r + c] = (r == 0 || r == 10) ? k : inv_mix(k);
        }
    /* Ciphertext: FIPS-197 C.1 in block 0, the rest from the generator. */
    static const uint32_t c1[4] = {0x69c4e0d8, 0x6a7b0430, 0xd8cdb780, 0x70b4c55a};
    uint32_t s = 777;
    for (int b = 0; b < BLOCKS * N; b++)
        for (int w = 0; w < 4; w++) {
            s = s * 1664525u + 1013904223u;
            cipher[b][w] = b == 0 ? c1[w] : s;
        }
    for (int i = 0; i < 16; i++) expected_fips_plain[i] = (uint8_t)(i * 0x11);
}

void weft_kernel(void) {
    uint32_t tid = weft_tid();
    for (uint32_t k = 0; k < BLOCKS; k++) {
        const uint32_t *in = cipher[k * N + tid];
        uint32_t s0 = in[0] ^ dk[0], s1 = in[1] ^ dk[1], s2 = in[2] ^ dk[2], s3 = in[3] ^ dk[3];
        for (int r = 1; r < 10; r++) {
            const uint32_t *rk = &dk[4 * r];
            uint32_t t0 = td[0][s0 >> 24] ^ td[1][(s3 >> 16) & 255] ^ td[2][(s2 >> 8) & 255] ^ td[3][s1 & 255] ^ rk[0];
            uint32_t t1 = td[0][s1 >> 24] ^ td[1][(s0 >> 16) & 255] ^ td[2][(s3 >> 8) & 255] ^ td[3][s2 & 255] ^ rk[1];
            uint32_t t2 = td[0][s2 >> 24] ^ td[1][(s1 >> 16) & 255] ^ td[2][(s0 >> 8) & 255] ^ td[3][s3 & 255] ^ rk[2];
            uint32_t t3 = td[0][s3 >> 24] ^ td[1][(s2 >> 16) & 255] ^ td[2][(s1 >> 8) & 255] ^ td[3][s0 & 255] ^ rk[3];
            s0 = t0; s1 = t1; s2 = t2; s3 = t3;
        }
        uint32_t *out = plain[k * N + tid];
        out[0] = word(inv_sbox[s0 >> 24], inv_sbox[(s3 >> 16) & 255], inv_sbox[(s2 >> 8) & 255], inv_sbox[s1 & 255]) ^ dk[40];
        out[1] = word(inv_sbox[s1 >> 24], inv_sbox[(s0 >> 16) & 255], inv_sbox[(s3 >> 8) & 255], inv_sbox[s2 & 255]) ^ dk[41];
        out[2] = word(inv_sbox[s2 >> 24], inv_sbox[(s1 >> 16) & 255], inv_sbox[(s0 >> 8) & 255], inv_sbox[s3 & 255]) ^ dk[42];
        out[3] = word(inv_sbox[s3 >> 24], inv_sbox[(s2 >> 16) & 255], inv_sbox[(s1 >> 8) & 255], inv_sbox[s0 & 255]) ^ dk[43];
    }
    if (tid == 0)
        for (int i = 0; i < 16; i++) fips_plain[i] = (uint8_t)(plain[0][i / 4] >> (24 - 8 * (i % 4)));
}
