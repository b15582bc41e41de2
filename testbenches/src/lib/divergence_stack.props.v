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
// induction needs (depth <= DEPTH, entry 0's rpc is 0, the top never sits at its
// reconvergence PC) are asserted with them.
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
    wire r_fits = {1'b0, r_depth} + 2 <= DEPTH;  // two free entries
    wire r_push = r_div && r_fits;
    wire r_ovf = r_div && !r_fits;
    wire r_uniform = r_event && r_branch && !r_div;
    wire r_adv = r_event && !r_branch && r_advance;
    wire [P-1:0] r_newpc = r_uniform ? (r_tk != 0 ? r_taken_pc : r_nt_pc) : r_next_pc;
    wire [DW:0] r_grown = {1'b0, r_depth} + (r_push ? 2 : 0);

    // Entries read at the indices the contract names: c = the depth before the edge.
    wire [DW:0] c = {1'b0, r_depth};
    wire [P-1:0] join_pc = ep[(c - 1) * P +: P], join_rpc = er[(c - 1) * P +: P];
    wire [L-1:0] join_mask = em[(c - 1) * L +: L];
    wire [P-1:0] nt_pc = ep[c * P +: P], nt_rpc = er[c * P +: P];
    wire [L-1:0] nt_mask = em[c * L +: L];
    wire [P-1:0] tk_pc = ep[(c + 1) * P +: P], tk_rpc = er[(c + 1) * P +: P];
    wire [L-1:0] tk_mask = em[(c + 1) * L +: L];
    wire [P-1:0] top_pc = ep[(depth - 1) * P +: P], top_rpc = er[(depth - 1) * P +: P];
    wire [L-1:0] top_mask = em[(depth - 1) * L +: L];

    // The invariants: depth within DEPTH, entry 0's rpc is 0 on a running warp (reset
    // does not clear the entries; init writes it), and the top (other than the base)
    // never sits at its reconvergence PC.
    wire inv = depth <= DEPTH && (depth == 0 || \uut.entry_rpc$0$q == 0)
        && (depth <= 1 || pc != rpc);

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

    // Entries strictly below the top keep all fields on this edge; the top keeps its
    // mask and reconvergence PC (only its execute PC changes; pushes go above it).
    reg below_kept;
    integer k;
    always @(*) begin
        below_kept = 1'b1;
        for (k = 0; k < DEPTH; k = k + 1) begin
            if (k + 1 < count && ep_d[k * P +: P] != ep[k * P +: P]) below_kept = 1'b0;
            if (k + 1 <= count && (er_d[k * P +: P] != er[k * P +: P]
                                   || em_d[k * L +: L] != em[k * L +: L]))
                below_kept = 1'b0;
        end
    end

    always @(*) if (!init) begin
        // Reset empties the stack and clears overflow: nothing is shown.
        p_reset_empties: assert(!r_reset
            || (depth == 0 && !overflow && pc == 0 && mask == 0 && rpc == 0));
        // depth never exceeds DEPTH; an empty stack shows pc, mask and rpc 0; the base
        // entry's rpc is 0.
        p_depth_bounded: assert(inv
            && (depth != 0 || (pc == 0 && mask == 0 && rpc == 0))
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
        // mask and rpc kept), then the not-taken entry (reconv, M & !T, nt_pc) and the
        // taken entry (reconv, M & T, t_pc) are pushed: their masks are disjoint,
        // non-empty, and together the parent's mask. The taken path is the new top
        // unless its PC is already the reconvergence PC (then the pop rule applies).
        p_divergent_push: assert(!r_push || (
            join_pc == r_reconv && join_mask == r_mask && join_rpc == r_rpc
            && nt_pc == r_nt_pc && nt_rpc == r_reconv && nt_mask == r_nt
            && tk_pc == r_taken_pc && tk_rpc == r_reconv && tk_mask == r_tk
            && (nt_mask & tk_mask) == 0 && (nt_mask | tk_mask) == r_mask
            && nt_mask != 0 && tk_mask != 0
            && overflow == r_overflow
            && (r_taken_pc == r_reconv
                || (depth == r_depth + 2 && pc == r_taken_pc && mask == r_tk
                    && rpc == r_reconv))));
        // overflow is sticky until reset and set exactly by a divergent branch that
        // finds fewer than two free entries; that branch changes nothing else.
        p_overflow: assert(inv
            && overflow == (!r_reset && (r_overflow || r_ovf))
            && (!r_ovf || (depth == r_depth && pc == r_pc && mask == r_mask
                           && rpc == r_rpc)));
        // A uniform branch (to taken_pc if any active thread is taken, else
        // not_taken_pc) or an advance (to next_pc) changes only the top's PC; the stack
        // keeps its depth unless that PC is the top's reconvergence PC.
        p_pc_update: assert(inv && (!(r_uniform || r_adv) || (
            join_pc == r_newpc && join_mask == r_mask && join_rpc == r_rpc
            && overflow == r_overflow
            && ((r_newpc == r_rpc && r_depth > 1) ? depth < r_depth
                : (depth == r_depth && pc == r_newpc && mask == r_mask && rpc == r_rpc)))));
        // Pops: after any event on a running warp the stack keeps at least the base
        // entry, every entry popped had reached its reconvergence PC, and the new top
        // (other than the base) has not (so the pop stopped at the right entry).
        p_pop_reconverged: assert(inv && (!r_event
            || (depth >= 1 && depth <= r_grown && popped_reconverged)));
        // Entries below the top are untouched by a push, pop, PC update or overflow;
        // the top keeps its mask and reconvergence PC.
        p_below_top_kept: assert(reset || start || below_kept);
    end
endmodule
