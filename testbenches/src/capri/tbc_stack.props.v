// Properties of the TBC CTA-wide stack's update mask and bypass counts (SPEC §3.5; the
// doc comment of `hdl/capri/tbc_stack.rs`), proved for all inputs on the exported
// Verilog by `weft prove`: WEFT_UUT becomes the preset's module, CTA_WARPS, LANES,
// DEPTH (at most 8: the harness reads the registers of eight entries) and PCW its
// parameters. The update mask has one bit per thread: a bypassing warp (any set of
// threads, a compacted warp too) clears exactly its taken and not-taken threads, a
// stalling one clears nothing. Ghost registers follow the contract over the branch
// being filled: the update mask of its two entries (every thread at the first warp,
// then each bypass's threads cleared) and the bypassing warps on each path. The ghosts
// are tied to the pending entries' registers (read through `hierconn` wires). The
// invariants the inductions need are properties of their own, asserted beside every
// property by `weft prove`: `p_inv_room` (the entries in use and the pending ones fit)
// and `p_inv_pending_umask` (the tie: the pending entries hold the ghost's update mask,
// the contract's first rule). Each property closes at length 1.
// The depth rules of a divergent branch (both paths live) are checked against the
// pending entries' PCs, rpc and masks read the same way: the TOS is replaced when it
// is not the base and already reconverges at the branch's rpc, a path at the rpc is
// not pushed, and otherwise the TOS re-forms at the rpc with every thread waiting.
module weft_prove #(parameter CTA_WARPS = 3, parameter LANES = 4, parameter DEPTH = 8,
                    parameter PCW = 32) (
    input clock,
    input reset,
    input [1:0] op,
    input stall,
    input [CTA_WARPS*LANES-1:0] taken,
    input [CTA_WARPS*LANES-1:0] not_taken,
    input [PCW-1:0] taken_pc,
    input [PCW-1:0] not_taken_pc,
    input [PCW-1:0] rpc
);
    localparam N = CTA_WARPS * LANES;
    localparam DW = $clog2(DEPTH + 1);
    localparam CW = $clog2(CTA_WARPS + 1);
    wire valid, pending, changed, wcu_useful, overflow, error;
    wire [DW-1:0] depth;
    wire [PCW-1:0] tos_pc, tos_rpc;
    wire [N-1:0] tos_mask, tos_umask;
    wire [CW-1:0] tos_wcnt;
    WEFT_UUT uut (
        .clock(clock), .reset(reset), .op(op), .stall(stall), .taken(taken),
        .not_taken(not_taken), .taken_pc(taken_pc), .not_taken_pc(not_taken_pc), .rpc(rpc),
        .valid(valid), .depth(depth), .tos_pc(tos_pc), .tos_rpc(tos_rpc),
        .tos_mask(tos_mask), .tos_umask(tos_umask), .tos_wcnt(tos_wcnt),
        .pending(pending), .changed(changed), .wcu_useful(wcu_useful),
        .overflow(overflow), .error(error)
    );

    // The entries' update masks and WCnt (entries 0..7).
    (* hierconn *) wire [N-1:0] \uut.e_umask$0$q , \uut.e_umask$1$q , \uut.e_umask$2$q , \uut.e_umask$3$q ;
    (* hierconn *) wire [N-1:0] \uut.e_umask$4$q , \uut.e_umask$5$q , \uut.e_umask$6$q , \uut.e_umask$7$q ;
    (* hierconn *) wire [CW-1:0] \uut.e_wcnt$0$q , \uut.e_wcnt$1$q , \uut.e_wcnt$2$q , \uut.e_wcnt$3$q ;
    (* hierconn *) wire [CW-1:0] \uut.e_wcnt$4$q , \uut.e_wcnt$5$q , \uut.e_wcnt$6$q , \uut.e_wcnt$7$q ;
    wire [8*N-1:0] eu = {\uut.e_umask$7$q , \uut.e_umask$6$q , \uut.e_umask$5$q , \uut.e_umask$4$q ,
                         \uut.e_umask$3$q , \uut.e_umask$2$q , \uut.e_umask$1$q , \uut.e_umask$0$q };
    (* hierconn *) wire [PCW-1:0] \uut.e_pc$0$q , \uut.e_pc$1$q , \uut.e_pc$2$q , \uut.e_pc$3$q ;
    (* hierconn *) wire [PCW-1:0] \uut.e_pc$4$q , \uut.e_pc$5$q , \uut.e_pc$6$q , \uut.e_pc$7$q ;
    (* hierconn *) wire [PCW-1:0] \uut.e_rpc$0$q , \uut.e_rpc$1$q , \uut.e_rpc$2$q , \uut.e_rpc$3$q ;
    (* hierconn *) wire [PCW-1:0] \uut.e_rpc$4$q , \uut.e_rpc$5$q , \uut.e_rpc$6$q , \uut.e_rpc$7$q ;
    (* hierconn *) wire [N-1:0] \uut.e_mask$0$q , \uut.e_mask$1$q , \uut.e_mask$2$q , \uut.e_mask$3$q ;
    (* hierconn *) wire [N-1:0] \uut.e_mask$4$q , \uut.e_mask$5$q , \uut.e_mask$6$q , \uut.e_mask$7$q ;
    wire [8*PCW-1:0] ep = {\uut.e_pc$7$q , \uut.e_pc$6$q , \uut.e_pc$5$q , \uut.e_pc$4$q ,
                           \uut.e_pc$3$q , \uut.e_pc$2$q , \uut.e_pc$1$q , \uut.e_pc$0$q };
    wire [8*PCW-1:0] er = {\uut.e_rpc$7$q , \uut.e_rpc$6$q , \uut.e_rpc$5$q , \uut.e_rpc$4$q ,
                           \uut.e_rpc$3$q , \uut.e_rpc$2$q , \uut.e_rpc$1$q , \uut.e_rpc$0$q };
    wire [8*N-1:0] em = {\uut.e_mask$7$q , \uut.e_mask$6$q , \uut.e_mask$5$q , \uut.e_mask$4$q ,
                         \uut.e_mask$3$q , \uut.e_mask$2$q , \uut.e_mask$1$q , \uut.e_mask$0$q };
    wire [8*CW-1:0] ew = {\uut.e_wcnt$7$q , \uut.e_wcnt$6$q , \uut.e_wcnt$5$q , \uut.e_wcnt$4$q ,
                          \uut.e_wcnt$3$q , \uut.e_wcnt$2$q , \uut.e_wcnt$1$q , \uut.e_wcnt$0$q };
    // The pending not-taken entry sits at `depth`, the taken one at `depth + 1`.
    wire [2:0] nt_i = depth, tk_i = depth + 1;
    wire [N-1:0] nt_umask = eu[nt_i*N +: N], tk_umask = eu[tk_i*N +: N];
    wire [CW-1:0] nt_wcnt = ew[nt_i*CW +: CW], tk_wcnt = ew[tk_i*CW +: CW];

    reg init = 1'b1;
    always @(*) if (init) assume(reset);

    localparam [1:0] OP_LAUNCH = 2'd1, OP_BRANCH = 2'd2;
    wire [N-1:0] all_threads = {N{1'b1}};
    // A branch the stack takes (the others are dropped and flagged).
    wire accepted = op == OP_BRANCH && valid && tos_wcnt != 0 && (pending || depth + 2 <= DEPTH);
    wire bypass = accepted && !stall;
    // The branch as the last warp resolves it: PCs and rpc from the pending entries
    // (from this warp's inputs if it is the only one), masks with this warp's threads.
    wire [PCW-1:0] b_tk_pc = pending ? ep[tk_i*PCW +: PCW] : taken_pc;
    wire [PCW-1:0] b_nt_pc = pending ? ep[nt_i*PCW +: PCW] : not_taken_pc;
    wire [PCW-1:0] b_rpc = pending ? er[tk_i*PCW +: PCW] : rpc;
    wire [N-1:0] b_tk = (pending ? em[tk_i*N +: N] : {N{1'b0}}) | taken;
    wire [N-1:0] b_nt = (pending ? em[nt_i*N +: N] : {N{1'b0}}) | not_taken;
    wire divergent = accepted && tos_wcnt == 1 && b_tk != 0 && b_nt != 0;
    wire replace = depth > 1 && tos_rpc == b_rpc;
    wire [DW-1:0] pushed = (b_tk_pc != b_rpc) + (b_nt_pc != b_rpc);

    // Ghosts: the pending entries' update mask and bypass counts after this edge.
    reg [N-1:0] g_umask = 0;
    reg [CW-1:0] g_nt = 0, g_tk = 0;
    // The last edge: a launch (and its mask), an accepted branch.
    reg r_launch = 1'b0, r_accepted = 1'b0;
    reg [N-1:0] r_taken = 0;
    // The last edge resolved a divergent branch: the depth it must leave, whether a
    // path is the new TOS, and (not replaced) the old TOS's index and the rpc.
    reg r_divergent = 1'b0, r_path = 1'b0, r_join = 1'b0;
    reg [DW-1:0] r_depth = 0;
    reg [2:0] r_join_i = 0;
    reg [PCW-1:0] r_rpc = 0;
    always @(posedge clock) begin
        init <= 1'b0;
        r_divergent <= !reset && divergent;
        r_path <= !divergent || pushed != 0;
        r_join <= !reset && divergent && !replace;
        r_depth <= depth - replace + pushed;
        r_join_i <= depth - 1;
        r_rpc <= b_rpc;
        r_launch <= !reset && op == OP_LAUNCH;
        r_accepted <= !reset && accepted;
        r_taken <= taken;
        if (accepted) begin
            g_umask <= (pending ? g_umask : all_threads) & (bypass ? ~(taken | not_taken) : all_threads);
            g_tk <= (pending ? g_tk : 0) + (bypass && taken != 0);
            g_nt <= (pending ? g_nt : 0) + (bypass && not_taken != 0);
        end
    end

    // The entries in use and the pending ones fit (what every property stands on).
    wire room = depth <= DEPTH && (!pending || depth + 2 <= DEPTH);
    always @(*) if (!init) begin
        p_inv_room: assert(room);
        // The pending entries' update mask is every thread but exactly the threads of
        // the warps that bypassed (taken and not-taken): none of a warp that stalled.
        p_inv_pending_umask: assert(!pending || nt_umask == g_umask && tk_umask == g_umask);
        // When the last warp arrives and the new TOS is a path (the one live path, or
        // the top path pushed), it takes that update mask.
        p_branch_umask: assert(!(r_accepted && changed && r_path) || tos_umask == g_umask);
        // A divergent branch leaves depth - replaced + paths not at the rpc: a loop's
        // back edge (fall-through = rpc) replaces its entry instead of pushing two.
        p_depth: assert(!r_divergent || depth == r_depth);
        // Not replaced, the old TOS re-forms at the rpc with every thread waiting.
        p_join: assert(!r_join || ep[r_join_i*PCW +: PCW] == r_rpc && eu[r_join_i*N +: N] == all_threads);
        // A launch starts one entry with every thread waiting.
        p_launch_umask: assert(!r_launch ||
            depth == 1 && !pending && tos_umask == all_threads && tos_mask == r_taken);
        // A bypassing warp adds 1 to the WCnt of each pending path it has threads on.
        p_pending_wcnt: assert(!pending || nt_wcnt == g_nt && tk_wcnt == g_tk);
    end
endmodule
