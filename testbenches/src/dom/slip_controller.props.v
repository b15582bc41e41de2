// Properties of the adaptive slip controller (SPEC §4, `diverge-on-miss.txt` §5.1, §6;
// rules 1-5 in weft_hdl::dom::slip_controller's header, model
// weft_sim::dom::slip_controller), proved for all inputs on the exported Verilog by
// `weft prove`: WEFT_UUT becomes the preset's module, LANES, WARPS (at most 4) and STEP
// its parameters; every preset resets max-slip to 8 (INIT below). The harness reads the
// controller's registers (the 8 counter bit planes and the slip-limit bitmask of each
// warp) through `hierconn` wires, which Yosys's `flatten` joins to the instance's wires
// of the same hierarchical name. Ghost registers hold only what the contract expects
// after the last edge. Rule 3 (each limit bit is `counter >= max-slip`) is the
// invariant the limit's properties stand on: `p_inv_limit_is_ge`, asserted beside every
// property by `weft prove`.
module weft_prove #(parameter LANES = 32, parameter WARPS = 1, parameter STEP = 8) (
    input clock,
    input reset,
    input [(WARPS > 1 ? $clog2(WARPS) : 1)-1:0] warp,
    input clear,
    input mem_op,
    input [LANES-1:0] considered,
    input [LANES-1:0] exec_mask,
    input [LANES-1:0] hit_mask,
    input slipped,
    input raise,
    input lower
);
    localparam [7:0] INIT = 8;
    localparam L = LANES, L4 = 4 * LANES;
    wire [LANES-1:0] limit_mask, tail;
    wire forbid, grow, shrink;
    wire [7:0] max_slip;
    WEFT_UUT uut (
        .clock(clock), .reset(reset), .warp(warp), .clear(clear), .mem_op(mem_op),
        .considered(considered), .exec_mask(exec_mask), .hit_mask(hit_mask),
        .slipped(slipped), .raise(raise), .lower(lower), .limit_mask(limit_mask),
        .forbid(forbid), .tail(tail), .grow(grow), .shrink(shrink), .max_slip(max_slip)
    );

    // The block's registers: counter bit plane b of warp w is `p<b>$<w>$q`, the warp's
    // slip-limit bitmask `limit$<w>$q` (warps 0..3; those past WARPS are unused).
    (* hierconn *) wire [L-1:0] \uut.p0$0$q , \uut.p0$1$q , \uut.p0$2$q , \uut.p0$3$q ;
    (* hierconn *) wire [L-1:0] \uut.p1$0$q , \uut.p1$1$q , \uut.p1$2$q , \uut.p1$3$q ;
    (* hierconn *) wire [L-1:0] \uut.p2$0$q , \uut.p2$1$q , \uut.p2$2$q , \uut.p2$3$q ;
    (* hierconn *) wire [L-1:0] \uut.p3$0$q , \uut.p3$1$q , \uut.p3$2$q , \uut.p3$3$q ;
    (* hierconn *) wire [L-1:0] \uut.p4$0$q , \uut.p4$1$q , \uut.p4$2$q , \uut.p4$3$q ;
    (* hierconn *) wire [L-1:0] \uut.p5$0$q , \uut.p5$1$q , \uut.p5$2$q , \uut.p5$3$q ;
    (* hierconn *) wire [L-1:0] \uut.p6$0$q , \uut.p6$1$q , \uut.p6$2$q , \uut.p6$3$q ;
    (* hierconn *) wire [L-1:0] \uut.p7$0$q , \uut.p7$1$q , \uut.p7$2$q , \uut.p7$3$q ;
    (* hierconn *) wire [L-1:0] \uut.limit$0$q , \uut.limit$1$q , \uut.limit$2$q ;
    (* hierconn *) wire [L-1:0] \uut.limit$3$q ;
    // plane b, warp w, lane t at bit b*L4 + w*L + t
    wire [8*L4-1:0] planes = {
        \uut.p7$3$q , \uut.p7$2$q , \uut.p7$1$q , \uut.p7$0$q ,
        \uut.p6$3$q , \uut.p6$2$q , \uut.p6$1$q , \uut.p6$0$q ,
        \uut.p5$3$q , \uut.p5$2$q , \uut.p5$1$q , \uut.p5$0$q ,
        \uut.p4$3$q , \uut.p4$2$q , \uut.p4$1$q , \uut.p4$0$q ,
        \uut.p3$3$q , \uut.p3$2$q , \uut.p3$1$q , \uut.p3$0$q ,
        \uut.p2$3$q , \uut.p2$2$q , \uut.p2$1$q , \uut.p2$0$q ,
        \uut.p1$3$q , \uut.p1$2$q , \uut.p1$1$q , \uut.p1$0$q ,
        \uut.p0$3$q , \uut.p0$2$q , \uut.p0$1$q , \uut.p0$0$q };
    wire [L4-1:0] lim4 = {\uut.limit$3$q , \uut.limit$2$q , \uut.limit$1$q , \uut.limit$0$q };

    reg init = 1'b1;
    always @(*) if (init) assume(reset);

    // This cycle: every counter (8 bits, warp w lane t at (w*L + t)*8), the limit
    // invariant (limit bit == counter >= max-slip, rule 3), and the row of `warp` (all
    // zero for a warp >= WARPS).
    reg [WARPS*L*8-1:0] cnt;
    reg [L-1:0] nz, atlim, lrow;
    reg limit_ok, warp_in;
    reg [7:0] c;
    integer w, t, b;
    always @(*) begin
        cnt = 0;
        nz = 0;
        atlim = 0;
        lrow = 0;
        limit_ok = 1'b1;
        warp_in = 1'b0;
        for (w = 0; w < WARPS; w = w + 1) begin
            if (w == warp) begin
                warp_in = 1'b1;
                lrow = lim4[w*L +: L];
            end
            for (t = 0; t < L; t = t + 1) begin
                for (b = 0; b < 8; b = b + 1) c[b] = planes[b*L4 + w*L + t];
                cnt[(w*L + t)*8 +: 8] = c;
                if (lim4[w*L + t] != (c >= max_slip)) limit_ok = 1'b0;
                if (w == warp) begin
                    nz[t] = c != 0;
                    atlim[t] = c >= max_slip;
                end
            end
        end
    end

    // The rules for `warp` (C = considered, E = exec & C, H = E & hit, X = E & !hit,
    // T = threads of C with counter 0).
    wire [L-1:0] tl = considered & ~nz;
    wire [L-1:0] e = exec_mask & considered;
    wire [L-1:0] h = e & hit_mask;
    wire [L-1:0] x = e & ~hit_mask;
    wire grow_c = mem_op && slipped && h != 0 && (x & tl) != 0;
    wire shrink_c = mem_op && (e & tl) != 0 && (x & tl) == 0;

    // The edge's effect as the contract states it: the warp's counters are cleared,
    // grown (H + 1, saturating at 255) or shrunk (C & !H - 1, saturating at 0); other
    // warps keep theirs; reset zeroes all. Max-slip moves by STEP (saturating at 255
    // and 0) on raise xor lower, and resets to INIT.
    reg [WARPS*L*8-1:0] ncnt;
    reg [7:0] o;
    integer v, u;
    always @(*) begin
        for (v = 0; v < WARPS; v = v + 1)
            for (u = 0; u < L; u = u + 1) begin
                o = cnt[(v*L + u)*8 +: 8];
                if (v == warp) begin
                    if (clear) o = 0;
                    else if (grow_c && h[u]) o = o == 8'hff ? o : o + 8'd1;
                    else if (shrink_c && considered[u] && !h[u]) o = o == 0 ? o : o - 8'd1;
                end
                if (reset) o = 0;
                ncnt[(v*L + u)*8 +: 8] = o;
            end
    end
    localparam [8:0] STEP9 = STEP;
    wire [8:0] up = {1'b0, max_slip} + STEP9;
    wire [8:0] down = {1'b0, max_slip} - STEP9;
    wire [7:0] nms = reset ? INIT
        : (raise && !lower) ? (up[8] ? 8'hff : up[7:0])
        : (lower && !raise) ? (down[8] ? 8'h00 : down[7:0])
        : max_slip;

    reg [WARPS*L*8-1:0] exp_cnt = 0;
    reg [7:0] exp_ms = 0;
    reg was_reset = 1'b0, was_clear = 1'b0, was_grow = 1'b0, was_shrink = 1'b0;
    reg was_idle = 1'b0;
    always @(posedge clock) begin
        init <= 1'b0;
        exp_cnt <= ncnt;
        exp_ms <= nms;
        was_reset <= reset;
        was_clear <= !reset && warp_in && clear;
        was_grow <= !reset && warp_in && !clear && grow_c;
        was_shrink <= !reset && warp_in && !clear && shrink_c;
        was_idle <= !reset && !(warp_in && (clear || grow_c || shrink_c));
    end

    always @(*) if (!init) begin
        // Rule 3: after every edge each limit bit is `counter >= max-slip`, for every
        // warp and thread (also when max-slip moved).
        p_inv_limit_is_ge: assert(limit_ok);
        // The max-slip limit is respected: the warp's slip-limit bitmask is shown, and
        // `forbid` is raised exactly when a considered thread of the warp has a counter
        // at or over max-slip (nothing for a warp >= WARPS).
        p_forbid_at_limit: assert(limit_mask == lrow && forbid == ((considered & atlim) != 0));
        // Rules 1 and 2 select: tail = considered threads with counter 0; grow and
        // shrink as the header states (both off on clear), never both.
        p_rule_select: assert(tail == tl && grow == (grow_c && !clear)
                              && shrink == (shrink_c && !clear) && !(grow && shrink));
        // Rule 1: on grow every hitting executed considered thread counts +1
        // (saturating at 255), no other counter moves.
        p_grow_counts_hitters: assert(!was_grow || cnt == exp_cnt);
        // Rule 2: on shrink every considered thread that did not hit counts -1
        // (saturating at 0), no other counter moves.
        p_shrink_counts_down: assert(!was_shrink || cnt == exp_cnt);
        // Rule 5 and the out-of-range warp: with no rule, no clear, or a warp >= WARPS,
        // no counter moves (threads outside `considered` and other warps are never
        // counted).
        p_idle_keeps: assert(!was_idle || cnt == exp_cnt);
        // Rule 4: clear zeroes the warp's counters (beating mem_op), other warps keep
        // theirs; reset zeroes every counter and limit bit and sets max-slip to INIT.
        p_clear_reset: assert((!was_clear || cnt == exp_cnt)
                              && (!was_reset || (cnt == 0 && lim4[WARPS*L-1:0] == 0
                                                 && max_slip == INIT)));
        // Max-slip: + STEP on raise, - STEP on lower (saturating at 255 and 0; both =
        // keep).
        p_max_slip_rule: assert(max_slip == exp_ms);
    end
endmodule
