// Properties of the warp compaction unit (SPEC §3.2), proved for all inputs on the
// exported Verilog by `weft prove`: WEFT_UUT becomes the preset's module, CTA_WARPS and
// LANES its parameters. Ghost registers follow the contract: the waiting threads
// loaded (those whose `umask` bit is set: the update mask has one bit per thread) and
// not yet compacted, and the compacted warps emitted since the load. The invariants the
// inductions need are properties of their own (`p_inv_tied`, `p_inv_counted`), asserted
// beside every property by `weft prove`.
module weft_prove #(parameter CTA_WARPS = 3, parameter LANES = 4) (
    input clock,
    input reset,
    input load,
    input [CTA_WARPS*LANES-1:0] cta_mask,
    input [CTA_WARPS*LANES-1:0] umask
);
    localparam SW = CTA_WARPS > 1 ? $clog2(CTA_WARPS) : 1;
    localparam CW = $clog2(CTA_WARPS + 1);
    wire warp_valid, warp_last, saves_warps;
    wire [LANES-1:0] warp_mask;
    wire [LANES*SW-1:0] warp_src;
    wire [CW-1:0] warps_needed, waiting_warps;
    WEFT_UUT uut (
        .clock(clock), .reset(reset), .load(load), .cta_mask(cta_mask), .umask(umask),
        .warp_valid(warp_valid), .warp_mask(warp_mask), .warp_src(warp_src),
        .warp_last(warp_last), .warps_needed(warps_needed),
        .waiting_warps(waiting_warps), .saves_warps(saves_warps)
    );

    reg init = 1'b1;
    always @(*) if (init) assume(reset);

    reg [CTA_WARPS*LANES-1:0] pending = 0, waiting = 0;
    reg [7:0] count = 0;

    // The compactor's rows still held (one register per CTA warp, up to eight), read
    // through `hierconn` wires: the induction needs the ghost threads tied to them.
    // Names past CTA_WARPS match no register; their wires are sliced off below.
    (* hierconn *) wire [LANES-1:0] \uut.compactor.held$0$q , \uut.compactor.held$1$q ;
    (* hierconn *) wire [LANES-1:0] \uut.compactor.held$2$q , \uut.compactor.held$3$q ;
    (* hierconn *) wire [LANES-1:0] \uut.compactor.held$4$q , \uut.compactor.held$5$q ;
    (* hierconn *) wire [LANES-1:0] \uut.compactor.held$6$q , \uut.compactor.held$7$q ;
    wire [8*LANES-1:0] rows_held = {
        \uut.compactor.held$7$q , \uut.compactor.held$6$q , \uut.compactor.held$5$q ,
        \uut.compactor.held$4$q , \uut.compactor.held$3$q , \uut.compactor.held$2$q ,
        \uut.compactor.held$1$q , \uut.compactor.held$0$q };
    wire tied = pending == rows_held[CTA_WARPS*LANES-1:0];

    // The load's waiting threads: bypassed threads take no part.
    wire [CTA_WARPS*LANES-1:0] load_waiting = cta_mask & umask;

    // This cycle's compacted warp as a CTA-wide mask; inactive lanes carry warp 0.
    reg [CTA_WARPS*LANES-1:0] presented;
    reg srcs_clean;
    integer r0, c0;
    always @(*) begin
        presented = 0;
        srcs_clean = 1'b1;
        for (c0 = 0; c0 < LANES; c0 = c0 + 1) begin
            if (!warp_mask[c0] && warp_src[c0*SW +: SW] != 0) srcs_clean = 1'b0;
            for (r0 = 0; r0 < CTA_WARPS; r0 = r0 + 1)
                if (warp_valid && warp_mask[c0] && warp_src[c0*SW +: SW] == r0)
                    presented[r0*LANES + c0] = 1'b1;
        end
    end

    // Compacted warps needed (largest lane popcount) and warps waiting, of the
    // waiting threads loaded; the largest lane popcount of those not yet compacted.
    reg [7:0] max_pop, pop, rows, max_pending_pop, pending_pop;
    integer r1, c1;
    always @(*) begin
        max_pop = 0;
        max_pending_pop = 0;
        rows = 0;
        for (c1 = 0; c1 < LANES; c1 = c1 + 1) begin
            pop = 0;
            pending_pop = 0;
            for (r1 = 0; r1 < CTA_WARPS; r1 = r1 + 1) begin
                pop = pop + waiting[r1*LANES + c1];
                pending_pop = pending_pop + pending[r1*LANES + c1];
            end
            if (pop > max_pop) max_pop = pop;
            if (pending_pop > max_pending_pop) max_pending_pop = pending_pop;
        end
        for (r1 = 0; r1 < CTA_WARPS; r1 = r1 + 1)
            if (waiting[r1*LANES +: LANES] != 0) rows = rows + 1;
    end

    always @(posedge clock) begin
        init <= 1'b0;
        if (reset) begin
            pending <= 0;
            waiting <= 0;
            count <= 0;
        end else if (load) begin
            pending <= load_waiting;
            waiting <= load_waiting;
            count <= 0;
        end else if (warp_valid) begin
            pending <= pending & ~presented;
            count <= count + 1;
        end
    end

    // Each compacted warp takes one thread of every lane that has one left, so the
    // warps emitted and those left make up the minimum (count < CTA_WARPS keeps the
    // sum from wrapping).
    wire counted = pending == 0 || count < CTA_WARPS && count + max_pending_pop == max_pop;

    always @(*) if (!init) begin
        // The invariants: the ghost threads are the compactor's rows, and the compacted
        // warps counted so far and those left make up the minimum.
        p_inv_tied: assert(tied);
        p_inv_counted: assert(counted);
        // Every compacted thread is a waiting thread not compacted before, in its own
        // lane (the format keeps lanes): none duplicated, none bypassed.
        p_threads_conserved: assert((presented & ~pending) == 0);
        // A compacted warp every cycle while threads wait, none otherwise.
        p_valid_while_pending: assert(warp_valid == (pending != 0));
        p_inactive_lanes_warp_zero: assert(srcs_clean);
        // The last compacted warp takes every thread left: none lost.
        p_last_takes_the_rest: assert(!warp_valid || warp_last == (presented == pending));
        // As many compacted warps as the adequacy evaluator's minimum, and the counts.
        p_compacted_warps_minimum: assert(!(warp_valid && warp_last) || count + 1 == max_pop);
        p_warps_needed: assert(warps_needed == max_pop);
        p_waiting_warps: assert(waiting_warps == rows);
        p_saves_warps: assert(saves_warps == (max_pop < rows));
    end
endmodule
