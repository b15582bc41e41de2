// Properties of the divergence (reconvergence) stack (SPEC §2.4; the doc comment of
// `hdl/lib/divergence_stack.rs`; the contracts of the bench
// `testbenches/src/lib/divergence_stack.rs`), proved for all inputs on the exported
// Verilog by `weft prove`: WEFT_UUT becomes the preset's module, LANES, DEPTH (at most
// 8: the harness reads the registers of eight entries, those past DEPTH are unused)
// and PCW its parameters. The contract is about the entries, so the harness reads the
// block's registers (each entry's pc, rpc and mask, and the entry count) through
// `hierconn` wires, which Yosys's `flatten` joins to the instance's wires of the same
// hierarchical name; the property that entries below the top are untouched reads the
// entries' next values (the flip-flops' `d`) the same way. Every other property relates
// this cycle's registers and outputs to the last cycle's inputs and outputs (small
// ghost registers), so each closes by induction at length 1; the invariants the
// induction needs (depth <= DEPTH, entry 0's rpc is 0, no entry above the base sits at
// its reconvergence PC) are properties of their own (`p_inv_*`), asserted beside every
// property by `weft prove`.
module weft_prove #(parameter LANES = 32, parameter DEPTH = 8, parameter PCW = 32) (
    input clock,
    input reset,
    input start,              // the block's `init` (the harness's `init` is its own)
    input [LANES-1:0] init_mask,
    input [PCW-1:0] init_pc,
    input branch,
    input [LANES-1:0] taken_mask,
    input [PCW-1:0] taken_pc,
    input [PCW-1:0] not_taken_pc,
    input [PCW-1:0] reconv_pc,
    input advance,
    input [PCW-1:0] next_pc
);
    localparam DW = $clog2(DEPTH + 1);
    localparam L = LANES, P = PCW;
    wire [P-1:0] pc, rpc;
    wire [L-1:0] mask;
    wire [DW-1:0] depth;
    wire overflow;
    WEFT_UUT uut (
        .clock(clock), .reset(reset), .init(start), .init_mask(init_mask),
        .init_pc(init_pc), .branch(branch), .taken_mask(taken_mask), .taken_pc(taken_pc),
        .not_taken_pc(not_taken_pc), .reconv_pc(reconv_pc), .advance(advance),
        .next_pc(next_pc), .pc(pc), .mask(mask), .rpc(rpc), .depth(depth),
        .overflow(overflow)
    );

    // The block's registers (entries 0..7; those past DEPTH are unused) ...
    (* hierconn *) wire [P-1:0] \uut.entry_pc$0$q , \uut.entry_pc$1$q , \uut.entry_pc$2$q , \uut.entry_pc$3$q ;
    (* hierconn *) wire [P-1:0] \uut.entry_pc$4$q , \uut.entry_pc$5$q , \uut.entry_pc$6$q , \uut.entry_pc$7$q ;
    (* hierconn *) wire [P-1:0] \uut.entry_rpc$0$q , \uut.entry_rpc$1$q , \uut.entry_rpc$2$q , \uut.entry_rpc$3$q ;
    (* hierconn *) wire [P-1:0] \uut.entry_rpc$4$q , \uut.entry_rpc$5$q , \uut.entry_rpc$6$q , \uut.entry_rpc$7$q ;
    (* hierconn *) wire [L-1:0] \uut.entry_mask$0$q , \uut.entry_mask$1$q , \uut.entry_mask$2$q , \uut.entry_mask$3$q ;
    (* hierconn *) wire [L-1:0] \uut.entry_mask$4$q , \uut.entry_mask$5$q , \uut.entry_mask$6$q , \uut.entry_mask$7$q ;
    (* hierconn *) wire [DW-1:0] \uut.count$q ;
    // ... and their next values.
    (* hierconn *) wire [P-1:0] \uut.entry_pc$0$d , \uut.entry_pc$1$d , \uut.entry_pc$2$d , \uut.entry_pc$3$d ;
    (* hierconn *) wire [P-1:0] \uut.entry_pc$4$d , \uut.entry_pc$5$d , \uut.entry_pc$6$d , \uut.entry_pc$7$d ;
    (* hierconn *) wire [P-1:0] \uut.entry_rpc$0$d , \uut.entry_rpc$1$d , \uut.entry_rpc$2$d , \uut.entry_rpc$3$d ;
    (* hierconn *) wire [P-1:0] \uut.entry_rpc$4$d , \uut.entry_rpc$5$d , \uut.entry_rpc$6$d , \uut.entry_rpc$7$d ;
    (* hierconn *) wire [L-1:0] \uut.entry_mask$0$d , \uut.entry_mask$1$d , \uut.entry_mask$2$d , \uut.entry_mask$3$d ;
    (* hierconn *) wire [L-1:0] \uut.entry_mask$4$d , \uut.entry_mask$5$d , \uut.entry_mask$6$d , \uut.entry_mask$7$d ;
    wire [8*P-1:0] ep = {\uut.entry_pc$7$q , \uut.entry_pc$6$q , \uut.entry_pc$5$q , \uut.entry_pc$4$q ,
                         \uut.entry_pc$3$q , \uut.entry_pc$2$q , \uut.entry_pc$1$q , \uut.entry_pc$0$q };
    wire [8*P-1:0] er = {\uut.entry_rpc$7$q , \uut.entry_rpc$6$q , \uut.entry_rpc$5$q , \uut.entry_rpc$4$q ,
                         \uut.entry_rpc$3$q , \uut.entry_rpc$2$q , \uut.entry_rpc$1$q , \uut.entry_rpc$0$q };
    wire [8*L-1:0] em = {\uut.entry_mask$7$q , \uut.entry_mask$6$q , \uut.entry_mask$5$q , \uut.entry_mask$4$q ,
                         \uut.entry_mask$3$q , \uut.entry_mask$2$q , \uut.entry_mask$1$q , \uut.entry_mask$0$q };
    wire [8*P-1:0] ep_d = {\uut.entry_pc$7$d , \uut.entry_pc$6$d , \uut.entry_pc$5$d , \uut.entry_pc$4$d ,
                           \uut.entry_pc$3$d , \uut.entry_pc$2$d , \uut.entry_pc$1$d , \uut.entry_pc$0$d };
    wire [8*P-1:0] er_d = {\uut.entry_rpc$7$d , \uut.entry_rpc$6$d , \uut.entry_rpc$5$d , \uut.entry_rpc$4$d ,
                           \uut.entry_rpc$3$d , \uut.entry_rpc$2$d , \uut.entry_rpc$1$d , \uut.entry_rpc$0$d };
    wire [8*L-1:0] em_d = {\uut.entry_mask$7$d , \uut.entry_mask$6$d , \uut.entry_mask$5$d , \uut.entry_mask$4$d ,
                           \uut.entry_mask$3$d , \uut.entry_mask$2$d , \uut.entry_mask$1$d , \uut.entry_mask$0$d };
    wire [DW-1:0] count = \uut.count$q ;

    reg init = 1'b1;
    always @(*) if (init) assume(reset);

    // Ghosts: the last edge's inputs and the outputs the stack showed before it.
    reg r_reset = 1'b0, r_init = 1'b0, r_branch = 1'b0, r_advance = 1'b0;
    reg [L-1:0] r_init_mask = 0, r_taken_mask = 0, r_mask = 0;
    reg [P-1:0] r_init_pc = 0, r_taken_pc = 0, r_nt_pc = 0, r_reconv = 0, r_next_pc = 0;
    reg [P-1:0] r_pc = 0, r_rpc = 0;
    reg [DW-1:0] r_depth = 0;
    reg r_overflow = 1'b0;
    always @(posedge clock) begin
        init <= 1'b0;
        r_reset <= reset;
        r_init <= start;
        r_init_mask <= init_mask;
        r_init_pc <= init_pc;
        r_branch <= branch;
        r_taken_mask <= taken_mask;
        r_taken_pc <= taken_pc;
        r_nt_pc <= not_taken_pc;
        r_reconv <= reconv_pc;
        r_advance <= advance;
        r_next_pc <= next_pc;
        r_pc <= pc;
        r_mask <= mask;
        r_rpc <= rpc;
        r_depth <= depth;
        r_overflow <= overflow;
    end

    // What the last edge was, as the contract decodes it (priority reset > init >
    // branch > advance; branch and advance ignored on an empty stack).
    wire r_event = !r_reset && !r_init && r_depth != 0;
    wire [L-1:0] r_tk = r_mask & r_taken_mask;     // active threads taken
    wire [L-1:0] r_nt = r_mask & ~r_taken_mask;    // active threads not taken
    wire r_div = r_event && r_branch && r_tk != 0 && r_nt != 0;
    // SPEC §2.4's refinements: a path at the reconvergence PC is not pushed; a top (not
    // the base) whose rpc is the branch's is replaced by the paths.
    wire r_pt = r_taken_pc != r_reconv, r_pn = r_nt_pc != r_reconv;
    wire r_replace = r_depth > 1 && r_rpc == r_reconv;
    wire [DW+1:0] r_after = {2'b0, r_depth} + r_pt + r_pn - r_replace;
    wire r_fits = r_after <= DEPTH;  // the entries really needed are free
    wire r_push = r_div && r_fits;
    wire r_ovf = r_div && !r_fits;
    wire r_uniform = r_event && r_branch && !r_div;
    wire r_adv = r_event && !r_branch && r_advance;
    wire [P-1:0] r_newpc = r_uniform ? (r_tk != 0 ? r_taken_pc : r_nt_pc) : r_next_pc;
    wire [DW+1:0] r_grown = r_push ? r_after : {2'b0, r_depth};

    // Entries read at the indices the contract names: c = the depth before the edge;
    // the not-taken path goes to entry c (c - 1 when the top is replaced), the taken
    // path above it if the not-taken one was pushed.
    wire [DW+1:0] c = {2'b0, r_depth};
    wire [DW+1:0] nt_at = c - r_replace, tk_at = nt_at + r_pn;
    wire [P-1:0] join_pc = ep[(c - 1) * P +: P], join_rpc = er[(c - 1) * P +: P];
    wire [L-1:0] join_mask = em[(c - 1) * L +: L];
    wire [P-1:0] nt_pc = ep[nt_at * P +: P], nt_rpc = er[nt_at * P +: P];
    wire [L-1:0] nt_mask = em[nt_at * L +: L];
    wire [P-1:0] tk_pc = ep[tk_at * P +: P], tk_rpc = er[tk_at * P +: P];
    wire [L-1:0] tk_mask = em[tk_at * L +: L];
    wire [P-1:0] top_pc = ep[(depth - 1) * P +: P], top_rpc = er[(depth - 1) * P +: P];
    wire [L-1:0] top_mask = em[(depth - 1) * L +: L];

    // No entry above the base sits at its reconvergence PC: what bounds the depth by
    // the nesting, and why one pop per edge suffices.
    reg settled;
    integer i;
    always @(*) begin
        settled = 1'b1;
        for (i = 1; i < DEPTH; i = i + 1)
            if (i < depth && ep[i * P +: P] == er[i * P +: P]) settled = 1'b0;
    end


    // Entries popped by the last edge (from `depth` up to the grown stack) had all
    // reached their reconvergence PC.
    reg popped_reconverged;
    integer j;
    always @(*) begin
        popped_reconverged = 1'b1;
        for (j = 0; j < DEPTH; j = j + 1)
            if (j >= depth && j < r_grown && ep[j * P +: P] != er[j * P +: P])
                popped_reconverged = 1'b0;
    end

    // This edge's branch, decoded as above: divergent and replacing the top.
    wire replacing = !reset && !start && branch && depth > 1 && rpc == reconv_pc
        && (mask & taken_mask) != 0 && (mask & ~taken_mask) != 0;

    // Entries strictly below the top keep all fields on this edge; the top keeps its
    // reconvergence PC, and its mask unless a branch replaces it by its paths (only its
    // execute PC changes otherwise; pushes go above it).
    reg below_kept;
    integer k;
    always @(*) begin
        below_kept = 1'b1;
        for (k = 0; k < DEPTH; k = k + 1) begin
            if (k + 1 < count && ep_d[k * P +: P] != ep[k * P +: P]) below_kept = 1'b0;
            if (k + 1 <= count && er_d[k * P +: P] != er[k * P +: P]) below_kept = 1'b0;
            if (k + 1 < count && em_d[k * L +: L] != em[k * L +: L]) below_kept = 1'b0;
            if (k + 1 == count && !replacing && em_d[k * L +: L] != em[k * L +: L])
                below_kept = 1'b0;
        end
    end

    always @(*) if (!init) begin
        // Reset empties the stack and clears overflow: nothing is shown.
        p_reset_empties: assert(!r_reset
            || (depth == 0 && !overflow && pc == 0 && mask == 0 && rpc == 0));
        // The invariants: depth never exceeds DEPTH; entry 0's rpc is 0 on a running
        // warp (reset does not clear the entries; init writes it); no entry above the
        // base (the top included) sits at its reconvergence PC.
        p_inv_depth_bounded: assert(depth <= DEPTH);
        p_inv_base_rpc: assert(depth == 0 || \uut.entry_rpc$0$q == 0);
        p_inv_settled: assert((depth <= 1 || pc != rpc) && settled);
        // An empty stack shows pc, mask and rpc 0; the base entry shows rpc 0.
        p_empty_and_base_outputs: assert(
            (depth != 0 || (pc == 0 && mask == 0 && rpc == 0))
            && (depth != 1 || rpc == 0));
        // The outputs are the top entry (entry depth-1).
        p_top_is_entry: assert(depth > DEPTH || depth == 0
            || (pc == top_pc && mask == top_mask && rpc == top_rpc));
        // init makes the stack one base entry (rpc 0, init_mask, init_pc) and keeps
        // overflow; on an empty stack branch and advance are ignored.
        p_init_starts_warp: assert(
            (!(r_init && !r_reset) || (depth == 1 && pc == r_init_pc && mask == r_init_mask
                                       && rpc == 0 && overflow == r_overflow))
            && (!(!r_reset && !r_init && r_depth == 0) || (depth == 0 && overflow == r_overflow)));
        // A divergent branch with room: the top becomes the join entry (pc := reconv,
        // mask and rpc kept) unless it is replaced, then the not-taken entry (reconv,
        // M & !T, nt_pc) and the taken entry (reconv, M & T, t_pc) are pushed, each only
        // if its PC is not the reconvergence PC. The new top is the taken path if pushed,
        // else the not-taken one, else the join entry (or, the top replaced by no path,
        // the entry below).
        p_divergent_push: assert(!r_push || (
            (r_replace || (join_pc == r_reconv && join_mask == r_mask && join_rpc == r_rpc))
            && (!r_pn || (nt_pc == r_nt_pc && nt_rpc == r_reconv && nt_mask == r_nt))
            && (!r_pt || (tk_pc == r_taken_pc && tk_rpc == r_reconv && tk_mask == r_tk))
            && overflow == r_overflow
            && (r_pt ? (pc == r_taken_pc && mask == r_tk && rpc == r_reconv)
                : r_pn ? (pc == r_nt_pc && mask == r_nt && rpc == r_reconv)
                : r_replace ? depth + 1 == r_depth
                : (pc == r_reconv && mask == r_mask && rpc == r_rpc))));
        // The stack is bounded by the nesting (with `p_inv_settled`): a divergent branch
        // leaves exactly depth - replaced + pushed entries (the paths not at the
        // reconvergence PC; a top whose rpc is the branch's, not the base, replaced).
        p_bounded_by_nesting: assert(!r_push || depth == r_after);
        // overflow is sticky until reset and set exactly by a divergent branch whose
        // entries do not fit (depth - replaced + pushed > DEPTH); it changes nothing else.
        p_overflow: assert(
            overflow == (!r_reset && (r_overflow || r_ovf))
            && (!r_ovf || (depth == r_depth && pc == r_pc && mask == r_mask
                           && rpc == r_rpc)));
        // A uniform branch (to taken_pc if any active thread is taken, else
        // not_taken_pc) or an advance (to next_pc) changes only the top's PC; the stack
        // keeps its depth unless that PC is the top's reconvergence PC: then it pops
        // exactly the top.
        p_pc_update: assert(!(r_uniform || r_adv) || (
            join_pc == r_newpc && join_mask == r_mask && join_rpc == r_rpc
            && overflow == r_overflow
            && ((r_newpc == r_rpc && r_depth > 1) ? depth + 1 == r_depth
                : (depth == r_depth && pc == r_newpc && mask == r_mask && rpc == r_rpc))));
        // Pops: after any event on a running warp the stack keeps at least the base
        // entry, every entry popped had reached its reconvergence PC, and the new top
        // (other than the base) has not (so the pop stopped at the right entry).
        p_pop_reconverged: assert(!r_event
            || (depth >= 1 && depth <= r_grown && popped_reconverged));
        // Entries below the top are untouched by a push, pop, PC update or overflow;
        // the top keeps its mask and reconvergence PC.
        p_below_top_kept: assert(reset || start || below_kept);
    end
endmodule
