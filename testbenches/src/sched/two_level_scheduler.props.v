// Properties of the two-level scheduler (SPEC §2.3), proved for all inputs on the
// exported Verilog by `weft prove`: WEFT_UUT becomes the preset's module, WARPS and
// GROUP its parameters. The ghost registers are the contract's state: the current
// group and each group's last granted warp.
module weft_prove #(parameter WARPS = 4, parameter GROUP = 2) (  // powers of two
    input clock,
    input reset,
    input [WARPS-1:0] ready,
    input accept
);
    localparam GROUPS = WARPS / GROUP;
    localparam WW = WARPS > 1 ? $clog2(WARPS) : 1;
    localparam GW = GROUPS > 1 ? $clog2(GROUPS) : 1;
    wire grant_valid;
    wire [WW-1:0] grant;
    wire [GW-1:0] group;
    WEFT_UUT uut (
        .clock(clock), .reset(reset), .ready(ready), .accept(accept),
        .grant_valid(grant_valid), .grant(grant), .group(group)
    );

    reg init = 1'b1;
    always @(*) if (init) assume(reset);

    // The contract's state: current group, and per group its last grant (flat).
    reg [GW-1:0] cur = 0;
    reg [GROUPS*WW-1:0] last = 0;
    // Accepted grants each ready warp of the current group has waited through.
    reg [WARPS*8-1:0] waiting = 0;

    // The contract's grant: the first group from `cur` with a ready warp, within it
    // the first ready warp after its last grant.
    reg spec_valid;
    reg [WW-1:0] spec_grant, w, prev;
    reg [GW-1:0] spec_group, g;
    integer i, j;
    always @(*) begin
        spec_valid = 1'b0;
        spec_grant = 0;
        spec_group = cur;
        for (i = 0; i < GROUPS; i = i + 1) begin
            g = (cur + i) & (GROUPS - 1);
            prev = last[g*WW +: WW];
            for (j = 1; j <= GROUP; j = j + 1) begin
                w = g * GROUP + ((prev - g * GROUP + j) & (GROUP - 1));
                if (!spec_valid && ready[w]) begin
                    spec_valid = 1'b1;
                    spec_grant = w;
                    spec_group = g;
                end
            end
        end
    end

    integer k;
    always @(posedge clock) begin
        init <= 1'b0;
        if (reset) begin
            cur <= 0;
            for (k = 0; k < GROUPS; k = k + 1) last[k*WW +: WW] <= k * GROUP + GROUP - 1;
            waiting <= 0;
        end else begin
            if (grant_valid && accept) begin
                cur <= spec_group;
                last[spec_group*WW +: WW] <= spec_grant;
            end
            for (k = 0; k < WARPS; k = k + 1)
                if (ready[k] && k / GROUP == cur && grant_valid && accept && grant != k)
                    waiting[k*8 +: 8] <= waiting[k*8 +: 8] + 1;
                else if (!ready[k] || (grant_valid && accept && grant == k) || k / GROUP != cur)
                    waiting[k*8 +: 8] <= 0;
        end
    end

    // The fairness bound, in a form induction can close: a ready warp of the current
    // group has waited through fewer grants than the warps between its group's last
    // grant and itself leave to go (each grant of another warp moves the group's
    // pointer past at least one of them); a warp outside the current group has not
    // waited (it was reset when its group lost priority, which needs none of its warps
    // ready).
    // The block's own state, read through `hierconn` wires (joined by `flatten`): the
    // current group and each group's next start (its last grant + 1). Up to 4 groups
    // (every preset has at most 4); an unused wire is left undriven and unread.
    localparam LW = GROUP > 1 ? $clog2(GROUP) : 1;
    (* hierconn *) wire [GW-1:0] \uut.cur$q ;
    (* hierconn *) wire [LW-1:0] \uut.start$0$q ;
    (* hierconn *) wire [LW-1:0] \uut.start$1$q ;
    (* hierconn *) wire [LW-1:0] \uut.start$2$q ;
    (* hierconn *) wire [LW-1:0] \uut.start$3$q ;
    wire [4*LW-1:0] starts = {\uut.start$3$q , \uut.start$2$q , \uut.start$1$q , \uut.start$0$q };
    // The invariant: the block's pointers are the contract's, whose pointers stay in
    // their groups.
    reg tied;
    integer t;
    always @(*) begin
        tied = \uut.cur$q == cur;
        for (t = 0; t < GROUPS && t < 4; t = t + 1)
            if (starts[t*LW +: LW] != ((last[t*WW +: WW] + 1) & (GROUP - 1))) tied = 1'b0;
        for (t = 0; t < GROUPS; t = t + 1)
            if (last[t*WW +: WW] / GROUP != t) tied = 1'b0;
    end
    // The invariant held in every checked cycle up to this one (the reset cycle is not
    // checked). The grant and the fairness bound are stated for such traces: `p_inv_tied`
    // proves that is every trace, the tie strengthens their induction as much as if it
    // were asserted with them, and a bug that breaks only the tie fails `p_inv_tied`, not
    // them (so each one's planted bug shows its own clause can fail).
    reg tied_before = 1'b1;
    always @(posedge clock) tied_before <= init || (tied_before && tied);
    wire tied_so_far = tied_before && tied;

    reg fair;
    integer m;
    always @(*) begin
        fair = 1'b1;
        for (m = 0; m < WARPS; m = m + 1)
            if (m / GROUP == cur) begin
                if (waiting[m*8 +: 8] + ((m - last[cur*WW +: WW] - 1) & (GROUP - 1)) > GROUP - 1)
                    fair = 1'b0;
            end else if (waiting[m*8 +: 8] != 0) fair = 1'b0;
    end

    always @(*) if (!init) begin
        // The block's pointers are the contract's.
        p_inv_tied: assert(tied);
        // Grants only a ready warp, and never idles while one is ready.
        p_grants_only_ready: assert(!grant_valid || ready[grant]);
        p_never_idles: assert(grant_valid == (ready != 0));
        // The grant and its group are the contract's: the current group keeps priority
        // until none of its warps is ready, round robin within a group.
        p_grant_is_the_contracts: assert(!tied_so_far || !grant_valid || grant == spec_grant);
        p_group_of_grant: assert(group == spec_group);
        // A warp of the current group that stays ready is granted within GROUP
        // accepted grants.
        p_ready_warp_granted_within_group: assert(!tied_so_far || fair);
    end
endmodule
