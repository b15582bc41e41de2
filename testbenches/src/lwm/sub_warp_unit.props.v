// Properties of the sub-warp unit (SPEC §2.1), proved for all inputs on the exported
// Verilog by `weft prove`: WEFT_UUT becomes the preset's module, LANES and ROWS its
// parameters. Ghost registers follow the contract: the threads loaded and not yet
// presented (`pending`), the mode kept at load, and the sub-warps presented since.
// The invariants the inductions need are properties of their own (`p_inv_tied`: the
// ghost state is the block's registers; `p_inv_counted`), asserted beside every
// property by `weft prove`: every one closes at length 1. The harness names the
// compactor's eight rows, so it serves presets with ROWS = 8.
module weft_prove #(parameter LANES = 4, parameter ROWS = 8) (
    input clock,
    input reset,
    input load,
    input [ROWS*LANES-1:0] mask_in,
    input [1:0] mode
);
    localparam RW = $clog2(ROWS);
    wire sub_valid, last, stall;
    wire [LANES-1:0] sub_mask;
    wire [LANES*RW-1:0] sub_rows;
    WEFT_UUT uut (
        .clock(clock), .reset(reset), .load(load), .mask_in(mask_in), .mode(mode),
        .sub_valid(sub_valid), .sub_mask(sub_mask), .sub_rows(sub_rows), .last(last),
        .stall(stall)
    );

    reg init = 1'b1;
    reg [ROWS*LANES-1:0] pending = 0;
    reg [ROWS*LANES-1:0] loaded = 0;
    reg [1:0] held = 0;
    reg [7:0] count = 0;
    always @(*) if (init) assume(reset);

    // The block's registers (the compactor's rows still held, the mode kept at load),
    // read through `hierconn` wires: the induction needs the ghost state tied to them.
    (* hierconn *) wire [LANES-1:0] \uut.compactor.held$0$q , \uut.compactor.held$1$q ;
    (* hierconn *) wire [LANES-1:0] \uut.compactor.held$2$q , \uut.compactor.held$3$q ;
    (* hierconn *) wire [LANES-1:0] \uut.compactor.held$4$q , \uut.compactor.held$5$q ;
    (* hierconn *) wire [LANES-1:0] \uut.compactor.held$6$q , \uut.compactor.held$7$q ;
    (* hierconn *) wire [1:0] \uut.held_mode$q ;
    wire [ROWS*LANES-1:0] block_held = {
        \uut.compactor.held$7$q , \uut.compactor.held$6$q , \uut.compactor.held$5$q ,
        \uut.compactor.held$4$q , \uut.compactor.held$3$q , \uut.compactor.held$2$q ,
        \uut.compactor.held$1$q , \uut.compactor.held$0$q };
    wire tied = pending == block_held && (pending == 0 || held == \uut.held_mode$q );

    // This cycle's sub-warp as a 2-D mask, and whether inactive lanes carry row 0.
    reg [ROWS*LANES-1:0] presented;
    reg rows_clean;
    integer r0, c0;
    always @(*) begin
        presented = 0;
        rows_clean = 1'b1;
        for (c0 = 0; c0 < LANES; c0 = c0 + 1) begin
            if (!sub_mask[c0] && sub_rows[c0*RW +: RW] != 0) rows_clean = 1'b0;
            for (r0 = 0; r0 < ROWS; r0 = r0 + 1)
                if (sub_valid && sub_mask[c0] && sub_rows[c0*RW +: RW] == r0)
                    presented[r0*LANES + c0] = 1'b1;
        end
    end

    // The column compactor's choice (each lane's lowest pending row), the lowest
    // non-empty row, the largest column popcount of the loaded and of the pending
    // mask, and the non-empty rows of each.
    reg [ROWS*LANES-1:0] column_lowest, lowest_row;
    reg [7:0] max_pop, pop, max_pending_pop, pending_pop, rows_loaded, rows_pending;
    reg taken, row_found;
    integer r1, c1;
    always @(*) begin
        column_lowest = 0;
        lowest_row = 0;
        max_pop = 0;
        max_pending_pop = 0;
        rows_loaded = 0;
        rows_pending = 0;
        row_found = 1'b0;
        for (c1 = 0; c1 < LANES; c1 = c1 + 1) begin
            taken = 1'b0;
            pop = 0;
            pending_pop = 0;
            for (r1 = 0; r1 < ROWS; r1 = r1 + 1) begin
                if (!taken && pending[r1*LANES + c1]) begin
                    column_lowest[r1*LANES + c1] = 1'b1;
                    taken = 1'b1;
                end
                pop = pop + loaded[r1*LANES + c1];
                pending_pop = pending_pop + pending[r1*LANES + c1];
            end
            if (pop > max_pop) max_pop = pop;
            if (pending_pop > max_pending_pop) max_pending_pop = pending_pop;
        end
        for (r1 = 0; r1 < ROWS; r1 = r1 + 1) begin
            if (!row_found && pending[r1*LANES +: LANES] != 0) begin
                lowest_row[r1*LANES +: LANES] = pending[r1*LANES +: LANES];
                row_found = 1'b1;
            end
            rows_loaded = rows_loaded + (loaded[r1*LANES +: LANES] != 0);
            rows_pending = rows_pending + (pending[r1*LANES +: LANES] != 0);
        end
    end

    always @(posedge clock) begin
        init <= 1'b0;
        if (reset) begin
            pending <= 0;
            count <= 0;
        end else if (load) begin
            pending <= mask_in;
            loaded <= mask_in;
            held <= mode;
            count <= 0;
        end else if (sub_valid) begin
            pending <= last ? 0 : pending & ~presented;
            count <= count + 1;
        end
    end

    wire normal = held == 2'd0 || held == 2'd3;
    // The sub-warps counted so far and those left make up the large warp's: a normal
    // sub-warp takes one thread of every non-empty column, a memory one a whole row,
    // a jump's is the only one (count < ROWS keeps the sums from wrapping).
    wire counted = pending == 0 || count < ROWS && (normal ? count + max_pending_pop == max_pop
        : held == 2'd1 ? count + rows_pending == rows_loaded : count == 0);
    always @(*) if (!init) begin
        // The invariants: the ghost threads and mode are the block's registers, and the
        // sub-warps counted so far and those left make up the large warp's.
        p_inv_tied: assert(tied);
        p_inv_counted: assert(counted);
        // Every lane of a sub-warp is a loaded thread not presented before.
        p_held_threads: assert((presented & ~pending) == 0);
        // A sub-warp every cycle while threads are pending, none otherwise.
        p_presents_while_pending: assert(sub_valid == (pending != 0));
        p_rows_of_inactive_lanes_zero: assert(rows_clean);
        // `last` exactly when the sub-warp takes what is left (a jump's at once).
        p_last: assert(!sub_valid || last == (held == 2'd2 || presented == pending));
        p_stall: assert(stall == (sub_valid && !last));
        // Normal mode: the column compactor's choice, so the sub-warps are as few as
        // the largest column popcount of the loaded mask.
        p_normal_packs_columns: assert(!(sub_valid && normal) || presented == column_lowest);
        p_normal_sub_warps_max_column_popcount:
            assert(!(sub_valid && last && normal) || count + 1 == max_pop);
        // Memory mode: all pending threads of the lowest non-empty row.
        p_memory_one_row: assert(!(sub_valid && held == 2'd1) || presented == lowest_row);
        // Jump mode: one sub-warp, normal mode's first choice.
        p_jump_one_sub_warp:
            assert(!(sub_valid && held == 2'd2) || (last && count == 0 && presented == column_lowest));
        p_last_within_rows: assert(!sub_valid || count < ROWS);
    end
endmodule
