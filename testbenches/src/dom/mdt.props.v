// Properties of one warp's Memory Divergence Table (SPEC §4, `diverge-on-miss.txt`
// §4.1; contract in weft_hdl::dom::mdt's header, model weft_sim::dom::mdt), proved for
// all inputs on the exported Verilog by `weft prove`: WEFT_UUT becomes the preset's
// module, LANES, M (at most 4) and PCW its parameters. The harness reads the table's
// registers (PC and thread bitmask of each entry; an entry is in use while its bitmask
// is not empty) through `hierconn` wires, which Yosys's `flatten` joins to the
// instance's wires of the same hierarchical name. Ghost registers hold only what the
// contract expects after the last edge.
module weft_prove #(parameter LANES = 32, parameter M = 2, parameter PCW = 32) (
    input clock,
    input reset,
    input access,
    input [PCW-1:0] pc,
    input [LANES-1:0] miss_mask,
    input forbid,
    input [LANES-1:0] release_mask
);
    wire matched, accept, refuse, full;
    wire [M-1:0] match_entry, target, valid;
    wire [LANES-1:0] match_mask, waiting;
    WEFT_UUT uut (
        .clock(clock), .reset(reset), .access(access), .pc(pc), .miss_mask(miss_mask),
        .forbid(forbid), .release_mask(release_mask), .matched(matched),
        .match_entry(match_entry), .match_mask(match_mask), .accept(accept),
        .refuse(refuse), .target(target), .waiting(waiting), .valid(valid), .full(full)
    );

    // The block's registers (entries 0..3; those past M are unused).
    (* hierconn *) wire [PCW-1:0] \uut.entry_pc$0$q , \uut.entry_pc$1$q ;
    (* hierconn *) wire [PCW-1:0] \uut.entry_pc$2$q , \uut.entry_pc$3$q ;
    (* hierconn *) wire [LANES-1:0] \uut.entry_mask$0$q , \uut.entry_mask$1$q ;
    (* hierconn *) wire [LANES-1:0] \uut.entry_mask$2$q , \uut.entry_mask$3$q ;
    wire [4*PCW-1:0] p4 = {\uut.entry_pc$3$q , \uut.entry_pc$2$q , \uut.entry_pc$1$q ,
                           \uut.entry_pc$0$q };
    wire [4*LANES-1:0] m4 = {\uut.entry_mask$3$q , \uut.entry_mask$2$q ,
                             \uut.entry_mask$1$q , \uut.entry_mask$0$q };
    wire [M*PCW-1:0] p = p4[M*PCW-1:0];
    wire [M*LANES-1:0] m = m4[M*LANES-1:0];

    reg init = 1'b1;
    always @(*) if (init) assume(reset);

    // This cycle, from the entries: in use, the entry holding `pc`, the lowest free
    // entry, the threads held, and the invariants (no two entries in use share a PC;
    // the entries' bitmasks are pairwise disjoint).
    reg [M-1:0] v, hold, lowfree;
    reg any_hold, any_free, pcs_unique, disjoint;
    reg [LANES-1:0] held;
    integer i, j;
    always @(*) begin
        v = 0;
        hold = 0;
        lowfree = 0;
        any_free = 1'b0;
        held = 0;
        pcs_unique = 1'b1;
        disjoint = 1'b1;
        for (i = 0; i < M; i = i + 1) begin
            v[i] = |m[i*LANES +: LANES];
            held = held | m[i*LANES +: LANES];
            if (v[i] && p[i*PCW +: PCW] == pc) hold[i] = 1'b1;
            if (!v[i] && !any_free) begin
                lowfree[i] = 1'b1;
                any_free = 1'b1;
            end
            for (j = 0; j < M; j = j + 1)
                if (j != i) begin
                    if (v[i] && v[j] && p[i*PCW +: PCW] == p[j*PCW +: PCW]) pcs_unique = 1'b0;
                    if (|(m[i*LANES +: LANES] & m[j*LANES +: LANES])) disjoint = 1'b0;
                end
        end
        any_hold = hold != 0;
    end

    // The contract's decision: misses to mask off, taken unless forbidden or the PC is
    // absent and no entry is free; merged into the entry holding the PC, else the lowest
    // free entry.
    wire want = access && miss_mask != 0;
    wire c_accept = want && !forbid && (any_hold || any_free);
    wire [M-1:0] c_target = !c_accept ? 0 : any_hold ? hold : lowfree;

    // The edge's effect as the contract states it, per entry k:
    // mask' = (mask & ~release) | (target_k ? miss : 0); a written entry takes `pc`;
    // reset empties every entry.
    reg [M*LANES-1:0] nm;
    reg [M*PCW-1:0] np;
    integer k;
    always @(*) begin
        for (k = 0; k < M; k = k + 1) begin
            nm[k*LANES +: LANES] = reset ? {LANES{1'b0}}
                : (m[k*LANES +: LANES] & ~release_mask) | (c_target[k] ? miss_mask : 0);
            np[k*PCW +: PCW] = c_target[k] ? pc : p[k*PCW +: PCW];
        end
    end

    reg [M*LANES-1:0] exp_m = 0;
    reg [M*PCW-1:0] exp_p = 0;
    reg [M-1:0] exp_v = 0;
    reg [LANES-1:0] exp_held = 0;
    reg was_reset = 1'b0, was_live = 1'b0;
    // Sticky since the last reset: an access merged or allocated threads some entry
    // already held (outside the contract's use: a thread waits on one memory op, so the
    // core never reports a waiting thread as missing again).
    reg overlap = 1'b0;
    integer q;
    always @(posedge clock) begin
        init <= 1'b0;
        was_reset <= reset;
        was_live <= !reset;
        exp_m <= nm;
        exp_p <= np;
        for (q = 0; q < M; q = q + 1) exp_v[q] <= |nm[q*LANES +: LANES];
        exp_held <= reset ? 0 : (held & ~release_mask) | (c_accept ? miss_mask : 0);
        overlap <= reset ? 1'b0 : overlap || (c_accept && |(miss_mask & held));
    end

    // The invariant `p_inv_pcs_unique` held in every checked cycle up to this one (the
    // reset cycle is not checked). The properties whose induction needs it are stated
    // for such traces: `p_inv_pcs_unique` proves that is every trace, the invariant
    // strengthens their induction as much as if it were asserted with them, and a bug
    // that breaks only uniqueness fails `p_inv_pcs_unique`, not them (so each one's
    // planted bug shows its own clause can fail).
    reg unique_before = 1'b1;
    always @(posedge clock) unique_before <= init || (unique_before && pcs_unique);
    wire unique_so_far = unique_before && pcs_unique;

    // Every entry in use holds the PC and bitmask the contract expects.
    reg as_expected;
    integer r;
    always @(*) begin
        as_expected = m == exp_m;
        for (r = 0; r < M; r = r + 1)
            if (exp_v[r] && p[r*PCW +: PCW] != exp_p[r*PCW +: PCW]) as_expected = 1'b0;
    end

    // The outputs' view of the state: a single held entry for the PC.
    wire [LANES-1:0] c_match_mask;
    reg [LANES-1:0] mm;
    integer s;
    always @(*) begin
        mm = 0;
        for (s = 0; s < M; s = s + 1) if (hold[s]) mm = mm | m[s*LANES +: LANES];
    end
    assign c_match_mask = mm;

    always @(*) if (!init) begin
        // Merge before allocate: no two entries in use hold the same PC.
        p_inv_pcs_unique: assert(pcs_unique);
        // The entries' bitmasks are disjoint (a thread is masked off by one memory op),
        // as long as no access was taken with threads the table already held.
        p_masks_disjoint: assert(overlap || disjoint);
        // No thread lost or invented: the threads held after an edge are those held
        // before, less the released ones, plus the misses of an accepted access; reset
        // empties the table.
        p_no_thread_lost: assert(held == exp_held);
        // The registered outputs are the entries: waiting = every held thread, valid =
        // entries in use, full = every entry in use.
        p_state_outputs: assert(waiting == held && valid == v && full == (v == {M{1'b1}}));
        // The decision: an access with misses is accepted unless forbidden, or the PC is
        // absent and every entry in use (then refused); matched/match_entry/match_mask
        // name the entry holding the PC.
        p_accept_rule: assert(!unique_so_far || (accept == c_accept
            && refuse == (want && !c_accept) && matched == any_hold && match_entry == hold
            && match_mask == c_match_mask));
        // The entry written: the one holding the PC, else the lowest free one; none
        // unless accepted.
        p_target_rule: assert(!unique_so_far || target == c_target);
        // Next state, per entry: mask' = (mask & ~release) | (target ? miss : 0), a
        // written entry takes the PC, the others keep theirs.
        p_entry_update: assert(!unique_so_far || !was_live || as_expected);
        // Reset empties every entry.
        p_reset_empties: assert(!was_reset || m == 0);
    end
endmodule
